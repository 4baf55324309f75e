import { randomBytes, randomUUID } from 'node:crypto';
import {
  createVoiceOrgClient,
  type ApiError,
  type Member,
  type OperationId,
  type RequestBody,
  type Template,
  type VoiceOrgClient,
} from '../../clients/typescript';
import { SCOPES } from '../../shared/core/access';
import { openApiDocument } from '../../shared/openapi/document';
import { idp, localDeployment, once, TIMESTAMP, unique } from '../support/api';
import { eventually } from '../support/eventually';
import { contractViolation } from '../support/contract';
import { latestToken } from '../support/invite-mail';
import { buildOrg, seedOrg, STAFF } from '../support/org-builder';
import { fixtureRecordingOf } from '../support/summaries';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

/**
 * The typed client (clients/typescript) against the local deployment: every operation of the
 * OpenAPI document is called through it, as an integrator would, and its typed `data` (or
 * `error`) is checked. Every response is also held to the document (test/support/contract.ts)
 * by the fetch the clients are given. The last test checks that the operations called are
 * exactly the document's: a new route fails here until a test calls it through the client.
 * Only the operations the API serves are called: the document's `webhooks` entry is what the
 * API sends to subscribers (test/integration/webhooks/webhook-deliveries.test.ts receives it).
 * The tests share one organization and run in file order (the audit log reads what the
 * template test did, the coverage test what all did): run the whole file.
 */
const { runtime } = localDeployment();

type Json = Record<string, any>;

/** `${METHOD} ${path template}` -> operationId, from the document the client was generated from. */
const OPERATIONS = new Map<string, string>(
  Object.entries<Json>(openApiDocument().paths).flatMap(([template, item]) =>
    Object.entries<Json>(item).map(
      ([method, operation]) => [`${method.toUpperCase()} ${template}`, operation.operationId as string] as const,
    ),
  ),
);

/** The operations the clients sent a request for, by operationId. */
const called = new Set<string>();

/** Every response checked against the OpenAPI document; a mismatch rejects the call. */
async function checkedFetch(request: Request): Promise<Response> {
  const response = await fetch(request);
  const text = await response.clone().text();
  const violation = contractViolation(
    request.method,
    new URL(request.url).pathname,
    response.status,
    text ? JSON.parse(text) : undefined,
    response.headers.keys(),
  );
  if (violation) throw new Error(`Contract check failed (shared/openapi): ${violation}`);
  return response;
}

/** A client of the local API with this credential (none: no Authorization header), that notes the operations it calls. */
function client(token?: string): VoiceOrgClient {
  const api = createVoiceOrgClient({ baseUrl: runtime.apiUrl, token, fetch: checkedFetch });
  api.use({
    onRequest({ request, schemaPath }) {
      const operationId = OPERATIONS.get(`${request.method} ${schemaPath}`);
      if (!operationId) throw new Error(`${request.method} ${schemaPath} is no operation of the document`);
      called.add(operationId);
    },
  });
  return api;
}

/** A value known to be defined (a 2xx's `data`), or a failure that shows the error envelope. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new Error(`${result.response.status}: ${JSON.stringify(result.error)}`);
  return result.data;
}

/** One organization for the whole file: the staff, a member to change and remove, an org key of every scope, the member's personal key. */
const world = once(async () => {
  const built = buildOrg({
    label: 'client',
    people: { ...STAFF, target: { role: 'member', first: 'tia' } },
    keys: { full: { scopes: [...SCOPES] }, personal: { scopes: ['recordings:read', 'recordings:write'], user: 'member' } },
  });
  // The member's uploads stay `uploaded` until a test asks for their transcription.
  const o = await seedOrg(built, {
    settings: [{ org_id: built.org, user_id: built.people.member.id, settings: { auto_transcription: false } }],
    // A transcribed recording of the member's, with a fixture summary: the summaries' operations act on it.
    recordings: [fixtureRecordingOf(built.org, built.recId('typed'), built.people.member.id)],
  });
  const ownerToken = await (await idp()).issueIdToken({ sub: `local|${o.people.owner.id}`, email: o.people.owner.email });
  return { o, org: client(o.keys.full), personal: client(o.keys.personal), owner: client(ownerToken) };
});

