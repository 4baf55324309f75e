import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { generateApiKey, hashApiKey, keyPrefixOf } from '../../shared/auth/api-key-secrets';
import { newApiKeyRecord } from '../../shared/storage/api-key-items';
import { insertApiKey } from '../../shared/storage/api-keys';
import { SCOPES } from '../../shared/core/access';
import { hashInviteToken } from '../../shared/domain/invites/invite-tokens';
import type { FixtureInput } from '../../shared/schemas/fixture';
import type { TableContext } from '../../shared/storage/dynamo';
import { emailGuardItem, inviteItem, tokenItem, type InviteRecord } from '../../shared/storage/invite-items';
import { keys } from '../../shared/storage/keys';
import { recordingObjectKey } from '../../shared/storage/recording-objects';
import { PERSONAL_KEY_SCOPES } from '../../infra/sam/sample-setup';
import type { SampleIds } from '../../shared/routes/sample-request';
import { localWebhookSecretCipher } from '../../infra/local/profile-key';
import { newDelivery } from '../../shared/domain/webhooks/deliveries';
import { deliveryIdFor, deliveryItem, webhookItem, type WebhookRecord } from '../../shared/storage/webhook-items';
import { newSigningSecret } from '../../shared/webhooks/signature';
import { localDeployment, seed, unique } from './api';
import { queuedMemberExport } from '../../shared/domain/exports/create-member-export';
import { insertMemberExport } from '../../shared/storage/member-exports';
import { seedCompletedErasure } from '../../infra/local/demo-erasures';

/**
 * Fresh ids for seedSampleData, all under one label and a random suffix (`org_<label>_<hex>`…),
 * so each suite that seeds them acts on its own organization. `overrides` fixes any of them.
 */
export function sampleIds(label: string, overrides: Partial<SampleIds> = {}): SampleIds {
  const u = unique();
  return {
    orgId: `org_${label}_${u}`,
    ownerId: `usr_${label}_${u}_owner`,
    ownerEmail: `olivia.owner.${label}.${u}@sample.example`,
    apiKeyId: `key_${label}_${u}`,
    memberId: `usr_${label}_${u}_member`,
    exportId: `exp_${label}_${u}`,
    managedMemberId: `usr_${label}_${u}_viewer`,
    managedMemberEmail: `victor.viewer@${sampleEmailDomain(overrides.orgId ?? `org_${label}_${u}`)}`,
    erasureId: `era_${label}_${u}`,
    recordingId: `rec_${label}_${u}_live`,
    editRecordingId: `rec_${label}_${u}_edit`,
    trashedRecordingId: `rec_${label}_${u}_trash`,
    uploadRecordingId: `rec_${label}_${u}_upload`,
    mediaRecordingId: `rec_${label}_${u}_media`,
    uploadFilename: 'customer-interview.m4a',
    uploadBytes: 2_345_678,
    tagId: `tag_${label}_${u}`,
    templateId: `tpl_${label}_${u}`,
    resendInviteId: `inv_${label}_${u}_resend`,
    revokeInviteId: `inv_${label}_${u}_revoke`,
    inviteToken: `invite_token_${label}_${u}_${generateApiKey('org_key').slice(-16)}`,
    inviteeEmail: `ines.${label}.${u}@invitee.example`,
    newInviteEmail: `nina.${label}.${u}@invitee.example`,
    webhookId: `wh_${label}_${u}`,
    deleteWebhookId: `wh_${label}_${u}_delete`,
    deliveryId: deliveryIdFor(new Date(), `wh_${label}_${u}`, `evt_${u}`),
    webhookUrl: SAMPLE_WEBHOOK_URL,
    ...overrides,
  };
}

/** The played sample recording's original file name: not ASCII, so its Content-Disposition has both forms. */
export const SAMPLE_MEDIA_FILENAME = 'Mémo vocal.m4a';

/**
 * The domain of the sample people's addresses: `org_demo` → `demo.example`, as in
 * fixtures/demo.json, so this seed and that fixture can share a table.
 */
export function sampleEmailDomain(orgId: string): string {
  return `${orgId.replace(/^org_/, '').replace(/_/g, '-')}.example`;
}

/**
 * The data every route's sample request (its route module's `sample`) acts on, for a set of ids:
 * an organization with an owner, a member and a viewer (made a member, then removed), an org key with every scope and the member's
 * personal key (the plaintext keys given), a tag, a template, five recordings (live, to
 * change and trash, in the trash, waiting for its upload, the member's with its file uploaded) and three pending invitations
 * (to send again, to revoke, and one for the invitee to accept with ids.inviteToken).
 */
