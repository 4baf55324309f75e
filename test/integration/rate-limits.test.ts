import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { localProfileCipher } from '../../infra/local/profile-key';
import { parseModelCatalog } from '../../shared/config';
import { seedFixture } from '../../shared/operations/fixture';
import { Fixture, type FixtureInput } from '../../shared/schemas/fixture';
import { createTableContext } from '../../shared/storage/dynamo';
import { call, eventually, failure, unique, type ApiResponse } from '../support/api';
import { runCli, type CliResult } from '../support/cli';
import { repoRoot, startLocalDeployment, stopLocalDeployment, type StartedDeployment } from '../support/local-deployment';
import { buildOrg } from '../support/org-builder';

/*
 * Per-organization rate limits on the real HTTP path (gateway emulator → authorizer → handler →
 * DynamoDB Local), on deployments of this file's own: the shared one's defaults are set far above
 * what the other suites send. Windows are aligned to the epoch (index = floor(now / window)), so
 * a test that needs its requests in one window waits for a fresh one and runs again if they
 * spilled over its end; the machine's clock is the deployments' (the shifted one's too, but while
 * the quota test moves it).
 */

const DEFAULTS = { rate: 20, burst: 40 };
/** Every limit this file sets lasts burst / rate = 2 s, the defaults' included. */
const WINDOW_MS = 2000;
const DAY_MS = 86_400_000;

const baseEnv = {
  LOCAL_SEED: 'none',
  RATE_LIMIT_CACHE_SECONDS: '1',
  RATE_LIMIT_DEFAULT_RATE: String(DEFAULTS.rate),
  RATE_LIMIT_DEFAULT_BURST: String(DEFAULTS.burst),
  LOCAL_TTL_SWEEP_SECONDS: '0',
};

/** Authorizer cache off: a key's changed own limit reaches the handler at once. */
let main: StartedDeployment;
/** Authorizer cache on (60 s) and a wall clock the test moves (test/support/shifted-clock.cjs). */
let shifted: StartedDeployment;
let clockFile: string;

beforeAll(async () => {
  const shiftedDir = mkdtempSync(path.join(os.tmpdir(), 'voice-org-rate-limits-'));
  clockFile = path.join(shiftedDir, 'clock-offset-ms');
  writeFileSync(clockFile, '0');
  const preload = `--require ${path.join(repoRoot, 'test/support/shifted-clock.cjs')}`;
  [main, shifted] = await Promise.all([
    startLocalDeployment({ env: { ...baseEnv, LOCAL_AUTHORIZER_CACHE_SECONDS: '0' } }),
    startLocalDeployment({
      dataDir: shiftedDir,
      env: {
        ...baseEnv,
        LOCAL_AUTHORIZER_CACHE_SECONDS: '60',
        // tsx runs start.ts in a child node process, which inherits NODE_OPTIONS: both load the preload.
        NODE_OPTIONS: [process.env.NODE_OPTIONS, preload].filter(Boolean).join(' '),
        SHIFTED_CLOCK_FILE: clockFile,
      },
    }),
  ]);
}, 120_000);

afterAll(async () => {
  for (const deployment of [main, shifted]) {
    if (!deployment) continue;
    await stopLocalDeployment(deployment.child);
    rmSync(deployment.dataDir, { recursive: true, force: true });
  }
});

const cliOf = (deployment: StartedDeployment) => (...args: string[]) => runCli(args, { LOCAL_DATA_DIR: deployment.dataDir });

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
async function orgsWithKey(deployment: StartedDeployment, ...labels: string[]): Promise<{ orgId: string; key: string; owner: { id: string; email: string } }[]> {
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

const listUsers = (deployment: StartedDeployment, orgId: string, token: string) => call(deployment.runtime.apiUrl, 'GET', `/api/v1/organization/${orgId}/users`, { token });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const windowIndex = (at = Date.now()) => Math.floor(at / WINDOW_MS);
/** Waits until just after a window boundary. */
const freshWindow = () => sleep(WINDOW_MS - (Date.now() % WINDOW_MS) + 20);

/**
 * Runs `send` from the start of a fresh window and returns what it returned, once it ended in
 * the window it started in (at most three tries): its requests were then all counted in one window.
 */
async function withinOneWindow<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < 3; attempt++) {
    await freshWindow();
    const started = windowIndex();
    const result = await send();
    if (windowIndex() === started) return result;
  }
  throw new Error('three tries in a row spilled over a window boundary: the machine is too slow for this test');
}

async function inSequence(count: number, send: () => Promise<ApiResponse>): Promise<ApiResponse[]> {
  const responses: ApiResponse[] = [];
  for (let i = 0; i < count; i++) responses.push(await send());
  return responses;
}