// ---------------------------------------------------------------------------------------

describe('health', () => {
  it('answers without a credential', async () => {
    const { data, response } = await client().GET('/health');
    expect(response.status).toBe(200);
    expect(data).toEqual({ status: 'ok' });
  });
});

describe('members and their settings', () => {
  it('lists the members (organization path and public alias) with typed rows', async () => {
    const { o, org } = await world();
    const listed = ok(await org.GET('/api/v1/organization/{orgId}/users', { params: { path: { orgId: o.org }, query: { q: 'olga' } } }));
    const owner: Member | undefined = listed.data.find((member) => member.user_id === o.people.owner.id);
    expect(owner).toMatchObject({ email: o.people.owner.email, role: 'owner', is_active: true });
    expect(listed.pagination.total).toBe(1);

    const aliased = ok(await org.GET('/api/v1/public/users'));
    expect(aliased.data.map((member) => member.user_id).sort()).toEqual(
      Object.values(o.people)
        .map((person) => person.id)
        .sort(),
    );

    // Integer query parameters are numbers in the client.
    const second = ok(
      await org.GET('/api/v1/organization/{orgId}/users', { params: { path: { orgId: o.org }, query: { page: 2, limit: 2 } } }),
    );
    expect(second.data).toHaveLength(2);
    expect(second.pagination).toEqual({ page: 2, limit: 2, total: 5, total_pages: 3, has_more: true });
  });

  it('reads and changes a member’s settings (organization path and public alias)', async () => {
    const { o, org } = await world();
    const member = o.people.member.id;
    const read = ok(
      await org.GET('/api/v1/organization/{orgId}/users/{userId}/settings', {
        params: { path: { orgId: o.org, userId: member }, query: { include: 'profile' } },
      }),
    );
    expect(read.success).toBe(true);

    const changed = ok(
      await org.PATCH('/api/v1/organization/{orgId}/users/{userId}/settings', {
        params: { path: { orgId: o.org, userId: member } },
        body: { settings: { selected_theme: 'dark' }, profile: { profile: '# Mo\n\nTyped notes.' } },
      }),
    );
    expect(changed.success).toBe(true);
    expect(changed.applied).toMatchObject({ settings: true, profile: true, notifications: false });

    const aliasChanged = ok(
      await org.PATCH('/api/v1/public/users/{userId}/settings', {
        params: { path: { userId: member } },
        body: { settings: { selected_theme: 'light' } },
      }),
    );
    expect(aliasChanged.applied).toMatchObject({ settings: true, profile: false });
    const aliasRead = ok(
      await org.GET('/api/v1/public/users/{userId}/settings', { params: { path: { userId: member }, query: { include: 'profile' } } }),
    );
    expect(JSON.stringify(aliasRead.data)).toContain('"selected_theme":"light"');
    expect(JSON.stringify(aliasRead.data)).toContain('Typed notes.');
  });

  it('changes a member’s role, then removes them', async () => {
    const { o, org } = await world();
    const path = { orgId: o.org, userId: o.people.target.id };
    const changed = ok(await org.PATCH('/api/v1/organization/{orgId}/users/{userId}', { params: { path }, body: { role: 'viewer' } }));
    expect(changed.data).toMatchObject({ user_id: o.people.target.id, role: 'viewer' });
    const removed = ok(await org.DELETE('/api/v1/organization/{orgId}/users/{userId}', { params: { path } }));
    expect(removed.data).toMatchObject({ user_id: o.people.target.id, status: 'removed' });
  });
});

