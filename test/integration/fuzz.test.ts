import { randomInt } from 'node:crypto';
import Ajv2020 from 'ajv/dist/2020';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { SCOPES } from '../../shared/core/access';
import { openApiDocument } from '../../shared/openapi/document';
import type { FixtureInput } from '../../shared/schemas/fixture';
import { keys } from '../../shared/storage/keys';
import { call, idTokenFor, localDeployment, seed as seedFixture } from '../support/api';
import { emailsTo } from '../support/invite-mail';
import { healthy } from '../support/fuzz/http';
import { schemaArbitrary } from '../support/fuzz/json-schema';
import { fuzzOperations, type CredentialKind } from '../support/fuzz/operations';
import { FuzzStats } from '../support/fuzz/report';
import { requestArbitrary, type FuzzWorld } from '../support/fuzz/requests';
import { describeFailures, fuzzOperation, operationSeed, ShrinkBudget, type FuzzConfig } from '../support/fuzz/runner';

/**
 * Property-based fuzzing of every operation of the OpenAPI document over real HTTP against
 * the local deployment (test/support/fuzz/). Requests start valid (seeded ids, schema-valid
 * query and body, an allowed credential) and are mutated: path ids, query strings,
 * headers, credentials and bodies. Whatever is sent:
 *   no 5xx; a documented status; errors in the envelope; a response the document allows
 *   (contractViolation); x-correlation-id on every response; GET /health still 200.
 *
 * FUZZ_RUNS (default 300) requests in all, split evenly across operations; FUZZ_SEED
 * replays a run (the seed is printed); FUZZ_ONLY=opId,opId fuzzes only those operations
 * (same requests as in the full run); FUZZ_SHRINK_MS bounds the time spent shrinking
 * failures. `npm run fuzz` is the long run; a summary is printed at the end.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED =
  process.env.FUZZ_SEED !== undefined && process.env.FUZZ_SEED !== ''
    ? Number(process.env.FUZZ_SEED) | 0
    : randomInt(-0x80000000, 0x7fffffff);
const SHRINK_MS = Number(process.env.FUZZ_SHRINK_MS ?? 20_000);
const ONLY = (process.env.FUZZ_ONLY ?? '').split(',').filter(Boolean);
console.log('fuzz seed', SEED);

const { runtime, db } = localDeployment();
const document = openApiDocument();
const allOperations = fuzzOperations(document);
const operations = allOperations.filter((op) => !ONLY.length || ONLY.includes(op.operationId));
// Split over every operation of the document, so that FUZZ_ONLY replays the same requests.
const runsPerOperation = Math.max(1, Math.ceil(RUNS / allOperations.length));
const stats = new FuzzStats();
const shrink = new ShrinkBudget(SHRINK_MS, Number(process.env.FUZZ_SHRINK_CLASS_MS ?? 3000), 2);

// ---------------------------------------------------------------------------------------
// The fuzz organization: its own seed, ids derived from the run's seed (deterministic per seed).

const suffix = (SEED >>> 0).toString(36);
const orgId = `org_fuzz_${suffix}`;
const person = (role: string) => ({
  id: `usr_fuzz_${role}_${suffix}`,
  email: `${role}.fuzz.${suffix}@example.com`,
  display_name: `Fuzz ${role}`,
});
const people = { owner: person('owner'), admin: person('admin'), member: person('member'), viewer: person('viewer') };
const orgKey = `pk_org_fuzz_${suffix}_${'a'.repeat(24)}`;
const userKey = `pk_user_fuzz_${suffix}_${'d'.repeat(24)}`;
const tagIds = ['a', 'b', 'c'].map((l) => `tag_fuzz_${l}_${suffix}`);
const templateIds = ['a', 'b', 'c'].map((l) => `tpl_fuzz_${l}_${suffix}`);
const recordingIds = ['a', 'b', 'c', 'd', 'e', 'f'].map((l) => `rec_fuzz_${l}_${suffix}`);
const preferenceIds = ['a', 'b'].map((l) => `pref_fuzz_${l}_${suffix}`);
/** A loopback port nothing listens on (the test deployment allows loopback endpoints). */
const FUZZ_WEBHOOK_URL = 'http://127.0.0.1:9/fuzz';

