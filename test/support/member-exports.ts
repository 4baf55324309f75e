import { PutObjectCommand } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import AdmZip from 'adm-zip';
import type { MemberCaller } from '../../shared/auth/policy';
import type { Role } from '../../shared/core/access';
import type { TableContext } from '../../shared/storage/dynamo';
import { createExportObjects } from '../../shared/storage/export-objects';
import { keys } from '../../shared/storage/keys';
import { recordingObjectKey } from '../../shared/storage/recording-objects';
import type { FixtureInput } from '../../shared/schemas/fixture';
import { localDeployment, localS3, seed, unique } from './api';

/**
 * What the member export suites share (domain, integration, bench): an organization whose
 * member has recordings (with a transcript, a fixture summary and action items, and an
 * uploaded audio file), settings with a profile and a preference, a personal key, and an
 * action item assigned to them in the owner's recording; and reading a ZIP back.
 */

export interface ExportWorld {
  orgId: string;
  owner: { id: string; email: string };
  admin: { id: string; email: string };
  member: { id: string; email: string; display_name: string };
  other: { id: string; email: string };
  recordingIds: string[];
  /** The owner's recording with an action item assigned to the member. */
  othersRecordingId: string;
  profile: string;
  /** The audio bytes of each of the member's recordings. */
  media: Buffer;
}

const person = (label: string, u: string) => ({ id: `usr_exp_${u}_${label}`, email: `${label}.${u}@export.example` });

/** Seeds the world; `recordings` of the member's (each with its audio file when `media`). */
export async function seedExportWorld(
  db: TableContext,
  { recordings = 2, media = true, personalKey }: { recordings?: number; media?: boolean; personalKey?: string } = {},
): Promise<ExportWorld> {
  const u = unique();
  const orgId = `org_exp_${u}`;
  const owner = person('owner', u);
  const admin = person('admin', u);
  const member = { ...person('member', u), display_name: 'Mia Export' };
  const other = person('other', u);
  const profile = `# Mia ${u}\n\nLikes short summaries.`;
  const recordingIds = Array.from({ length: recordings }, (_, i) => `rec_exp_${u}_${i}`);
  const othersRecordingId = `rec_exp_${u}_owner`;
  const fixture: FixtureInput = {
    orgs: [{ id: orgId, name: `Export ${u}` }],
    users: [owner, admin, other].map((p) => ({ id: p.id, email: p.email, display_name: p.id })).concat([member]),
    memberships: (
      [
        [owner, 'owner'],
        [admin, 'admin'],
        [member, 'member'],
        [other, 'member'],
      ] as [{ id: string }, Role][]
    ).map(([p, role]) => ({ org_id: orgId, user_id: p.id, role })),
    api_keys: personalKey ? [{ org_id: orgId, user_id: member.id, key: personalKey, scopes: ['recordings:read'] }] : [],
    recordings: [
      ...recordingIds.map((id, i) => ({
        id,
        org_id: orgId,
        recorded_by: member.id,
        title: `Call ${i}`,
        duration: 60,
        language: 'en',
        created_at: new Date(Date.UTC(2026, 10, 1, 9, 0, i)).toISOString(),
        transcript: [{ speaker: 'Mia', text: `Phrase number ${i} of ${u}.`, start: 0, end: 2 }],
        summary: { markdown: `## Call ${i}\n\n- decided ${u}` },
        action_items: [{ text: `Follow up ${i}`, assignee: member.id, due_date: '2026-11-20' }],
        ...(media
          ? {
              upload: {
                filename: `call-${i}.m4a`,
                content_type: 'audio/mp4' as const,
                size_bytes: 16,
                uploaded_at: '2026-11-01T09:10:00.000Z',
              },
            }
          : {}),
      })),
      {
        id: othersRecordingId,
        org_id: orgId,
        recorded_by: owner.id,
        title: 'Owner call',
        duration: 30,
        language: 'en',
        created_at: '2026-11-02T09:00:00.000Z',
        action_items: [
          { text: 'Mia sends the deck', assignee: member.id },
          { text: 'Someone else', assignee: other.id },
        ],
      },
    ],
    settings: [
      {
        org_id: orgId,
        user_id: member.id,
        settings: { selected_theme: 'dark' },
        profile,
        preferences: [{ command: 'Keep summaries short', command_type: 'summary_style', preference_content: 'short' }],
      },
    ],
  };
  await seed(db, fixture);
  const bytes = Buffer.from(`audio-${u}-bytes`);
  if (media) {
    const { s3, bucket } = localS3();
    for (const [i, id] of recordingIds.entries()) {
      const key = recordingObjectKey(orgId, id, `call-${i}.m4a`);
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: 'audio/mp4' }));
    }
  }
  return { orgId, owner, admin, member, other, recordingIds, othersRecordingId, profile, media: bytes };
}

/** An ID-token caller of the world's organization. */
export const memberCaller = (world: ExportWorld, who: { id: string }, role: Role): MemberCaller => ({
  kind: 'id_token',
  orgId: world.orgId,
  userId: who.id,
  role,
  actor: who.id,
});

/** The local deployment's bucket, as the export functions see it. */
export function localExportObjects() {
  const { runtime } = localDeployment();
  return createExportObjects({ bucket: runtime.bucketName, region: runtime.region, endpoint: runtime.s3Endpoint });
}

/** The files of a ZIP: name → content. */
export function unzip(zip: Buffer): Map<string, Buffer> {
  return new Map(
    new AdmZip(zip)
      .getEntries()
      .filter((entry) => !entry.isDirectory)
      .map((entry) => [entry.entryName, entry.getData()]),
  );
}

/** A JSON file of an unzipped export. */
export function jsonFile<T = any>(files: Map<string, Buffer>, name: string): T {
  const file = files.get(name);
  if (!file) throw new Error(`the export has no ${name} (it has ${[...files.keys()].join(', ')})`);
  return JSON.parse(file.toString('utf8')) as T;
}

/** Sets a recording's fields directly (a trashed recording, for instance). */
export async function setRecordingFields(db: TableContext, orgId: string, recordingId: string, fields: Record<string, unknown>) {
  const names = Object.keys(fields);
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.recording(orgId, recordingId),
      UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#f${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, fields[name]])),
    }),
  );
}