describe('recordings: upload, read, play, change, trash, restore', () => {
  it('goes through the whole life of a recording', async () => {
    const { o, org, personal } = await world();
    const bytes = randomBytes(2048);
    const requested = await personal.POST('/api/v1/public/recordings/upload-url', {
      body: { filename: 'typed-standup.m4a', content_type: 'audio/mp4', size_bytes: bytes.length, title: 'Typed standup' },
    });
    expect(requested.response.status).toBe(201);
    const upload = ok(requested).data;
    expect(upload.method).toBe('PUT');
    const put = await fetch(upload.upload_url, { method: upload.method, headers: upload.headers, body: bytes });
    expect(put.status).toBe(200);

    const path = { orgId: o.org, recordingId: upload.recording_id };
    const settled = await eventually(
      async () => ok(await org.GET('/api/v1/organization/{orgId}/recordings/{recordingId}', { params: { path } })),
      (recording) => recording.state !== 'pending_upload',
    );
    expect(settled).toMatchObject({ id: upload.recording_id, title: 'Typed standup', state: 'uploaded', recorded_by: o.people.member.id });

    const media = ok(await org.GET('/api/v1/organization/{orgId}/recordings/{recordingId}/media', { params: { path } }));
    expect(media).toMatchObject({ content_type: 'audio/mp4', size_bytes: bytes.length, expires_at: expect.stringMatching(TIMESTAMP) });
    expect(Buffer.from(await (await fetch(media.url)).arrayBuffer()).equals(bytes)).toBe(true);
    const publicMedia = ok(
      await personal.GET('/api/v1/public/recordings/{recordingId}/media', { params: { path: { recordingId: upload.recording_id } } }),
    );
    expect(publicMedia.data).toMatchObject({ content_type: 'audio/mp4', size_bytes: bytes.length });

    // Its transcription, asked for (the file is no audio: it fails, with no transcript to export).
    const queued = ok(
      await org.POST('/api/v1/organization/{orgId}/recordings/{recordingId}/transcribe', { params: { path }, body: { language: 'en-US' } }),
    );
    expect(queued).toMatchObject({ id: upload.recording_id, transcript_status: 'queued', state: 'processing' });
    const again = await personal.POST('/api/v1/public/recordings/{recordingId}/transcribe', {
      params: { path: { recordingId: upload.recording_id } },
    });
    expect(again.response.status).toBe(409);
    const ended = await eventually(
      async () => ok(await org.GET('/api/v1/organization/{orgId}/recordings/{recordingId}', { params: { path } })),
      (recording) => recording.transcript_status === 'failed' || recording.transcript_status === 'completed',
    );
    expect(ended).toMatchObject({ state: 'ready', transcript_status: 'failed' });
    const noTranscript = await org.GET('/api/v1/organization/{orgId}/recordings/{recordingId}/transcript', {
      params: { path, query: { format: 'json' } },
    });
    expect([noTranscript.response.status, noTranscript.error?.error]).toEqual([404, 'TRANSCRIPT_NOT_FOUND']);
    const noPublicTranscript = await personal.GET('/api/v1/public/recordings/{recordingId}/transcript', {
      params: { path: { recordingId: upload.recording_id } },
    });
    expect(noPublicTranscript.response.status).toBe(404);
    const usage = ok(await org.GET('/api/v1/organization/{orgId}/usage', { params: { path: { orgId: o.org } } }));
    expect(usage).toMatchObject({ transcription_minutes: 0, allowance: null, members: [] });

    const publicList = ok(await personal.GET('/api/v1/public/recordings'));
    expect(publicList.data.map((recording) => recording.id)).toContain(upload.recording_id);

    const updated = ok(
      await org.PUT('/api/v1/organization/{orgId}/recordings/{recordingId}', {
        params: { path },
        body: { title: 'Typed standup (edited)' },
      }),
    );
    expect(updated).toMatchObject({ id: upload.recording_id, title: 'Typed standup (edited)' });

    const live = ok(await org.GET('/api/v1/organization/{orgId}/recordings', { params: { path: { orgId: o.org } } }));
    // Newest first: the upload, then the fixture's transcribed recording (the summaries' tests act on it).
    expect(live.recordings.map((recording) => recording.id)).toEqual([upload.recording_id, o.recId('typed')]);

    expect(ok(await org.DELETE('/api/v1/organization/{orgId}/recordings/{recordingId}', { params: { path } }))).toEqual({ success: true });
    const trash = ok(
      await org.GET('/api/v1/organization/{orgId}/recordings', { params: { path: { orgId: o.org }, query: { deleted: 'true' } } }),
    );
    expect(trash.recordings).toEqual([expect.objectContaining({ id: upload.recording_id, deleted_at: expect.stringMatching(TIMESTAMP) })]);

    const restored = ok(await org.POST('/api/v1/organization/{orgId}/recordings/{recordingId}/restore', { params: { path } }));
    expect(restored).toMatchObject({ id: upload.recording_id, title: 'Typed standup (edited)' });
    expect(restored.deleted_at).toBeUndefined();
  });
});

