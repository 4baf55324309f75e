import { call, expectFailure, idTokenFor, localDeployment, TIMESTAMP } from '../../support/api';
import { runCli } from '../../support/cli';
import { eventsInclude } from '../../support/events';
import { buildOrg, seedOrg } from '../../support/org-builder';

/**
 * Retention and legal holds over HTTP on the local deployment (who may call each route: the
 * access matrix): the policy read and set with its bounds, holds placed, shown, refused deletes
 * and released, the events each change leaves, and `retention sweep` from the CLI moving what the
 * policy expired while keeping what is held.
 */
const { runtime, dataDir } = localDeployment();
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

async function governanceOrg() {
  const org = buildOrg({
    label: 'gov',
    keys: {
      governance: { scopes: ['governance:read', 'governance:write', 'recordings:read', 'recordings:write'] },
      reader: { scopes: ['governance:read'] },
    },
  });
  const recording = (name: string, by: string, createdDaysAgo: number) => ({
    id: org.recId(name),
    org_id: org.org,
    recorded_by: by,
    title: name,
    duration: 10,
    language: 'en',
    created_at: daysAgo(createdDaysAgo),
  });
  await seedOrg(org, {
    recordings: [
      recording('old', org.people.member.id, 400),
      recording('held', org.people.member.id, 400),
      recording('admins_old', org.people.admin.id, 400),
      recording('recent', org.people.member.id, 1),
    ],
  });
  const key = org.keys.governance;
  const base = `/api/v1/organization/${org.org}`;
  return { org, key, base };
}

describe('GET and PUT /api/v1/organization/{orgId}/retention', () => {
  it('reads null until set, sets 1–3650 days or null, and audits the change', async () => {
    const { org, key, base } = await governanceOrg();
    const empty = await call(runtime.apiUrl, 'GET', `${base}/retention`, { token: org.keys.reader });
    expect(empty).toMatchObject({ status: 200, body: { recordings_days: null, updated_at: null, updated_by: null } });

    const set = await call(runtime.apiUrl, 'PUT', `${base}/retention`, { token: key, body: { recordings_days: 30 } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      recordings_days: 30,
      updated_at: expect.stringMatching(TIMESTAMP),
      updated_by: expect.stringMatching(/^key_/),
    });
    const owner = await idTokenFor(org.people.owner);
    const read = await call(runtime.apiUrl, 'GET', `${base}/retention`, { token: owner });
    expect(read.body).toEqual(set.body);
    const events = await eventsInclude(org.org, ['organization.retention_updated'], org.org);
    expect(events.find((event) => event.type === 'organization.retention_updated')).toMatchObject({
      resource: { type: 'organization', id: org.org },
      data: { recordings_days: 30, previous_recordings_days: null },
    });

    const lifted = await call(runtime.apiUrl, 'PUT', `${base}/retention`, { token: owner, body: { recordings_days: null } });
    expect(lifted.body).toMatchObject({ recordings_days: null, updated_by: org.people.owner.id });
  });

  it('refuses days out of bounds, not whole, missing or of the wrong type, and unknown fields, with 400 and nothing written', async () => {
    const { key, base } = await governanceOrg();
    for (const body of [
      { recordings_days: 0 },
      { recordings_days: 3651 },
      { recordings_days: 1.5 },
      { recordings_days: '30' },
      {},
      { recordings_days: 30, extra: true },
    ]) {
      const res = await call(runtime.apiUrl, 'PUT', `${base}/retention`, { token: key, body });
      expectFailure(res, 400, 'VALIDATION_ERROR');
    }
    expect((await call(runtime.apiUrl, 'GET', `${base}/retention`, { token: key })).body.recordings_days).toBeNull();
  });

  it('admins read it but only owners change it; a key needs governance:write to change it', async () => {
    const { org, base } = await governanceOrg();
    const admin = await idTokenFor(org.people.admin);
    expect((await call(runtime.apiUrl, 'GET', `${base}/retention`, { token: admin })).status).toBe(200);
    expect((await call(runtime.apiUrl, 'PUT', `${base}/retention`, { token: admin, body: { recordings_days: 5 } })).status).toBe(403);
    expect((await call(runtime.apiUrl, 'PUT', `${base}/retention`, { token: org.keys.reader, body: { recordings_days: 5 } })).status).toBe(
      403,
    );
  });
});

