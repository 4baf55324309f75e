import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { FixtureInput } from '../../shared/schemas/fixture';
import { recordingObjectKey } from '../../shared/storage/recording-objects';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { hashInviteToken } from '../../shared/domain/invites/invite-tokens';
import { emailGuardItem, inviteItem, tokenItem, type InviteRecord } from '../../shared/storage/invite-items';
import type { TableContext } from '../../shared/storage/dynamo';
import { localDeployment, localS3, seed } from './api';
import { buildOrg, seedOrg, type TestOrg } from './org-builder';

/**
 * An organization whose member `zed` has one of everything an erasure removes or rewrites:
 * recordings (live and trashed) with files, transcripts, summaries, action items and
 * translations, settings with a profile and preferences, a personal key, a tag, an invitation
 * to their email, and action items naming them in the owner's recording. Every string that
 * identifies them is unique to this world, so a read of the whole deployment finds it or not.
 */
export interface ErasureWorld {
  org: TestOrg<'owner' | 'admin' | 'zed', 'zedKey' | 'orgKey', 'zedTag'>;
  zed: { id: string; email: string; display_name: string };
  /** What only the erased member's data holds. */
  secrets: { profile: string; phrases: string[] };
  zedRecordings: string[];
  ownerRecording: string;
}

export async function seedErasureWorld(
  options: { label: string; recordings?: number; db?: TableContext } = { label: 'era' },
): Promise<ErasureWorld> {
  const org = buildOrg({
    label: options.label,
    people: {
      owner: { role: 'owner', first: 'olga' },
      admin: { role: 'admin', first: 'adam' },
      zed: { role: 'member', first: 'zed' },
    },
    keys: { zedKey: { scopes: ['recordings:read'], user: 'zed' }, orgKey: { scopes: ['governance:write', 'users:read'] } },
    tags: { zedTag: { name: `quill-tag`, color: '#123456', owner: 'zed' } },
  });
  const u = org.id;
  // The display name and phrases carry the world's suffix, so no other suite's data holds them.
  org.people.zed.display_name = `Zelda Quillfeather${u}`;
  const zed = org.people.zed;
  const phrases = [`marmalade${u} budget`, `xylophone${u} roadmap`];
  const profile = `Zelda${u} prefers morning meetings`;
  const count = options.recordings ?? 3;
  const zedRecordings = Array.from({ length: count }, (_, i) => org.recId(`zed${i}`));
  const ownerRecording = org.recId('owner');
  const recording = (id: string, by: string, i: number, extra: Record<string, unknown> = {}) => ({
    id,
    org_id: org.org,
    recorded_by: by,
    title: `Meeting ${i}`,
    duration: 60,
    language: 'en',
    created_at: new Date(Date.UTC(2026, 0, 1, 9, 0, i)).toISOString(),
    ...extra,
  });
  const fixture: FixtureInput = {
    recordings: [
      ...zedRecordings.map((id, i) =>
        recording(id, zed.id, i, {
          tags: i === 0 ? [org.tags.zedTag.id] : [],
          ...(i === 1 ? { deleted_at: '2026-01-02T00:00:00.000Z' } : {}),
          upload: { filename: 'zed.m4a', content_type: 'audio/mp4', size_bytes: 16, uploaded_at: '2026-01-01T09:00:00.000Z' },
          transcript: [{ speaker: zed.display_name, text: `${phrases[0]} and ${phrases[1]}`, start: 0, end: 5 }],
          summary: { markdown: `Discussed ${phrases[0]}.` },
          action_items: [{ text: `Follow up on ${phrases[1]}`, assignee: zed.display_name }],
          translation: { to_language: 'es', detected_language: 'en' },
        }),
      ),
      recording(ownerRecording, org.people.owner.id, 99, {
        transcript: [{ speaker: 'Olga', text: 'The quarterly plan is approved.', start: 0, end: 3 }],
        action_items: [
          { text: 'Send the deck', assignee: zed.display_name },
          { text: 'Book the room', assignee: org.people.admin.display_name },
        ],
      }),
    ],
    settings: [
      {
        org_id: org.org,
        user_id: zed.id,
        settings: { auto_transcription: false },
        profile,
        preferences: [{ command: `Mention ${phrases[0]}`, command_type: 'summary', preference_content: profile }],
      },
    ],
  };
  const db = options.db ?? localDeployment().db;
  if (options.db) await seed(db, { ...org.fixture, ...fixture });
  else await seedOrg(org, fixture);
  // A pending invitation to their address (one sent before they joined by another route): written as the invite routes leave it.
  const now = new Date();
  const invite: InviteRecord & { token_hash: string } = {
    id: `inv_zed_${u}`,
    org_id: org.org,
    email: zed.email,
    role: 'admin',
    status: 'pending',
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    expires_at: new Date(now.getTime() + 7 * 86_400_000).toISOString(),
    invited_by: org.people.owner.id,
    token_hash: hashInviteToken(`inv_zed_${u}_token`),
    delivery: { status: 'sent', sent_at: now.toISOString(), attempts: 1, last_error: null },
  };
  for (const Item of [inviteItem(invite), tokenItem(invite, invite.token_hash), emailGuardItem(invite)]) {
    await db.client.send(new PutCommand({ TableName: db.tableName, Item }));
  }
  const { s3, bucket } = localS3();
  for (const id of zedRecordings) {
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: recordingObjectKey(org.org, id, 'zed.m4a'), Body: `audio ${phrases[0]}` }));
  }
  return { org, zed, secrets: { profile, phrases }, zedRecordings, ownerRecording };
}

/** A second organization the same person belongs to, with a recording of theirs there. */
export async function seedOtherOrganization(label: string, person: { id: string }): Promise<{ orgId: string; recordingId: string }> {
  const other = buildOrg({ label, people: { owner: { role: 'owner', first: 'otto' } } });
  await seedOrg(other, {
    memberships: [{ org_id: other.org, user_id: person.id, role: 'member' }],
    recordings: [
      { id: other.recId('kept'), org_id: other.org, recorded_by: person.id, title: 'Kept elsewhere', duration: 10, language: 'en' },
    ],
  });
  return { orgId: other.org, recordingId: other.recId('kept') };
}