const statuses = (responses: ApiResponse[]) => responses.map((res) => res.status);
const header = (res: ApiResponse, name: string) => res.headers.get(name);

/** A refusal of the rate limiter: the error envelope, Retry-After in whole seconds, nothing left. */
function expectRefusal(res: ApiResponse, code: 'RATE_LIMITED' | 'QUOTA_EXCEEDED', messagePart: string, limit: number, maxRetryAfter: number): void {
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

    await freshWindow();
    const firstWindow = windowIndex();
    const [fromA, fromB] = await Promise.all([
      Promise.all(Array.from({ length: 30 }, () => listUsers(main, a.orgId, a.key))),
      Promise.all(Array.from({ length: 10 }, () => listUsers(main, b.orgId, b.key))),
    ]);
    const windowsTouched = windowIndex() - firstWindow + 1;

    expect(statuses(fromB).every((status) => status === 200)).toBe(true);
    const admitted = fromA.filter((res) => res.status === 200);
    const refused = fromA.filter((res) => res.status !== 200);
    expect(admitted.length).toBeGreaterThanOrEqual(10);
    expect(admitted.length).toBeLessThanOrEqual(10 * windowsTouched);
    // 30 requests could all fit in three windows: only a machine that slow sees no refusal.
    if (windowsTouched <= 2) expect(refused.length).toBeGreaterThan(0);
    for (const res of refused) expectRefusal(res, 'RATE_LIMITED', `Organization ${a.orgId} is over its rate limit`, 10, WINDOW_MS / 1000);
  });

  it('tells every counted response its limit, what is left of it and when it resets', async () => {
    const [{ orgId, key }] = await orgsWithKey(main, 'headers');

    const responses = await withinOneWindow(() => inSequence(5, () => listUsers(main, orgId, key)));

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
    const defaults = { org_id: orgId, ...DEFAULTS, daily_quota: null, source: 'default' };
    expect((await cli('org', 'get-limits', '--org', orgId)).json).toEqual(defaults);
    expect(header(await listUsers(main, orgId, key), 'ratelimit-limit')).toBe('40');

    // Any counted response (a 429 too) says which limit applies; polled for 1 s of cache and some slack.
    const limitSeen = (expected: string) =>
      eventually(
        async () => {
          const res = await listUsers(main, orgId, key);
          expect([200, 429]).toContain(res.status);
          await sleep(100);
          return header(res, 'ratelimit-limit');
        },
        (limit) => limit === expected,
        4000,
      );

    const lowered = await cli('org', 'set-limits', '--org', orgId, '--rate', '5', '--burst', '10');
    expect(lowered.json).toEqual({ org_id: orgId, rate: 5, burst: 10, daily_quota: null, source: 'organization' });
    const [afterLowering, seenLowered] = await Promise.all([cli('org', 'get-limits', '--org', orgId), limitSeen('10')]);
    expect(afterLowering.json).toEqual(lowered.json);
    expect(seenLowered).toBe('10');

    const raised = await cli('org', 'set-limits', '--org', orgId, '--rate', '50', '--burst', '100', '--daily-quota', '5000');
    expect(raised.json).toEqual({ org_id: orgId, rate: 50, burst: 100, daily_quota: 5000, source: 'organization' });
    expect(await limitSeen('100')).toBe('100');

    const cleared = await cli('org', 'clear-limits', '--org', orgId);
    expect(cleared.json).toEqual(defaults);
    const [afterClearing, seenDefault] = await Promise.all([cli('org', 'get-limits', '--org', orgId), limitSeen('40')]);
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

    const [fromLimited, fromOrgKey] = await withinOneWindow(async () => [
      await inSequence(5, () => listUsers(main, orgId, limited.key)),
      await inSequence(3, () => listUsers(main, orgId, orgKey)),
    ]);

    expect(statuses(fromLimited)).toEqual([200, 200, 429, 429, 429]);
    expect([header(fromLimited[0], 'ratelimit-limit'), header(fromLimited[0], 'ratelimit-remaining')]).toEqual(['2', '1']);
    for (const res of fromLimited.slice(2)) expectRefusal(res, 'RATE_LIMITED', `API key ${limited.key_id} is over its own rate limit`, 2, 2);
    // The three refusals above took nothing from the organization's 4: the other key gets the 2 left.
    expect(statuses(fromOrgKey)).toEqual([200, 200, 429]);
    expectRefusal(fromOrgKey[2], 'RATE_LIMITED', `Organization ${orgId} is over its rate limit`, 4, 2);

    const cleared = await cliOf(main)('key', 'clear-limits', '--id', limited.key_id);
    expect(cleared.json).toEqual({ key_id: limited.key_id, org_id: orgId, rate_limit: null });
    const afterClear = await withinOneWindow(() => inSequence(5, () => listUsers(main, orgId, limited.key)));
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
    expect([header(atHome, 'ratelimit-limit'), header(atHome, 'ratelimit-remaining')]).toEqual([String(DEFAULTS.burst), String(DEFAULTS.burst - 1)]);

    const [strangers, owners] = await withinOneWindow(async () => [
      await Promise.all(Array.from({ length: 15 }, () => listUsers(main, target.orgId, idToken))),
      await Promise.all(Array.from({ length: 11 }, () => listUsers(main, target.orgId, target.key))),
    ]);

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
      expect(result.json).toEqual({ error, message: expect.any(String), ...(error === 'MISSING_FLAG' ? { usage: expect.any(String) } : {}) });
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
    refused(await cli('key', 'set-limits', '--id', keyId, '--rate', '3', '--burst', '2'), 'VALIDATION_ERROR', 'burst must be at least rate');

    expect((await cli('org', 'get-limits', '--org', orgId)).json).toEqual({ org_id: orgId, rate: 5, burst: 10, daily_quota: null, source: 'organization' });
  });
});