describe('templates', () => {
  const sections: RequestBody<'createTemplate'>['sections'] = [{ title: 'Decisions', prompt: 'List the decisions.' }];

  it('creates one once per Idempotency-Key, lists, reads, changes and deletes it; then reads a 404 through `error`', async () => {
    const { o, org } = await world();
    const orgPath = { orgId: o.org };
    const key = randomUUID();
    const create = () =>
      org.POST('/api/v1/organization/{orgId}/templates', {
        params: { path: orgPath, header: { 'Idempotency-Key': key } },
        body: { name: 'Standup', sections },
      });
    const first = await create();
    expect(first.response.status).toBe(201);
    const template: Template = ok(first);
    expect(template).toMatchObject({ name: 'Standup', description: '', sections, created_at: expect.stringMatching(TIMESTAMP) });
    const replayed = await create();
    expect(replayed.response.headers.get('idempotent-replayed')).toBe('true');
    expect(ok(replayed)).toEqual(template);

    const listed = ok(await org.GET('/api/v1/organization/{orgId}/templates', { params: { path: orgPath } }));
    expect(listed.templates.map((t) => t.id)).toEqual([template.id]);

    const path = { orgId: o.org, templateId: template.id };
    expect(ok(await org.GET('/api/v1/organization/{orgId}/templates/{templateId}', { params: { path } }))).toEqual(template);
    const renamed = ok(
      await org.PATCH('/api/v1/organization/{orgId}/templates/{templateId}', { params: { path }, body: { name: 'Daily standup' } }),
    );
    expect(renamed).toMatchObject({ id: template.id, name: 'Daily standup', sections });
    expect(ok(await org.DELETE('/api/v1/organization/{orgId}/templates/{templateId}', { params: { path } }))).toEqual({ success: true });

    const gone = await org.GET('/api/v1/organization/{orgId}/templates/{templateId}', { params: { path } });
    expect(gone.response.status).toBe(404);
    expect(gone.data).toBeUndefined();
    // The envelope as sent: openapi-fetch's types leave out its always-null `data` (a property typed `null` alone).
    const envelope: Omit<ApiError, 'data'> | undefined = gone.error;
    expect(envelope).toEqual({ success: false, data: null, error: 'TEMPLATE_NOT_FOUND', message: expect.stringContaining(template.id) });
    // `error.error` is typed as the codes the document lists for the operation: a misspelt one does not compile.
    // @ts-expect-error 'TEMPLATE_NOT_FOND' is no code of getTemplate
    expect(gone.error?.error === 'TEMPLATE_NOT_FOND').toBe(false);
    expect(gone.error?.error === 'TEMPLATE_NOT_FOUND').toBe(true);
  });

  it('reads a 400 through `error`, with `details` naming the field', async () => {
    const { o, org } = await world();
    const { data, error, response } = await org.POST('/api/v1/organization/{orgId}/templates', {
      params: { path: { orgId: o.org } },
      body: { name: '', sections },
    });
    expect(response.status).toBe(400);
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ success: false, data: null, error: 'VALIDATION_ERROR' });
    expect(error?.details?.map((detail) => detail.field)).toEqual(['name']);
  });

  it('reads a 401 through `error` when no credential is sent', async () => {
    const { o } = await world();
    const { error, response } = await client().GET('/api/v1/organization/{orgId}/templates', { params: { path: { orgId: o.org } } });
    expect(response.status).toBe(401);
    expect(error).toMatchObject({ success: false, error: 'UNAUTHORIZED' });
  });
});

