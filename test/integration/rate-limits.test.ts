import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { localProfileCipher } from '../../infra/local/profile-key';
import { parseModelCatalog } from '../../shared/config';
import { seedFixture } from '../../shared/operator-tasks/fixture';
import { Fixture, type FixtureInput } from '../../shared/schemas/fixture';
import { createTableContext } from '../../shared/storage/dynamo';
import { call, failure, unique, type ApiResponse } from '../support/api';
import { runCli, type CliResult } from '../support/cli';
import { deploymentClock, movableClockEnv, type DeploymentClock } from '../support/deployment-clock';
import { startLocalDeployment, stopLocalDeployment, type StartedDeployment } from '../support/local-deployment';
import { buildOrg } from '../support/org-builder';

/*
 * Per-organization rate limits on the real HTTP path (gateway emulator → authorizer → handler →
 * DynamoDB Local), on deployments of this file's own: the shared one's defaults are set far above
 * what the other suites send. Windows are aligned to the epoch (index = floor(now / window)).
 * Each deployment's clock is one the test sets (test/support/deployment-clock.ts), standing still
 * in between: a test puts it at the start of a window and sends its requests there, all counted in
 * that one window however long they take, and moves it past the limits' cache or over a UTC
 * midnight instead of waiting for them.
 */

const DEFAULTS = { rate: 20, burst: 40 };
/** Every limit this file sets lasts burst / rate = 2 s, the defaults' included. */
const WINDOW_MS = 2000;
const DAY_MS = 86_400_000;
/** How long a handler keeps an organization's limits (RATE_LIMIT_CACHE_SECONDS). */
const CACHE_MS = 1000;

const baseEnv = {
  LOCAL_SEED: 'none',
  RATE_LIMIT_CACHE_SECONDS: String(CACHE_MS / 1000),
  RATE_LIMIT_DEFAULT_RATE: String(DEFAULTS.rate),
  RATE_LIMIT_DEFAULT_BURST: String(DEFAULTS.burst),
  LOCAL_TTL_SWEEP_SECONDS: '0',
};

type ClockedDeployment = StartedDeployment & { clock: DeploymentClock };

/** Authorizer cache off: a key's changed own limit reaches the handler at once. */
let main: ClockedDeployment;
/** Authorizer cache on (60 s): requests ride on the authorizer's cached result. */
let cached: ClockedDeployment;

/** A local deployment of this file, with a clock the test sets. */
async function startClocked(label: string, authorizerCacheSeconds: number): Promise<ClockedDeployment> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `voice-org-rate-limits-${label}-`));
  const env = { ...baseEnv, LOCAL_AUTHORIZER_CACHE_SECONDS: String(authorizerCacheSeconds), ...movableClockEnv(dataDir) };
  return { ...(await startLocalDeployment({ dataDir, env })), clock: deploymentClock(dataDir) };
}

beforeAll(async () => {
  [main, cached] = await Promise.all([startClocked('main', 0), startClocked('cached', 60)]);
}, 120_000);

afterAll(async () => {
  for (const deployment of [main, cached]) {
    if (!deployment) continue;
    await stopLocalDeployment(deployment.child);
    rmSync(deployment.dataDir, { recursive: true, force: true });
  }
});

const cliOf =
  (deployment: StartedDeployment) =>
  (...args: string[]) =>
    runCli(args, { LOCAL_DATA_DIR: deployment.dataDir });

