import { transact } from '../../../shared/storage/transactions';
import { transcriptionUsageParts } from '../../../shared/storage/transcription-usage';
import { call, expectFailure, localDeployment, once } from '../../support/api';
import { runCli } from '../../support/cli';
import { buildOrg, seedOrg } from '../../support/org-builder';

/**
 * Get usage: a month's billed minutes of the organization and its members (paged by cursor),
 * its allowance as `org set-limits --transcription-minutes` set it, and a member's
 * monthly_transcription_minutes in their settings (this UTC month's). The minutes are written as
 * completions leave them (the pipeline's suite bills real ones).
 */
const { runtime, db, dataDir } = localDeployment();
const THIS_MONTH = new Date().toISOString().slice(0, 7);

const setup = once(async () => {
  const org = buildOrg({ label: 'tru', keys: { usage: { scopes: ['usage:read'] }, users: { scopes: ['users:read'] } } });
  await seedOrg(org);
  const bill = (userId: string, month: string, minutes: number) =>
    transact(db, transcriptionUsageParts(db, org.org, userId, { month, minutes }));
  await Promise.all([
    bill(org.people.member.id, THIS_MONTH, 3),
    bill(org.people.admin.id, THIS_MONTH, 4),
    bill(org.people.member.id, THIS_MONTH, 2),
    bill(org.people.owner.id, '2020-01', 9),
  ]);
  return org;
});

const usage = (orgId: string, key: string, query = '') =>
  call(runtime.apiUrl, 'GET', `/api/v1/organization/${orgId}/usage${query}`, { token: key });

describe('GET /api/v1/organization/{orgId}/usage', () => {
  it("answers this month's minutes by default, the organization's and each member's, paged by cursor; another month's apart", async () => {
    const org = await setup();
    const all = await usage(org.org, org.keys.usage);
    expect(all.status).toBe(200);
    const expected = [
      { user_id: org.people.admin.id, transcription_minutes: 4 },
      { user_id: org.people.member.id, transcription_minutes: 5 },
    ].sort((a, b) => a.user_id.localeCompare(b.user_id));
    expect(all.body).toEqual({
      month: THIS_MONTH,
      transcription_minutes: 9,
      allowance: null,
      members: expected,
      pagination: { limit: 50, next_cursor: null },
    });

    const first = await usage(org.org, org.keys.usage, '?limit=1');
    expect(first.body.members).toEqual([expected[0]]);
    const second = await usage(org.org, org.keys.usage, `?limit=1&cursor=${first.body.pagination.next_cursor}`);
    expect(second.body.members).toEqual([expected[1]]);
    expect(
      (await usage(org.org, org.keys.usage, `?limit=1&cursor=${second.body.pagination.next_cursor ?? ''}`)).body.members ?? [],
    ).toEqual([]);

    expect((await usage(org.org, org.keys.usage, '?month=2020-01')).body).toMatchObject({
      month: '2020-01',
      transcription_minutes: 9,
      members: [{ user_id: org.people.owner.id, transcription_minutes: 9 }],
    });
    expectFailure(
      await usage(org.org, org.keys.usage, `?month=2020-01&cursor=${first.body.pagination.next_cursor}`),
      400,
      'VALIDATION_ERROR',
    );
    expectFailure(await usage(org.org, org.keys.usage, '?month=2020-13'), 400, 'VALIDATION_ERROR');
  });

  it("shows the allowance org set-limits gives, and the member's monthly_transcription_minutes in their settings", async () => {
    const org = await setup();
    await runCli(['org', 'set-limits', '--org', org.org, '--transcription-minutes', '600'], { LOCAL_DATA_DIR: dataDir });
    expect((await usage(org.org, org.keys.usage)).body.allowance).toBe(600);
    const settings = await call(runtime.apiUrl, 'GET', `/api/v1/organization/${org.org}/users/${org.people.member.id}/settings`, {
      token: org.keys.users,
    });
    expect(settings.body.data.settings).toMatchObject({ monthly_transcription_minutes: 5 });
  });
});