describe('invitations', () => {
  it('sends one that a new person accepts with their ID token', async () => {
    const { o, org } = await world();
    const address = o.address('newcomer');
    const sent = await org.POST('/api/v1/organization/{orgId}/invites', {
      params: { path: { orgId: o.org } },
      body: { email: address, role: 'viewer' },
    });
    expect(sent.response.status).toBe(201);
    expect(ok(sent)).toMatchObject({ email: address, role: 'viewer', status: 'pending' });

    const idToken = await (await idp()).issueIdToken({ sub: `local|new_${unique()}`, email: address, name: 'Nora Newcomer' });
    const accepted = ok(await client(idToken).POST('/api/v1/organization/invites/accept', { body: { token: await latestToken(address) } }));
    expect(accepted).toEqual({ org_id: o.org, role: 'viewer', status: 'active' });
  });

  it('lists, resends and revokes one', async () => {
    const { o, org } = await world();
    const orgPath = { orgId: o.org };
    const invite = ok(
      await org.POST('/api/v1/organization/{orgId}/invites', { params: { path: orgPath }, body: { email: o.address('maybe') } }),
    );
    expect(invite.role).toBe('member');
    const pending = ok(await org.GET('/api/v1/organization/{orgId}/invites', { params: { path: orgPath, query: { status: 'pending' } } }));
    expect(pending.invites.map((i) => i.id)).toContain(invite.id);

    const path = { orgId: o.org, inviteId: invite.id };
    expect(ok(await org.POST('/api/v1/organization/{orgId}/invites/{inviteId}/resend', { params: { path } }))).toEqual({ success: true });
    expect(ok(await org.DELETE('/api/v1/organization/{orgId}/invites/{inviteId}', { params: { path } }))).toEqual({ success: true });
    const revoked = ok(await org.GET('/api/v1/organization/{orgId}/invites', { params: { path: orgPath, query: { status: 'revoked' } } }));
    expect(revoked.invites.map((i) => i.id)).toEqual([invite.id]);
  });
});

describe('API keys (ID token)', () => {
  it('creates, lists, reads, rotates and revokes a personal key', async () => {
    const { o, owner } = await world();
    const orgPath = { orgId: o.org };
    const created = await owner.POST('/api/v1/organization/{orgId}/api-keys', {
      params: { path: orgPath },
      body: { kind: 'personal', name: 'Laptop', scopes: ['recordings:read'] },
    });
    expect(created.response.status).toBe(201);
    const key = ok(created);
    expect(key).toMatchObject({
      kind: 'personal',
      name: 'Laptop',
      user_id: o.people.owner.id,
      status: 'active',
      secret: expect.stringMatching(/^pk_user_/),
    });
    // The new secret is a credential the client takes as it is.
    expect(ok(await client(key.secret).GET('/api/v1/public/recordings')).success).toBe(true);

    const listed = ok(await owner.GET('/api/v1/organization/{orgId}/api-keys', { params: { path: orgPath } }));
    expect(listed.api_keys.map((k) => k.id)).toContain(key.id);
    const path = { orgId: o.org, keyId: key.id };
    const { secret: _secret, ...shown } = key;
    expect(ok(await owner.GET('/api/v1/organization/{orgId}/api-keys/{keyId}', { params: { path } }))).toMatchObject({
      ...shown,
      last_used_at: expect.any(String),
    });

    const rotated = ok(await owner.POST('/api/v1/organization/{orgId}/api-keys/{keyId}/rotate', { params: { path }, body: {} }));
    expect(rotated).toMatchObject({ id: key.id, rotated_at: expect.stringMatching(TIMESTAMP) });
    expect(rotated.secret).not.toBe(key.secret);
    const revoked = ok(await owner.DELETE('/api/v1/organization/{orgId}/api-keys/{keyId}', { params: { path } }));
    expect(revoked).toMatchObject({ id: key.id, status: 'revoked' });
  });
});