/** A CLI command the test's setup needs: its output, or the test fails with its error. */
async function mustRun(deployment: StartedDeployment, ...args: string[]): Promise<any> {
  const result = await cliOf(deployment)(...args);
  if (result.code !== 0) throw new Error(`voice-org ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return result.json;
}

/**
 * New organizations, each with an owner and an org key that may list its users, loaded into a
 * deployment's table as `cli seed` loads a fixture: the CLI's process start (about a second each)
 * is kept for the commands under test.
 */
async function orgsWithKey(
  deployment: StartedDeployment,
  ...labels: string[]
): Promise<{ orgId: string; key: string; owner: { id: string; email: string } }[]> {
  const orgs = labels.map((label) => buildOrg({ label, people: { owner: { role: 'owner' } }, keys: { org: { scopes: ['users:read'] } } }));
  const fixture: FixtureInput = {
    orgs: orgs.flatMap((org) => org.fixture.orgs),
    users: orgs.flatMap((org) => org.fixture.users),
    memberships: orgs.flatMap((org) => org.fixture.memberships),
    api_keys: orgs.flatMap((org) => org.fixture.api_keys),
  };
  const { runtime, dataDir } = deployment;
  const db = createTableContext({ tableName: runtime.tableName, region: runtime.region, endpoint: runtime.dynamoDbEndpoint });
  try {
    const settings = { db, cipher: localProfileCipher(dataDir), models: parseModelCatalog({}) };
    await seedFixture({ db, settings, trashRetentionDays: runtime.trashRetentionDays ?? 30 }, v.parse(Fixture, fixture), new Date());
  } finally {
    db.client.destroy();
  }
  return orgs.map((org) => ({ orgId: org.org, key: org.keys.org, owner: org.people.owner }));
}

const listUsers = (deployment: StartedDeployment, orgId: string, token: string) =>
  call(deployment.runtime.apiUrl, 'GET', `/api/v1/organization/${orgId}/users`, { token });

/**
 * Sets the deployment's clock to the start of a window later than any instant it was set to and
 * than real time, and leaves it there: the requests sent next are all counted in that window.
 */
function freshWindow(deployment: ClockedDeployment): void {
  deployment.clock.setTo((Math.floor(Math.max(Date.now(), deployment.clock.now()) / WINDOW_MS) + 1) * WINDOW_MS);
}

async function inSequence(count: number, send: () => Promise<ApiResponse>): Promise<ApiResponse[]> {
  const responses: ApiResponse[] = [];
  for (let i = 0; i < count; i++) responses.push(await send());
  return responses;
}

const statuses = (responses: ApiResponse[]) => responses.map((res) => res.status);
const header = (res: ApiResponse, name: string) => res.headers.get(name);

/** A refusal of the rate limiter: the error envelope, Retry-After in whole seconds, nothing left. */
function expectRefusal(
  res: ApiResponse,
  code: 'RATE_LIMITED' | 'QUOTA_EXCEEDED',
  messagePart: string,
  limit: number,
  maxRetryAfter: number,
): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual(failure(code, expect.stringContaining(messagePart)));
  expect(header(res, 'retry-after')).toMatch(/^\d+$/);
  const retryAfter = Number(header(res, 'retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter);
  expect(header(res, 'ratelimit-remaining')).toBe('0');
  expect(header(res, 'ratelimit-limit')).toBe(String(limit));
}

describe('per-organization rate limits (authorizer cache off)', () => {
  it("refuses an organization over its limit while another organization's requests all go through", async () => {
    const [a, b] = await orgsWithKey(main, 'flood', 'calm');
    await mustRun(main, 'org', 'set-limits', '--org', a.orgId, '--rate', '5', '--burst', '10');

    freshWindow(main);
    const [fromA, fromB] = await Promise.all([
      Promise.all(Array.from({ length: 30 }, () => listUsers(main, a.orgId, a.key))),
      Promise.all(Array.from({ length: 10 }, () => listUsers(main, b.orgId, b.key))),
    ]);

    expect(statuses(fromB).every((status) => status === 200)).toBe(true);
    const admitted = fromA.filter((res) => res.status === 200);
    const refused = fromA.filter((res) => res.status !== 200);
    // All 30 in one window (the deployment's clock stands at its start): exactly its 10 go through.
    expect(admitted).toHaveLength(10);
    expect(refused).toHaveLength(20);
    for (const res of refused) expectRefusal(res, 'RATE_LIMITED', `Organization ${a.orgId} is over its rate limit`, 10, WINDOW_MS / 1000);
  });

  it('tells every counted response its limit, what is left of it and when it resets', async () => {
    const [{ orgId, key }] = await orgsWithKey(main, 'headers');

    freshWindow(main);
    const responses = await inSequence(5, () => listUsers(main, orgId, key));

    expect(statuses(responses)).toEqual([200, 200, 200, 200, 200]);
    expect(responses.map((res) => header(res, 'ratelimit-limit'))).toEqual(Array(5).fill(String(DEFAULTS.burst)));
    expect(responses.map((res) => header(res, 'ratelimit-remaining'))).toEqual(['39', '38', '37', '36', '35']);
    for (const res of responses) {
      expect(header(res, 'ratelimit-reset')).toMatch(/^[12]$/);
      expect(header(res, 'retry-after')).toBeNull();
    }
  });

  it('applies a changed limit within RATE_LIMIT_CACHE_SECONDS, and puts the organization back on the defaults', async () => {
    const cli = cliOf(main);
    const [{ orgId, key }] = await orgsWithKey(main, 'change');
    freshWindow(main);
    const defaults = { org_id: orgId, ...DEFAULTS, daily_quota: null, source: 'default', transcription_minutes: null, ask_daily: null };
    expect((await cli('org', 'get-limits', '--org', orgId)).json).toEqual(defaults);
    expect(header(await listUsers(main, orgId, key), 'ratelimit-limit')).toBe('40');

    // Any counted response (a 429 too) says which limit applies: the one sent once the handler's
    // cache of the limits has run out, on the deployment's clock moved on by RATE_LIMIT_CACHE_SECONDS.
    const limitAfterTheCache = async () => {
      main.clock.setTo(main.clock.now() + CACHE_MS);
      const res = await listUsers(main, orgId, key);
      expect([200, 429]).toContain(res.status);
      return header(res, 'ratelimit-limit');
    };

    const lowered = await cli('org', 'set-limits', '--org', orgId, '--rate', '5', '--burst', '10');
    expect(lowered.json).toEqual({
      org_id: orgId,
      rate: 5,
      burst: 10,
      daily_quota: null,
      source: 'organization',
      transcription_minutes: null,
      ask_daily: null,
    });
    const [afterLowering, seenLowered] = await Promise.all([cli('org', 'get-limits', '--org', orgId), limitAfterTheCache()]);
    expect(afterLowering.json).toEqual(lowered.json);
    expect(seenLowered).toBe('10');

    const raised = await cli('org', 'set-limits', '--org', orgId, '--rate', '50', '--burst', '100', '--daily-quota', '5000');
    expect(raised.json).toEqual({
      org_id: orgId,
      rate: 50,
      burst: 100,
      daily_quota: 5000,
      source: 'organization',
      transcription_minutes: null,
      ask_daily: null,
    });
    expect(await limitAfterTheCache()).toBe('100');

    const cleared = await cli('org', 'clear-limits', '--org', orgId);
    expect(cleared.json).toEqual(defaults);
    const [afterClearing, seenDefault] = await Promise.all([cli('org', 'get-limits', '--org', orgId), limitAfterTheCache()]);
    expect(afterClearing.json).toEqual(defaults);
    expect(seenDefault).toBe('40');
  });

  it("refuses a key over its own limit without spending its organization's budget, until the key's limit is cleared", async () => {
    const [{ orgId, key: orgKey }] = await orgsWithKey(main, 'keys');
    const [, limited] = await Promise.all([
      mustRun(main, 'org', 'set-limits', '--org', orgId, '--rate', '2', '--burst', '4'),
      mustRun(main, 'key', 'create', '--org', orgId, '--scopes', 'users:read', '--rate', '1', '--burst', '2'),
    ]);
    expect(limited.rate_limit).toEqual({ rate: 1, burst: 2 });

    freshWindow(main);
    const fromLimited = await inSequence(5, () => listUsers(main, orgId, limited.key));
    const fromOrgKey = await inSequence(3, () => listUsers(main, orgId, orgKey));

    expect(statuses(fromLimited)).toEqual([200, 200, 429, 429, 429]);
    expect([header(fromLimited[0], 'ratelimit-limit'), header(fromLimited[0], 'ratelimit-remaining')]).toEqual(['2', '1']);
    for (const res of fromLimited.slice(2))
      expectRefusal(res, 'RATE_LIMITED', `API key ${limited.key_id} is over its own rate limit`, 2, 2);
    // The three refusals above took nothing from the organization's 4: the other key gets the 2 left.
    expect(statuses(fromOrgKey)).toEqual([200, 200, 429]);
    expectRefusal(fromOrgKey[2], 'RATE_LIMITED', `Organization ${orgId} is over its rate limit`, 4, 2);

    const cleared = await cliOf(main)('key', 'clear-limits', '--id', limited.key_id);
    expect(cleared.json).toEqual({ key_id: limited.key_id, org_id: orgId, rate_limit: null });
    freshWindow(main);
    const afterClear = await inSequence(5, () => listUsers(main, orgId, limited.key));
    expect(statuses(afterClear)).toEqual([200, 200, 200, 200, 429]);
    expectRefusal(afterClear[4], 'RATE_LIMITED', `Organization ${orgId} is over its rate limit`, 4, 2);
  });

  it("does not count a member's refused request to another organization against that organization", async () => {
    const [home, target] = await orgsWithKey(main, 'home', 'target');
    const [{ id_token: idToken }] = await Promise.all([
      mustRun(main, 'token', '--user', home.owner.id),
      mustRun(main, 'org', 'set-limits', '--org', target.orgId, '--rate', '5', '--burst', '10'),
    ]);
    // A member's own organization counts their requests (and says so).
    const atHome = await listUsers(main, home.orgId, idToken);
    expect(atHome.status).toBe(200);
    expect([header(atHome, 'ratelimit-limit'), header(atHome, 'ratelimit-remaining')]).toEqual([
      String(DEFAULTS.burst),
      String(DEFAULTS.burst - 1),
    ]);

    freshWindow(main);
    const strangers = await Promise.all(Array.from({ length: 15 }, () => listUsers(main, target.orgId, idToken)));
    const owners = await Promise.all(Array.from({ length: 11 }, () => listUsers(main, target.orgId, target.key)));

    expect(statuses(strangers).every((status) => status === 403)).toBe(true);
    expect(statuses(owners).filter((status) => status === 200)).toHaveLength(10);
    expect(statuses(owners).filter((status) => status === 429)).toHaveLength(1);
  });

  it('refuses bad limits given to the CLI with a JSON error and a non-zero exit, leaving the limits as they were', async () => {
    const cli = cliOf(main);
    const [{ orgId }] = await orgsWithKey(main, 'cli');
    const [, { key_id: keyId }] = await Promise.all([
      mustRun(main, 'org', 'set-limits', '--org', orgId, '--rate', '5', '--burst', '10'),
      mustRun(main, 'key', 'create', '--org', orgId, '--scopes', 'users:read'),
    ]);
    const setLimits = (...flags: string[]) => cli('org', 'set-limits', '--org', orgId, ...flags);
    const refused = (result: CliResult, error: string, message: string) => {
      expect(result.code).not.toBe(0);
      expect(result.json).toEqual({
        error,
        message: expect.any(String),
        ...(error === 'MISSING_FLAG' ? { usage: expect.any(String) } : {}),
      });
      // The CLI starts its sentences with a capital: compared without case.
      expect(result.json.message.toLowerCase()).toContain(message.toLowerCase());
    };

    const [burstBelowRate, notNumber, fraction, zeroRate, zeroQuota, noBurst, unknownOrg, unknownKey] = await Promise.all([
      setLimits('--rate', '10', '--burst', '5'),
      setLimits('--rate', 'ten', '--burst', '20'),
      setLimits('--rate', '5', '--burst', '7.5'),
      setLimits('--rate', '0', '--burst', '10'),
      setLimits('--rate', '5', '--burst', '10', '--daily-quota', '0'),
      setLimits('--rate', '5'),
      cli('org', 'set-limits', '--org', `org_none_${unique()}`, '--rate', '5', '--burst', '10'),
      cli('key', 'set-limits', '--id', `key_none_${unique()}`, '--rate', '1', '--burst', '2'),
    ]);
    refused(burstBelowRate, 'VALIDATION_ERROR', 'burst must be at least rate');
    refused(notNumber, 'VALIDATION_ERROR', 'rate must be a number');
    refused(fraction, 'VALIDATION_ERROR', 'burst must be a whole number');
    refused(zeroRate, 'VALIDATION_ERROR', 'rate must be at least 1');
    refused(zeroQuota, 'VALIDATION_ERROR', 'daily_quota must be at least 1');
    refused(noBurst, 'MISSING_FLAG', '--burst');
    refused(unknownOrg, 'ORG_NOT_FOUND', 'does not exist');
    refused(unknownKey, 'KEY_NOT_FOUND', 'does not exist');
    refused(
      await cli('key', 'set-limits', '--id', keyId, '--rate', '3', '--burst', '2'),
      'VALIDATION_ERROR',
      'burst must be at least rate',
    );

    expect((await cli('org', 'get-limits', '--org', orgId)).json).toEqual({
      org_id: orgId,
      rate: 5,
      burst: 10,
      daily_quota: null,
      source: 'organization',
      transcription_minutes: null,
      ask_daily: null,
    });
  });
});

describe('per-organization rate limits behind the authorizer cache (60 s)', () => {
  it("refuses requests over the limit that the authorizer's cached result let through", async () => {
    const cli = cliOf(cached);
    const [{ orgId }] = await orgsWithKey(cached, 'cached');
    const [, { key, key_id: keyId }] = await Promise.all([
      mustRun(cached, 'org', 'set-limits', '--org', orgId, '--rate', '5', '--burst', '10'),
      mustRun(cached, 'key', 'create', '--org', orgId, '--scopes', 'users:read'),
    ]);
    expect((await listUsers(cached, orgId, key)).status).toBe(200);
    // Revoked, the key still passes for as long as its authorizer result is cached: every request below rides on the cache.
    expect((await cli('key', 'revoke', '--id', keyId)).code).toBe(0);

    freshWindow(cached);
    const responses = await Promise.all(Array.from({ length: 30 }, () => listUsers(cached, orgId, key)));

    expect(statuses(responses).every((status) => status === 200 || status === 429)).toBe(true);
    // All 30 in one window: exactly its 10 go through.
    const admitted = responses.filter((res) => res.status === 200).length;
    expect(admitted).toBe(10);
  });

  it('renews the daily quota at 00:00 UTC, and says in Retry-After how far that is', async () => {
    const [{ orgId, key }] = await orgsWithKey(cached, 'quota');
    await mustRun(cached, 'org', 'set-limits', '--org', orgId, '--rate', '100', '--burst', '1000', '--daily-quota', '3');

    // The deployment's clock 3 s before the next UTC midnight, then 200 ms after it.
    const midnight = Math.ceil(Math.max(Date.now(), cached.clock.now()) / DAY_MS) * DAY_MS;
    let used: ApiResponse[], over: ApiResponse, nextDay: ApiResponse;
    try {
      cached.clock.setTo(midnight - 3000);
      used = await inSequence(3, () => listUsers(cached, orgId, key));
      over = await listUsers(cached, orgId, key);
      cached.clock.setTo(midnight + 200);
      nextDay = await listUsers(cached, orgId, key);
    } finally {
      cached.clock.release();
    }

    expect(statuses(used)).toEqual([200, 200, 200]);
    // The nearest limit is the quota: 3 a day, renewed at midnight, 3 s away on the deployment's clock.
    expect(used.map((res) => header(res, 'ratelimit-limit'))).toEqual(['3', '3', '3']);
    expect(used.map((res) => header(res, 'ratelimit-remaining'))).toEqual(['2', '1', '0']);
    // A retry-after of hours here would mean the preload did not set the deployment's clock.
    expectRefusal(over, 'QUOTA_EXCEEDED', `Organization ${orgId} has used its daily quota of 3 requests: it renews at 00:00 UTC`, 3, 3);

    expect(nextDay.status).toBe(200);
    expect([header(nextDay, 'ratelimit-limit'), header(nextDay, 'ratelimit-remaining')]).toEqual(['3', '2']);
    expect(Number(header(nextDay, 'ratelimit-reset'))).toBeGreaterThan(86_000);
  });
});