export async function seedSampleData(
  db: TableContext,
  ids: SampleIds,
  credentials: { orgKey: string; personalKey: string },
): Promise<void> {
  const ownerId = ids.ownerId;
  const domain = sampleEmailDomain(ids.orgId);
  const fixture: FixtureInput = {
    orgs: [{ id: ids.orgId, name: 'Sample Voice Co' }],
    users: [
      { id: ownerId, email: ids.ownerEmail, display_name: 'Olivia Owner', timezone: 'Europe/Paris' },
      { id: ids.memberId, email: `mia.member@${domain}`, display_name: 'Mia Member', timezone: 'Asia/Tokyo' },
      { id: ids.managedMemberId, email: ids.managedMemberEmail, display_name: 'Victor Viewer', timezone: 'UTC' },
    ],
    memberships: [
      { org_id: ids.orgId, user_id: ownerId, role: 'owner' },
      { org_id: ids.orgId, user_id: ids.memberId, role: 'member' },
      { org_id: ids.orgId, user_id: ids.managedMemberId, role: 'viewer' },
    ],
    api_keys: [
      { org_id: ids.orgId, key: credentials.orgKey, scopes: [...SCOPES] },
      { org_id: ids.orgId, user_id: ids.memberId, key: credentials.personalKey, scopes: PERSONAL_KEY_SCOPES },
    ],
    tags: [{ id: ids.tagId, org_id: ids.orgId, user_id: ids.memberId, name: 'Sales', color: '#1f77b4' }],
    templates: [
      {
        id: ids.templateId,
        org_id: ids.orgId,
        name: 'Sales call',
        description: 'For customer calls: needs, objections, next steps.',
        sections: [{ title: 'Customer needs', prompt: 'List what the customer said they need, in their words.' }],
      },
    ],
    recordings: [
      {
        id: ids.recordingId,
        org_id: ids.orgId,
        recorded_by: ids.memberId,
        title: 'Monday standup',
        duration: 612,
        language: 'en',
        tags: [ids.tagId],
        created_at: '2026-11-16T09:05:00.000Z',
        transcript: [{ speaker: 'Mia', text: 'Morning all, quick round please.', start: 0, end: 3.2 }],
        summary: { markdown: '## Standup\n\n- APAC pricing deck ready for review' },
        action_items: [{ text: 'Send the pricing deck to the customer', assignee: ids.memberId, due_date: '2026-11-18' }],
      },
      {
        id: ids.editRecordingId,
        org_id: ids.orgId,
        recorded_by: ownerId,
        title: 'Sales call with Kobe Trading',
        duration: 1834,
        language: 'ja',
        created_at: '2026-11-18T02:30:00.000Z',
      },
      {
        id: ids.trashedRecordingId,
        org_id: ids.orgId,
        recorded_by: ownerId,
        title: 'Microphone test',
        duration: 12,
        language: 'en',
        created_at: '2026-11-02T16:00:00.000Z',
        deleted_at: '2026-11-03T08:00:00.000Z',
      },
      {
        id: ids.uploadRecordingId,
        org_id: ids.orgId,
        recorded_by: ids.memberId,
        title: 'Customer interview',
        duration: 0,
        language: 'en',
        state: 'pending_upload',
        created_at: '2026-11-16T09:25:00.000Z',
      },
      // Before the lists' sample start date (2026-11-01): the sample lists stay as they were.
      {
        id: ids.mediaRecordingId,
        org_id: ids.orgId,
        recorded_by: ids.memberId,
        title: 'Voice memo',
        duration: 95,
        language: 'fr',
        state: 'uploaded',
        created_at: '2026-10-28T15:00:00.000Z',
      },
    ],
    settings: [
      {
        org_id: ids.orgId,
        user_id: ids.memberId,
        settings: { selected_theme: 'dark' },
        profile: '# Mia\n\nSales lead for the APAC region.',
      },
    ],
  };
  await seed(db, fixture);
  await seedCompletedErasure(db, { orgId: ids.orgId, erasureId: ids.erasureId, userId: ids.managedMemberId, ownerId }, new Date());

  // The pending upload, as Create upload URL leaves it: the S3 event completes it.
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.recording(ids.orgId, ids.uploadRecordingId),
      UpdateExpression: 'SET upload = :upload',
      ExpressionAttributeValues: {
        ':upload': {
          s3_key: recordingObjectKey(ids.orgId, ids.uploadRecordingId, ids.uploadFilename),
          content_type: 'audio/mp4',
          filename: ids.uploadFilename,
          size_bytes: ids.uploadBytes,
        },
      },
    }),
  );

  // The uploaded file, as the upload completion leaves it (no object is needed: a media URL is only signed).
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.recording(ids.orgId, ids.mediaRecordingId),
      UpdateExpression: 'SET upload = :upload',
      ExpressionAttributeValues: {
        ':upload': {
          s3_key: recordingObjectKey(ids.orgId, ids.mediaRecordingId, SAMPLE_MEDIA_FILENAME),
          content_type: 'audio/mp4',
          filename: SAMPLE_MEDIA_FILENAME,
          size_bytes: 1_520_000,
          uploaded_bytes: 1_520_000,
          uploaded_content_type: 'audio/mp4',
          uploaded_at: '2026-10-28T15:02:00.000Z',
        },
      },
    }),
  );

  // Pending invitations whose email was sent: the invite, its token lookup, its email guard (the
  // invitation mail consumer leaves an invite whose email left alone, so the tokens stay known).
  const now = new Date();
  const invite = (id: string, email: string, token: string): InviteRecord & { token_hash: string } => ({
    id,
    org_id: ids.orgId,
    email,
    role: 'member',
    status: 'pending',
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    expires_at: new Date(now.getTime() + 7 * 86_400_000).toISOString(),
    invited_by: ownerId,
    token_hash: hashInviteToken(token),
    delivery: { status: 'sent', sent_at: now.toISOString(), attempts: 1, last_error: null },
  });
  const invites = [
    invite(ids.resendInviteId, `rita.resend@${domain}`, `${ids.resendInviteId}_token`),
    invite(ids.revokeInviteId, `rob.revoke@${domain}`, `${ids.revokeInviteId}_token`),
    invite(`${ids.resendInviteId}_accept`, ids.inviteeEmail, ids.inviteToken),
  ];
  for (const record of invites) {
    for (const Item of [inviteItem(record), tokenItem(record, record.token_hash), emailGuardItem(record)]) {
      await db.client.send(new PutCommand({ TableName: db.tableName, Item }));
    }
  }
  await seedSampleWebhooks(db, ids, now);
  await seedSampleApiKey(db, ids, now);
  // The member's export the owner asked for: the deployment's export consumer writes it.
  await insertMemberExport(
    db,
    queuedMemberExport({ id: ids.exportId, orgId: ids.orgId, userId: ids.memberId, includeMedia: false, requestedBy: ownerId, at: now }),
  );
}