describe('webhooks', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it('creates an endpoint, changes it, rotates its secret, sends a test event, lists and retries the delivery, deletes it', async () => {
    const { o, org } = await world();
    const orgPath = { orgId: o.org };
    const created = ok(
      await org.POST('/api/v1/organization/{orgId}/webhooks', {
        params: { path: orgPath },
        body: { url: receiver.url, events: ['template.created'] },
      }),
    );
    expect(created).toMatchObject({
      url: receiver.url,
      enabled: true,
      events: ['template.created'],
      secret: expect.stringMatching(/^whsec_/),
    });
    const path = { orgId: o.org, webhookId: created.id };
    try {
      expect(ok(await org.GET('/api/v1/organization/{orgId}/webhooks', { params: { path: orgPath } })).webhooks.map((w) => w.id)).toEqual([
        created.id,
      ]);
      expect(ok(await org.GET('/api/v1/organization/{orgId}/webhooks/{webhookId}', { params: { path } }))).toMatchObject({
        id: created.id,
        description: '',
      });
      expect(
        ok(await org.PATCH('/api/v1/organization/{orgId}/webhooks/{webhookId}', { params: { path }, body: { description: 'CRM' } })),
      ).toMatchObject({ description: 'CRM' });
      const rotated = ok(await org.POST('/api/v1/organization/{orgId}/webhooks/{webhookId}/rotate-secret', { params: { path } }));
      expect(rotated.secret).not.toBe(created.secret);

      const sent = await org.POST('/api/v1/organization/{orgId}/webhooks/{webhookId}/test', { params: { path } });
      expect(sent.response.status).toBe(202);
      const delivery = ok(sent);
      expect(delivery).toMatchObject({ event_type: 'webhook.test', status: 'pending' });
      const deliveryPath = { ...path, deliveryId: delivery.id };
      const succeeded = await eventually(
        async () => ok(await org.GET('/api/v1/organization/{orgId}/webhooks/{webhookId}/deliveries', { params: { path } })).deliveries,
        (deliveries) => deliveries.some((d) => d.id === delivery.id && d.status === 'succeeded'),
      );
      expect(succeeded).toEqual([expect.objectContaining({ id: delivery.id, status: 'succeeded', response_status: 200 })]);

      const retried = await org.POST('/api/v1/organization/{orgId}/webhooks/{webhookId}/deliveries/{deliveryId}/retry', {
        params: { path: deliveryPath },
      });
      expect(retried.response.status).toBe(202);
      expect(ok(retried)).toMatchObject({ id: delivery.id, status: 'pending' });
      await receiver.waitFor(2);
      expect(receiver.received).toHaveLength(2);
    } finally {
      expect(ok(await org.DELETE('/api/v1/organization/{orgId}/webhooks/{webhookId}', { params: { path } }))).toEqual({ success: true });
    }
  });
});

describe('audit log', () => {
  it('lists what the tests above changed, newest first', async () => {
    const { o, org } = await world();
    const entries = await eventually(
      async () =>
        ok(await org.GET('/api/v1/organization/{orgId}/audit-log', { params: { path: { orgId: o.org }, query: { type: 'template.' } } }))
          .entries,
      (found) => found.length >= 3,
    );
    expect(entries.map((entry) => entry.type)).toEqual(['template.deleted', 'template.updated', 'template.created']);
    expect(entries[0]).toMatchObject({
      actor: { kind: 'api_key' },
      resource: { type: 'template' },
      occurred_at: expect.stringMatching(TIMESTAMP),
    });
  });
});

// ---------------------------------------------------------------------------------------