describe('per-organization rate limits behind the authorizer cache, on a shifted clock', () => {
  it("refuses requests over the limit that the authorizer's cached result let through", async () => {
    const cli = cliOf(shifted);
    const [{ orgId }] = await orgsWithKey(shifted, 'cached');
    const [, { key, key_id: keyId }] = await Promise.all([
      mustRun(shifted, 'org', 'set-limits', '--org', orgId, '--rate', '5', '--burst', '10'),
      mustRun(shifted, 'key', 'create', '--org', orgId, '--scopes', 'users:read'),
    ]);
    expect((await listUsers(shifted, orgId, key)).status).toBe(200);
    // Revoked, the key still passes for as long as its authorizer result is cached: every request below rides on the cache.
    expect((await cli('key', 'revoke', '--id', keyId)).code).toBe(0);

    await freshWindow();
    const firstWindow = windowIndex();
    const responses = await Promise.all(Array.from({ length: 30 }, () => listUsers(shifted, orgId, key)));
    const windowsTouched = windowIndex() - firstWindow + 1;

    expect(statuses(responses).every((status) => status === 200 || status === 429)).toBe(true);
    const admitted = responses.filter((res) => res.status === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(10);
    expect(admitted).toBeLessThanOrEqual(10 * windowsTouched);
    if (windowsTouched <= 2) expect(admitted).toBeLessThan(30);
  });

  it('renews the daily quota at 00:00 UTC, and says in Retry-After how far that is', async () => {
    const [{ orgId, key }] = await orgsWithKey(shifted, 'quota');
    await mustRun(shifted, 'org', 'set-limits', '--org', orgId, '--rate', '100', '--burst', '1000', '--daily-quota', '3');

    // The deployment's clock 3 s before a UTC midnight (the next real one, unless that is too close).
    const realNow = Date.now();
    let midnight = Math.ceil(realNow / DAY_MS) * DAY_MS;
    if (midnight - realNow < 60_000) midnight += DAY_MS;
    const offset = midnight - 3000 - realNow;
    writeFileSync(clockFile, String(offset));
    await sleep(150); // the preload reads the file again every 50 ms
    let used: ApiResponse[], over: ApiResponse, nextDay: ApiResponse;
    try {
      used = await inSequence(3, () => listUsers(shifted, orgId, key));
      over = await listUsers(shifted, orgId, key);
      await sleep(midnight + 200 - (Date.now() + offset));
      nextDay = await listUsers(shifted, orgId, key);
    } finally {
      writeFileSync(clockFile, '0');
    }

    expect(statuses(used)).toEqual([200, 200, 200]);
    // The nearest limit is the quota: 3 a day, renewed at midnight, 3 s away on the deployment's clock.
    expect(used.map((res) => header(res, 'ratelimit-limit'))).toEqual(['3', '3', '3']);
    expect(used.map((res) => header(res, 'ratelimit-remaining'))).toEqual(['2', '1', '0']);
    // A retry-after of hours here would mean the preload did not shift the deployment's clock.
    expectRefusal(over, 'QUOTA_EXCEEDED', `Organization ${orgId} has used its daily quota of 3 requests: it renews at 00:00 UTC`, 3, 3);

    expect(nextDay.status).toBe(200);
    expect([header(nextDay, 'ratelimit-limit'), header(nextDay, 'ratelimit-remaining')]).toEqual(['3', '2']);
    expect(Number(header(nextDay, 'ratelimit-reset'))).toBeGreaterThan(86_000);
  });
});