const fixture: FixtureInput = {
  orgs: [{ id: orgId, name: `Fuzz ${suffix}` }],
  users: Object.values(people),
  memberships: (Object.keys(people) as (keyof typeof people)[]).map((role) => ({ org_id: orgId, user_id: people[role].id, role })),
  api_keys: [
    { org_id: orgId, key: orgKey, scopes: [...SCOPES] },
    { org_id: orgId, user_id: people.owner.id, key: userKey, scopes: ['recordings:read', 'recordings:write'] },
  ],
  tags: tagIds.map((id, i) => ({ id, org_id: orgId, user_id: people.member.id, name: `Tag ${i}`, color: '#00aa00' })),
  templates: templateIds.map((id, i) => ({
    id,
    org_id: orgId,
    name: `Template ${i}`,
    description: 'fuzz',
    sections: [{ title: 'Summary', prompt: 'Summarize.' }],
  })),
  recordings: recordingIds.map((id, i) => ({
    id,
    org_id: orgId,
    recorded_by: i % 2 ? people.member.id : people.owner.id,
    title: `Recording ${i}`,
    duration: 60 + i,
    language: 'en',
    tags: tagIds.slice(0, i % 3),
    created_at: `2025-03-0${i + 1}T10:00:00.000Z`,
    ...(i === 5 ? { deleted_at: '2025-03-10T10:00:00.000Z' } : {}),
    transcript: [{ speaker: 'A', text: 'Hello', start: 0, end: 1 }],
    summary: { markdown: '# Summary' },
    action_items: [{ text: 'Follow up' }],
  })),
  settings: [
    {
      org_id: orgId,
      user_id: people.member.id,
      profile: '# Member\n\nNotes.',
      preferences: preferenceIds.map((id, i) => ({
        id,
        command: `command ${i}`,
        command_type: 'manual',
        preference_content: `content ${i}`,
      })),
    },
  ],
};

const subsetOf = (items: readonly string[]) => fc.subarray([...items], { minLength: 1 }).map((xs) => xs.join(','));
const day = fc
  .date({ min: new Date('2024-12-01T00:00:00.000Z'), max: new Date('2025-04-30T00:00:00.000Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

let world: FuzzWorld;
let config: FuzzConfig;

beforeAll(async () => {
  await seedFixture(db, fixture);
  // The owner's first recording has an uploaded file, so Get recording media answers 200 on both hosts (the others, 409).
  const mediaKey = `recordings/${orgId}/${recordingIds[0]}/fuzz.m4a`;
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.recording(orgId, recordingIds[0]),
      UpdateExpression: 'SET upload = :upload',
      ExpressionAttributeValues: {
        ':upload': {
          s3_key: mediaKey,
          content_type: 'audio/mp4',
          filename: 'fuzz.m4a',
          size_bytes: 10,
          uploaded_bytes: 10,
          uploaded_at: '2025-03-01T10:01:00.000Z',
        },
      },
    }),
  );
  const tokens: Record<CredentialKind, string> = { idToken: await idTokenFor(people.owner, 4 * 3600), orgKey, userKey };
  // Invitations come from the API (their tokens only exist in the emails).
  const inviteIds: string[] = [];
  const inviteTokens: string[] = [];
  for (const n of [1, 2, 3]) {
    const email = `invitee${n}.fuzz.${suffix}@example.com`;
    const res = await call(runtime.apiUrl, 'POST', `/api/v1/organization/${orgId}/invites`, {
      token: orgKey,
      body: { email, role: 'member' },
    });
    if (res.status !== 201) throw new Error(`fuzz setup: invite answered ${res.status} ${JSON.stringify(res.body)}`);
    inviteIds.push(res.body.id);
    // The invitation mail consumer sends it after the request answered.
    const text = (await emailsTo(email)).at(-1)?.body.text ?? '';
    const token = /\/invites\/accept\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
    if (token) inviteTokens.push(token);
  }
  // Webhook endpoints too (their secrets are made by the API), and a delivery of each (a test event).
  const webhookIds: string[] = [];
  const deliveryIds: string[] = [];
  for (const n of [1, 2]) {
    const res = await call(runtime.apiUrl, 'POST', `/api/v1/organization/${orgId}/webhooks`, {
      token: orgKey,
      body: { url: `${FUZZ_WEBHOOK_URL}/${n}`, events: ['recording.upload_failed'] },
    });
    if (res.status !== 201) throw new Error(`fuzz setup: webhook answered ${res.status} ${JSON.stringify(res.body)}`);
    webhookIds.push(res.body.id);
    const test = await call(runtime.apiUrl, 'POST', `/api/v1/organization/${orgId}/webhooks/${res.body.id}/test`, { token: orgKey });
    deliveryIds.push(test.body.id);
  }
  // API keys too, by the owner (keys never manage keys): the fuzz reads, rotates and revokes these.
  const keyIds: string[] = [];
  for (const kind of ['org', 'personal'] as const) {
    const res = await call(runtime.apiUrl, 'POST', `/api/v1/organization/${orgId}/api-keys`, {
      token: tokens.idToken,
      body: { kind, name: `Fuzz ${kind}`, scopes: ['recordings:read'] },
    });
    if (res.status !== 201) throw new Error(`fuzz setup: API key answered ${res.status} ${JSON.stringify(res.body)}`);
    keyIds.push(res.body.id);
  }
  // A member's export (the fuzz reads it, and asks for more), and an erasure id that names nothing (a fuzz must not erase its own people).
  const exported = await call(runtime.apiUrl, 'POST', `/api/v1/organization/${orgId}/users/${Object.values(people)[0].id}/exports`, {
    token: orgKey,
    body: {},
  });
  if (exported.status !== 202) throw new Error(`fuzz setup: export answered ${exported.status} ${JSON.stringify(exported.body)}`);
  world = {
    ids: {
      orgId: [orgId],
      userId: Object.values(people).map((p) => p.id),
      recordingId: recordingIds,
      // A fixture's summary and action item are named after their recording (the fixture loader's ids; a recording without one answers 404).
      summaryId: recordingIds.map((id) => `${id}_summary`),
      itemId: recordingIds.map((id) => `${id}_action_1`),
      templateId: templateIds,
      inviteId: inviteIds,
      webhookId: webhookIds,
      deliveryId: deliveryIds,
      keyId: keyIds,
      exportId: [exported.body.data.id],
      erasureId: ['era_fuzz_names_nothing'],
    },
    tokens,
    hints: {
      org_id: fc.constant(orgId),
      recordedBy: fc.constantFrom(...Object.values(people).map((p) => p.id)),
      user_id: fc.constantFrom(...Object.values(people).map((p) => p.id)),
      recordedByEmail: fc.constantFrom(...Object.values(people).map((p) => p.email)),
      tagIds: subsetOf(tagIds),
      'listPublicRecordings.tag_ids': subsetOf(tagIds),
      'createUploadUrl.tag_ids': fc.subarray(tagIds),
      // Endpoint URLs that may be saved without DNS (nothing resolves here); the URL rules have tests of their own.
      url: fc.constantFrom(`${FUZZ_WEBHOOK_URL}/a`, `${FUZZ_WEBHOOK_URL}/b`),
      tags: fc.subarray(tagIds),
      date: day,
      startDate: day,
      endDate: day,
      start_date: day,
      end_date: day,
      'getMemberSettings.include': subsetOf(['profile', 'preferences', 'tags', 'notifications', 'none']),
      'getMemberSettingsPublic.include': subsetOf(['profile', 'preferences', 'tags', 'notifications', 'none']),
      'getRecording.include': subsetOf(['transcript', 'summary', 'action_items', 'translation']),
      id: fc.constantFrom(...preferenceIds),
      source_recording_id: fc.constantFrom(...recordingIds),
      ...(inviteTokens.length ? { token: fc.constantFrom(...inviteTokens) } : {}),
    },
  };
  const secrets = Object.entries(tokens) as [CredentialKind, string][];
  config = {
    apiUrl: runtime.apiUrl,
    seed: SEED,
    runs: runsPerOperation,
    healthEvery: 50,
    shrink,
    redact: (text) =>
      secrets.reduce(
        (out, [kind, secret]) =>
          out.split(secret).join(`<${kind}>`).split(secret.slice(0, -1)).join(`<${kind} with its last character replaced by>`),
        text,
      ),
  };
}, 60_000);