describe('legal holds', () => {
  it('show on the recording, refuse its deletes with 409 LEGAL_HOLD, and are audited without their reason', async () => {
    const { org, key, base } = await governanceOrg();
    const id = org.recId('held');
    const placed = await call(runtime.apiUrl, 'PUT', `${base}/recordings/${id}/legal-hold`, {
      token: key,
      body: { reason: ' Acme v. Example ' },
    });
    expect(placed).toMatchObject({
      status: 200,
      body: { reason: 'Acme v. Example', scope: 'recording', placed_at: expect.stringMatching(TIMESTAMP) },
    });
    const shown = await call(runtime.apiUrl, 'GET', `${base}/recordings/${id}`, { token: key });
    expect(shown.body.legal_hold).toEqual(placed.body);
    for (const permanent of ['false', 'true']) {
      const refused = await call(runtime.apiUrl, 'DELETE', `${base}/recordings/${id}?permanent=${permanent}`, { token: key });
      expectFailure(refused, 409, 'LEGAL_HOLD', expect.stringContaining('Acme v. Example'));
    }
    const events = await eventsInclude(org.org, ['recording.legal_hold_placed'], id);
    expect(JSON.stringify(events)).not.toContain('Acme');

    expect((await call(runtime.apiUrl, 'DELETE', `${base}/recordings/${id}/legal-hold`, { token: key })).body).toEqual({ success: true });
    expect((await call(runtime.apiUrl, 'GET', `${base}/recordings/${id}`, { token: key })).body.legal_hold).toBeNull();
    expect((await call(runtime.apiUrl, 'DELETE', `${base}/recordings/${id}`, { token: key })).status).toBe(200);
    await eventsInclude(org.org, ['recording.legal_hold_released'], id);
  });

  it("hold a member's recordings, shown with scope member, until released", async () => {
    const { org, key, base } = await governanceOrg();
    const member = org.people.member.id;
    const placed = await call(runtime.apiUrl, 'PUT', `${base}/users/${member}/legal-hold`, { token: key, body: { reason: 'HR case 12' } });
    // A member route: the hold in the envelope.
    expect(placed).toMatchObject({ status: 200, body: { success: true, data: { scope: 'member', reason: 'HR case 12' } } });
    expect((await call(runtime.apiUrl, 'GET', `${base}/recordings/${org.recId('recent')}`, { token: key })).body.legal_hold).toEqual(
      placed.body.data,
    );
    expectFailure(await call(runtime.apiUrl, 'DELETE', `${base}/recordings/${org.recId('recent')}`, { token: key }), 409, 'LEGAL_HOLD');
    // Another member's recordings are not held.
    expect((await call(runtime.apiUrl, 'GET', `${base}/recordings/${org.recId('admins_old')}`, { token: key })).body.legal_hold).toBeNull();
    await eventsInclude(org.org, ['member.legal_hold_placed'], member);

    expect((await call(runtime.apiUrl, 'DELETE', `${base}/users/${member}/legal-hold`, { token: key })).status).toBe(200);
    expect((await call(runtime.apiUrl, 'DELETE', `${base}/recordings/${org.recId('recent')}`, { token: key })).status).toBe(200);
    await eventsInclude(org.org, ['member.legal_hold_released'], member);
  });

  it('refuse bad reasons, unknown recordings and users, and callers who are not owners', async () => {
    const { org, key, base } = await governanceOrg();
    const path = `${base}/recordings/${org.recId('old')}/legal-hold`;
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(501) }, { reason: 7 }, { reason: 'ok', more: 1 }])
      expectFailure(await call(runtime.apiUrl, 'PUT', path, { token: key, body }), 400, 'VALIDATION_ERROR');
    expectFailure(
      await call(runtime.apiUrl, 'PUT', `${base}/recordings/rec_unknown/legal-hold`, { token: key, body: { reason: 'x' } }),
      404,
      'RECORDING_NOT_FOUND',
    );
    expectFailure(
      await call(runtime.apiUrl, 'PUT', `${base}/users/usr_unknown/legal-hold`, { token: key, body: { reason: 'x' } }),
      404,
      'MEMBER_NOT_FOUND',
    );
    const admin = await idTokenFor(org.people.admin);
    expect((await call(runtime.apiUrl, 'PUT', path, { token: admin, body: { reason: 'x' } })).status).toBe(403);
  });
});

describe('npx voice-org retention sweep', () => {
  it('moves what the policy expired to the trash, keeps what is held, and prints both', async () => {
    const { org, key, base } = await governanceOrg();
    await call(runtime.apiUrl, 'PUT', `${base}/recordings/${org.recId('held')}/legal-hold`, { token: key, body: { reason: 'Keep' } });
    await call(runtime.apiUrl, 'PUT', `${base}/retention`, { token: key, body: { recordings_days: 30 } });
    // The policy alone moves nothing.
    expect((await call(runtime.apiUrl, 'GET', `${base}/recordings/${org.recId('old')}`, { token: key })).status).toBe(200);

    const swept = await runCli(['retention', 'sweep', '--org', org.org], { LOCAL_DATA_DIR: dataDir });
    expect(swept.code).toBe(0);
    expect(swept.json).toEqual([
      expect.objectContaining({ org_id: org.org, recordings_days: 30, moved: 2, held: 1, skipped: 0, cutoff_day: expect.any(String) }),
    ]);
    expect((await call(runtime.apiUrl, 'GET', `${base}/recordings/${org.recId('old')}`, { token: key })).status).toBe(404);
    expect((await call(runtime.apiUrl, 'GET', `${base}/recordings/${org.recId('held')}`, { token: key })).status).toBe(200);
    expect((await call(runtime.apiUrl, 'GET', `${base}/recordings/${org.recId('recent')}`, { token: key })).status).toBe(200);
    // The service moved it, saying why first, then as the trash does.
    const events = await eventsInclude(org.org, ['recording.retention_expired', 'recording.trashed'], org.recId('old'));
    const why = events.filter((event) => event.resource.id === org.recId('old') && /retention_expired|trashed/.test(event.type));
    expect(why.map((event) => [event.type, event.actor])).toEqual([
      ['recording.retention_expired', null],
      ['recording.trashed', null],
    ]);

    const bad = await runCli(['retention', 'sweep', '--org', 'not an id'], { LOCAL_DATA_DIR: dataDir });
    expect(bad.code).toBe(1);
  });
});