/** An organization key created by the owner, under a known id, to read, rotate and revoke (its secret is never used). */
async function seedSampleApiKey(db: TableContext, ids: SampleIds, now: Date): Promise<void> {
  const secret = generateApiKey('org_key');
  await insertApiKey(
    db,
    newApiKeyRecord({
      key_id: ids.apiKeyId,
      org_id: ids.orgId,
      kind: 'org',
      name: 'CRM sync',
      prefix: keyPrefixOf(secret),
      scopes: ['recordings:read'],
      user_id: null,
      created_at: now.toISOString(),
      created_by: ids.ownerId,
      secret_hash: hashApiKey(secret),
    }),
  );
}

/** Where the sample endpoints point: a loopback port nothing listens on (the test deployment allows loopback URLs). */
export const SAMPLE_WEBHOOK_URL = 'http://127.0.0.1:9/voice-org';

/**
 * Two endpoints (one to change, one to delete), counted, each with a secret sealed by the
 * local deployment's key, and a failed delivery of the first to retry. They subscribe to
 * `recording.upload_failed` only, which no sample request causes, so nothing else is sent
 * to them in the background while the suites compare what requests changed.
 */
async function seedSampleWebhooks(db: TableContext, ids: SampleIds, now: Date): Promise<void> {
  const cipher = localWebhookSecretCipher(localDeployment().dataDir);
  for (const webhookId of [ids.webhookId, ids.deleteWebhookId]) {
    const webhook: WebhookRecord = {
      id: webhookId,
      org_id: ids.orgId,
      url: SAMPLE_WEBHOOK_URL,
      description: 'Sample endpoint',
      events: ['recording.upload_failed'],
      enabled: true,
      disabled_reason: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      secrets: [{ ciphertext: await cipher.encrypt(newSigningSecret(), { orgId: ids.orgId, webhookId }), created_at: now.toISOString() }],
      failing_since: null,
    };
    await db.client.send(new PutCommand({ TableName: db.tableName, Item: webhookItem(webhook) }));
  }
  await db.client.send(new PutCommand({ TableName: db.tableName, Item: { ...keys.webhookCount(ids.orgId), endpoints: 2 } }));
  const event = {
    id: `evt_${'0'.repeat(32)}`,
    type: 'invite.accepted',
    occurred_at: now.toISOString(),
    org_id: ids.orgId,
    actor: null,
    correlation_id: null,
    resource: { type: 'invite', id: ids.resendInviteId },
    data: {},
  } as const;
  const delivery = {
    ...newDelivery(event, ids.webhookId, now),
    id: ids.deliveryId,
    status: 'failed',
    attempts: 8,
    error: 'connection_refused',
    next_attempt_at: null,
  } as const;
  await db.client.send(
    new PutCommand({ TableName: db.tableName, Item: deliveryItem(delivery, Math.floor(now.getTime() / 1000) + 86_400) }),
  );
}