afterAll(() => {
  console.log(stats.summary(SEED));
});

it('generates query values and bodies that the document accepts (the JSON Schema -> arbitrary translation)', () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  for (const op of allOperations) {
    const seed = operationSeed(SEED, op.operationId);
    for (const param of op.queryParams) {
      const validate = ajv.compile(param.schema);
      for (const value of fc.sample(schemaArbitrary(param.schema), { numRuns: 30, seed })) {
        expect({ op: op.operationId, param: param.name, value, valid: validate(value) }).toMatchObject({ valid: true });
      }
    }
    if (op.bodySchema) {
      const validate = ajv.compile(op.bodySchema);
      for (const value of fc.sample(schemaArbitrary(op.bodySchema, { root: document }), { numRuns: 50, seed })) {
        expect({ op: op.operationId, value, valid: validate(value), errors: validate.errors }).toMatchObject({ valid: true });
      }
    }
  }
});

describe(`every operation, ${runsPerOperation} requests each`, () => {
  for (const op of operations) {
    it(
      `${op.method} ${op.template} (${op.operationId})`,
      async () => {
        const outcome = await fuzzOperation(op, requestArbitrary(op, world, document), config, stats);
        if (outcome.failures.length || outcome.serverDown) throw new Error(describeFailures(outcome, SEED));
      },
      60_000 + runsPerOperation * 1_000 + SHRINK_MS,
    );
  }

  it('leaves the server up', async () => {
    expect(await healthy(runtime.apiUrl)).toEqual({ ok: true, detail: expect.any(String) });
  });
});