describe('summaries', () => {
  it('queues, lists, reads, ticks an action item and deletes, on both hosts', async () => {
    const { o, org, personal } = await world();
    const recordingId = o.recId('typed');
    const path = { orgId: o.org, recordingId };
    const queued = ok(await org.POST('/api/v1/organization/{orgId}/recordings/{recordingId}/summaries', { params: { path }, body: {} }));
    expect(queued).toMatchObject({ recording_id: recordingId, status: 'queued', template_name: 'Standard summary' });
    const refused = await personal.POST('/api/v1/public/recordings/{recordingId}/summaries', {
      params: { path: { recordingId } },
      body: {},
    });
    expect([refused.response.status, refused.error?.error]).toEqual([409, 'SUMMARY_IN_PROGRESS']);
    const listed = ok(await org.GET('/api/v1/organization/{orgId}/recordings/{recordingId}/summaries', { params: { path } }));
    expect(listed.summaries.map((summary) => summary.id)).toEqual([queued.id, `${recordingId}_summary`]);
    const publicList = ok(await personal.GET('/api/v1/public/recordings/{recordingId}/summaries', { params: { path: { recordingId } } }));
    expect(publicList.data.summaries).toHaveLength(2);
    const summaryPath = { ...path, summaryId: `${recordingId}_summary` };
    const fixture = ok(
      await org.GET('/api/v1/organization/{orgId}/recordings/{recordingId}/summaries/{summaryId}', { params: { path: summaryPath } }),
    );
    expect(fixture.action_items[0]).toMatchObject({ id: `${recordingId}_action_1`, completed: false });
    const ticked = ok(
      await org.PATCH('/api/v1/organization/{orgId}/recordings/{recordingId}/summaries/{summaryId}/action-items/{itemId}', {
        params: { path: { ...summaryPath, itemId: `${recordingId}_action_1` } },
        body: { completed: true },
      }),
    );
    expect(ticked.action_items[0].completed).toBe(true);
    expect(
      ok(
        await org.DELETE('/api/v1/organization/{orgId}/recordings/{recordingId}/summaries/{summaryId}', { params: { path: summaryPath } }),
      ),
    ).toEqual({ success: true });
  });
});

describe('translations', () => {
  it('asks for a Spanish translation on both hosts: one translation, answered twice', async () => {
    const { o, org, personal } = await world();
    const recordingId = o.recId('typed');
    const asked = ok(
      await org.POST('/api/v1/organization/{orgId}/recordings/{recordingId}/translations', {
        params: { path: { orgId: o.org, recordingId } },
        body: { to_language: 'es' },
      }),
    );
    expect(asked).toMatchObject({ to_language: 'es', processing_status: expect.stringMatching(/^(queued|processing|completed)$/) });
    // The same language again (the member's own recording): that translation, nothing queued.
    const again = ok(
      await personal.POST('/api/v1/public/recordings/{recordingId}/translations', {
        params: { path: { recordingId } },
        body: { to_language: 'es' },
      }),
    );
    expect(again.data.id).toBe(asked.id);
  });
});

describe('search and ask', () => {
  it("searches and asks on both hosts: the member's transcribed recording is found and cited", async () => {
    const { o, org, personal } = await world();
    const found = await eventually(
      async () =>
        ok(await org.GET('/api/v1/organization/{orgId}/search', { params: { path: { orgId: o.org }, query: { q: 'weekly meeting' } } })),
      (body) => body.results.length > 0,
    );
    expect(found.results[0].matches[0]).toMatchObject({ field: expect.any(String), highlights: expect.any(Array) });
    const mine = ok(await personal.GET('/api/v1/public/search', { params: { query: { q: 'weekly', in: 'transcript,title' } } }));
    expect(mine.success).toBe(true);
    const answer = ok(
      await org.POST('/api/v1/organization/{orgId}/ask', {
        params: { path: { orgId: o.org } },
        body: { question: 'Who sends the contract?' },
      }),
    );
    expect(answer.citations.length).toBeGreaterThan(0);
    const own = ok(await personal.POST('/api/v1/public/ask', { body: { question: 'Who sends the contract?' } }));
    expect(own.data.answer).toEqual(expect.any(String));
  });
});

describe('governance', () => {
  it('sets retention, holds a recording and a member, exports and erases a member', async () => {
    const { o, org } = await world();
    const orgPath = { orgId: o.org };
    expect(ok(await org.GET('/api/v1/organization/{orgId}/retention', { params: { path: orgPath } })).recordings_days).toBeNull();
    const policy = ok(
      await org.PUT('/api/v1/organization/{orgId}/retention', { params: { path: orgPath }, body: { recordings_days: 3650 } }),
    );
    expect(policy.recordings_days).toBe(3650);

    const recordingPath = { orgId: o.org, recordingId: o.recId('typed') };
    const held = ok(
      await org.PUT('/api/v1/organization/{orgId}/recordings/{recordingId}/legal-hold', {
        params: { path: recordingPath },
        body: { reason: 'Typed hold' },
      }),
    );
    expect(held).toMatchObject({ reason: 'Typed hold', scope: 'recording' });
    ok(await org.DELETE('/api/v1/organization/{orgId}/recordings/{recordingId}/legal-hold', { params: { path: recordingPath } }));
    const memberPath = { orgId: o.org, userId: o.people.member.id };
    const memberHold = ok(
      await org.PUT('/api/v1/organization/{orgId}/users/{userId}/legal-hold', { params: { path: memberPath }, body: { reason: 'Typed' } }),
    );
    expect(memberHold.data.scope).toBe('member');
    ok(await org.DELETE('/api/v1/organization/{orgId}/users/{userId}/legal-hold', { params: { path: memberPath } }));

    const queued = ok(await org.POST('/api/v1/organization/{orgId}/users/{userId}/exports', { params: { path: memberPath }, body: {} }));
    expect(queued.data.status).toBe('queued');
    const exported = ok(
      await org.GET('/api/v1/organization/{orgId}/users/{userId}/exports/{exportId}', {
        params: { path: { ...memberPath, exportId: queued.data.id } },
      }),
    );
    expect(exported.data.id).toBe(queued.data.id);

    // The member the tests above removed: a former member can be erased.
    const targetPath = { orgId: o.org, userId: o.people.target.id };
    const erasure = ok(
      await org.POST('/api/v1/organization/{orgId}/users/{userId}/erasure', {
        params: { path: targetPath },
        body: { confirm: o.people.target.email },
      }),
    );
    const read = ok(
      await org.GET('/api/v1/organization/{orgId}/users/{userId}/erasures/{erasureId}', {
        params: { path: { ...targetPath, erasureId: erasure.data.id } },
      }),
    );
    expect(read.data.id).toBe(erasure.data.id);
  });
});

describe('transcript controls', () => {
  it('names speakers (organization path and public alias), sets the vocabulary and the redaction', async () => {
    const { o, org, personal, owner } = await world();
    const recordingPath = { orgId: o.org, recordingId: o.recId('typed') };
    const named = ok(
      await org.PATCH('/api/v1/organization/{orgId}/recordings/{recordingId}/speakers', {
        params: { path: recordingPath },
        body: { speakers: [{ label: 'Speaker 1', user_id: o.people.member.id }] },
      }),
    );
    expect(named.speakers[0]).toMatchObject({ label: 'Speaker 1', user_id: o.people.member.id });
    const back = ok(
      await personal.PATCH('/api/v1/public/recordings/{recordingId}/speakers', {
        params: { path: { recordingId: o.recId('typed') } },
        body: { speakers: [{ label: 'Speaker 1', name: null }] },
      }),
    );
    expect(back.data.speakers[0]).toMatchObject({ label: 'Speaker 1', name: 'Speaker 1', user_id: null });

    const orgPath = { orgId: o.org };
    const vocabulary = ok(
      await org.PUT('/api/v1/organization/{orgId}/vocabulary', { params: { path: orgPath }, body: { terms: [{ phrase: 'Halvorsen' }] } }),
    );
    expect(vocabulary.status).toBe('pending');
    expect(ok(await org.GET('/api/v1/organization/{orgId}/vocabulary', { params: { path: orgPath } })).term_count).toBe(1);

    const redaction = ok(
      await owner.PUT('/api/v1/organization/{orgId}/redaction', {
        params: { path: orgPath },
        body: { pii: 'redact', entity_types: ['EMAIL'] },
      }),
    );
    expect(redaction).toMatchObject({ pii: 'redact', entity_types: ['EMAIL'] });
    expect(ok(await org.GET('/api/v1/organization/{orgId}/redaction', { params: { path: orgPath } })).pii).toBe('redact');
  });
});

describe('coverage', () => {
  it('called every operation of the document through the typed client, and nothing else', () => {
    const documented = [...OPERATIONS.values()].sort();
    expect([...called].sort()).toEqual(documented);
    // The public aliases are operations of their own.
    expect(documented).toEqual(
      expect.arrayContaining<OperationId>(['listUsersPublic', 'getMemberSettingsPublic', 'updateMemberSettingsPublic']),
    );
  });
});
