/**
 * Benchmark of Get and Update member settings at the domain level
 * (shared/domain/settings/get-member-settings.ts `getMemberSettings`,
 * shared/domain/settings/update-member-settings.ts `updateMemberSettings`) on DynamoDB Local.
 *
 *   npx tsx test/bench/member-settings.bench.ts
 *
 * One active member with settings, a ~5 KB markdown profile, 120 preferences and 5 tags.
 * For each GET variant (which sections are included) and PATCH variant (which sections
 * change) it reports the DynamoDB requests sent, by command; the items DynamoDB read; the
 * sequential round trips they took (requests in flight at the same time count once); the
 * profile encrypt and decrypt calls; and the median wall time. Results go to stdout and to
 * bench-results/member-settings.json.
 *
 * The cipher uses the local raw AES keyring, so its calls cost CPU only; in AWS each is
 * also one KMS round trip. DynamoDB Local runs on this machine: wall times show relative
 * cost, not production latency.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as v from 'valibot';
import { parseModelCatalog } from '../../shared/config';
import { createProfileCipher, rawAesKeyring, type ProfileCipher } from '../../shared/crypto/profile-cipher';
import { addMember, createOrganization, createUser } from '../../shared/operator-tasks/directory';
import { getMemberSettings, type SettingsReadDeps } from '../../shared/domain/settings/get-member-settings';
import { parseInput } from '../../shared/schemas/validation';
import { UpdateMemberSettingsBody } from '../../shared/schemas/settings';

const parseSettingsPatch = (body: unknown) => parseInput(UpdateMemberSettingsBody, body);
import { updateMemberSettings, type SettingsAudit, type SettingsWriteDeps } from '../../shared/domain/settings/update-member-settings';
import { newId } from '../../shared/ids';
import { GetSettingsQuery } from '../../shared/schemas/settings';
import type { TableContext } from '../../shared/storage/dynamo';
import { putTag } from '../../shared/storage/tags';
import { prng, reportHeader, round, secondsSince, wallTimes, withBenchTable, writeReport, type WallTimes } from './support/bench-harness';
import { observeRequests } from '../support/observe-requests';

const WARM_UPS = 3;
const RUNS = 20;
const ORG_ID = 'org_bench_settings';
const USER_ID = 'usr_bench_settings';
const TARGET = { orgId: ORG_ID, userId: USER_ID };
const PREFERENCES = 120;
const TAGS = 5;
const PROFILE_CHARACTERS = 5_000;
const RESULTS_FILE = path.resolve(__dirname, '../../bench-results/member-settings.json');
const AUDIT: SettingsAudit = { actor: 'usr_bench_admin', correlationId: 'bench', source: 'org_admin_api' };

// ---------------------------------------------------------------------------------------
// Bench data

const WORDS = (
  'I lead the customer success team for our EMEA accounts and spend most days on calls with clients partners ' +
  'and the product group keep summaries short decisions first then owners and due dates then open questions ' +
  'bullet points British spelling times in Europe/Paris pricing renewals contract terms flag clearly ARR churn ' +
  'NPS SLA QBR rollout playbook handover backlog escalations onboarding weekly pipeline review'
).split(' ');

/** About `length` characters of markdown that reads like a profile (the same text for the same seed). */
function markdownProfile(length: number, seed = 7): string {
  const pick = prng(seed);
  const sentence = () => {
    const text = Array.from({ length: 8 + pick(12) }, () => WORDS[pick(WORDS.length)]).join(' ');
    return `${text[0].toUpperCase()}${text.slice(1)}.`;
  };
  const headings = ['About me', 'How I work', 'Summaries', 'Action items', 'Accounts', 'Meetings', 'Vocabulary'];
  let text = '# Profile\n';
  for (let block = 0; text.length < length; block++) {
    if (block % 3 === 0) text += `\n## ${headings[(block / 3) % headings.length]}\n`;
    text += block % 2 ? `\n- ${sentence()}\n- ${sentence()}\n` : `\n${sentence()} ${sentence()} ${sentence()}\n`;
  }
  return text.slice(0, length);
}

/** The body of one new preference, as a client would send it. */
function preferenceBody(index: number) {
  const types = ['summary', 'vocabulary', 'formatting', 'routing'];
  return {
    command: `When summarizing meetings about topic ${index}, keep decisions first`,
    command_type: types[index % types.length],
    preference_content: `Preference ${index}: ${markdownProfile(280, index + 100).replace(/\n/g, ' ')}`,
    metadata: { origin: 'bench' },
  };
}

/**
 * The member of the bench, written through the domain functions: org, user, active
 * membership, settings and notifications, the profile, PREFERENCES preferences (in
 * patches of 40, under the API's 50 per request) and TAGS tags.
 */
async function writeMember(deps: SettingsWriteDeps, profile: string): Promise<void> {
  const now = new Date();
  await createOrganization(deps.db, { id: ORG_ID, name: 'Bench settings' }, now);
  await createUser(deps.db, { id: USER_ID, email: 'member@bench.example', display_name: 'Bench Member' }, now);
  await addMember(deps.db, { orgId: ORG_ID, userId: USER_ID, role: 'member' }, now);
  await updateMemberSettings(
    deps,
    TARGET,
    AUDIT,
    parseSettingsPatch({
      settings: { conversation_language: 'French', selected_theme: 'dark', selected_model: '4o' },
      notifications: { highlight_time: '07:30', sync_nudges_enabled: false },
      profile: { profile },
    }),
  );
  for (let first = 0; first < PREFERENCES; first += 40) {
    const preferences = Array.from({ length: Math.min(40, PREFERENCES - first) }, (_, offset) => preferenceBody(first + offset));
    await updateMemberSettings(deps, TARGET, AUDIT, parseSettingsPatch({ preferences }));
  }
  for (let index = 0; index < TAGS; index++) {
    const timestamp = now.toISOString();
    const tag = { tag_id: newId('tag'), org_id: ORG_ID, user_id: USER_ID, color: '#1f77b4', created_at: timestamp, updated_at: timestamp };
    await putTag(deps.db, { ...tag, name: `Tag ${index}` });
  }
}

/** Ids of the member's preferences, newest first, read through the domain function. */
async function preferenceIds(deps: SettingsReadDeps, limit: number): Promise<string[]> {
  const bundle = await getMemberSettings(
    deps,
    ORG_ID,
    USER_ID,
    v.parse(GetSettingsQuery, { include: 'preferences', preferences_limit: String(limit) }),
  );
  return (bundle.preferences as { data: { id: string }[] }).data.map((preference) => preference.id);
}

/** Creates `count` preferences (untimed, untallied) for a variant's run to delete. */
async function createDeletable(deps: SettingsWriteDeps, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => newId('pref'));
  const entries = ids.map((fixedId, index) => ({ op: 'create' as const, fixedId, ...preferenceBody(1_000 + index) }));
  await updateMemberSettings(deps, TARGET, AUDIT, { preferences: entries });
  return ids;
}

// ---------------------------------------------------------------------------------------
// Instrumentation

/** One DynamoDB request or cipher call, timed. */
interface Step {
  kind: 'dynamodb' | 'cipher';
  /** DynamoDB API name (BatchGetItem, Query...) or encrypt / decrypt. */
  name: string;
  /** For the sequence: Query(COUNT) for the skip queries of a deep page. */
  label: string;
  start: number;
  end: number;
  attempts: number;
  itemsRead: number;
  capacityUnits: number;
  /** Actions of a TransactWriteItems (condition checks included). */
  transactItems: number;
}

/** Steps recorded since the last `take`. */
class Timeline {
  private steps: Step[] = [];
  record(step: Step): void {
    this.steps.push(step);
  }
  take(): Step[] {
    const taken = this.steps;
    this.steps = [];
    return taken;
  }
}

/**
 * Adds a middleware to the client that asks each request for its consumed capacity and
 * records, per command, when it was in flight, its HTTP attempts, the items it read
 * (ScannedCount of a Query, COUNT queries included; the items a BatchGetItem or GetItem
 * found) and its capacity units.
 */
function instrument(db: TableContext, timeline: Timeline): void {
  observeRequests(db, 'memberSettingsBenchTimeline', ({ command: name, input, start, end, attempts, itemsRead, capacityUnits }) =>
    timeline.record({
      kind: 'dynamodb',
      name,
      label: name === 'Query' && input.Select === 'COUNT' ? 'Query(COUNT)' : name,
      start,
      end,
      attempts,
      itemsRead,
      capacityUnits: capacityUnits ?? 0,
      transactItems: Array.isArray(input.TransactItems) ? input.TransactItems.length : 0,
    }),
  );
}

/** The cipher, with each encrypt and decrypt recorded on the timeline. */
function recordingCipher(cipher: ProfileCipher, timeline: Timeline): ProfileCipher {
  const timed =
    <A extends unknown[], R>(name: 'encrypt' | 'decrypt', call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const start = performance.now();
      const result = await call(...args);
      timeline.record({
        kind: 'cipher',
        name,
        label: name,
        start,
        end: performance.now(),
        attempts: 1,
        itemsRead: 0,
        capacityUnits: 0,
        transactItems: 0,
      });
      return result;
    };
  return { encrypt: timed('encrypt', cipher.encrypt), decrypt: timed('decrypt', cipher.decrypt) };
}

/** Steps grouped into round trips: a step that starts while another is in flight joins its group. */
function roundTrips(steps: Step[]): Step[][] {
  const groups: Step[][] = [];
  let groupEnd = -Infinity;
  for (const step of [...steps].sort((a, b) => a.start - b.start)) {
    if (groups.length > 0 && step.start < groupEnd) {
      groups[groups.length - 1].push(step);
      groupEnd = Math.max(groupEnd, step.end);
    } else {
      groups.push([step]);
      groupEnd = step.end;
    }
  }
  return groups;
}

/** What one call did. */
interface Tally {
  /** DynamoDB requests (HTTP attempts) by API name. */
  requests: Record<string, number>;
  request_count: number;
  items_read: number;
  transact_items: number;
  capacity_units: number;
  /** Sequential DynamoDB round trips. */
  round_trips: number;
  /** Sequential round trips in AWS, where each cipher call is a KMS call. */
  round_trips_with_kms: number;
  /** The round trips in order: ∥ joins requests in flight together, → separates round trips. */
  sequence: string;
  encrypts: number;
  decrypts: number;
}

function tallyOf(steps: Step[]): Tally {
  // In the order the requests were sent (they are recorded as they end).
  const dynamo = steps.filter((step) => step.kind === 'dynamodb').sort((a, b) => a.start - b.start);
  const requests: Record<string, number> = {};
  for (const step of dynamo) requests[step.name] = (requests[step.name] ?? 0) + step.attempts;
  const sum = (of: (step: Step) => number) => dynamo.reduce((total, step) => total + of(step), 0);
  const groups = roundTrips(steps);
  return {
    requests,
    request_count: sum((step) => step.attempts),
    items_read: sum((step) => step.itemsRead),
    transact_items: sum((step) => step.transactItems),
    capacity_units: round(sum((step) => step.capacityUnits)),
    round_trips: roundTrips(dynamo).length,
    round_trips_with_kms: groups.length,
    sequence: groups.map((group) => group.map((step) => step.label).join(' ∥ ')).join(' → '),
    encrypts: steps.filter((step) => step.name === 'encrypt').length,
    decrypts: steps.filter((step) => step.name === 'decrypt').length,
  };
}

// ---------------------------------------------------------------------------------------
// Variants

interface Variant {
  method: 'GET' | 'PATCH';
  label: string;
  /** The query or body, as given (JSON output). */
  request: Record<string, unknown>;
  /**
   * Untimed, untallied preparation of run `run` (a PATCH may first create preferences to
   * delete); returns the call to time.
   */
  prepare: (run: number) => Promise<() => Promise<unknown>>;
  /** Throws unless the answer of the first call is the expected one. */
  check: (answer: unknown) => void;
}

interface Bench {
  read: SettingsReadDeps;
  write: SettingsWriteDeps;
  /** Uninstrumented deps, for preparation. */
  setup: SettingsWriteDeps;
  profile: string;
  /** Seeded preferences the update variants change. */
  updatable: string[];
}

function getVariant(
  bench: Bench,
  label: string,
  query: Record<string, string>,
  expected: { sections: string[]; preferences?: number; tags?: number },
): Variant {
  const parsed = v.parse(GetSettingsQuery, query);
  return {
    method: 'GET',
    label,
    request: query,
    prepare: async () => () => getMemberSettings(bench.read, ORG_ID, USER_ID, parsed),
    check: (answer) => {
      const data = answer as Record<string, unknown>;
      const sections = Object.keys(data)
        .filter((key) => key !== 'user' && key !== 'settings')
        .sort();
      const fail = (what: string) => new Error(`GET ${label}: ${what}`);
      if (JSON.stringify(sections) !== JSON.stringify([...expected.sections].sort())) throw fail(`sections ${sections.join(', ')}`);
      const profile = data.profile as { profile: string } | undefined;
      if (profile && profile.profile !== bench.profile) throw fail('the profile differs from the one written');
      const preferences = data.preferences as { data: unknown[]; pagination: { total: number } } | undefined;
      if (preferences && (preferences.data.length !== expected.preferences || preferences.pagination.total !== PREFERENCES)) {
        throw fail(`${preferences.data.length} preferences of ${preferences.pagination.total}`);
      }
      const tags = data.tags as unknown[] | undefined;
      if (tags && tags.length !== expected.tags) throw fail(`${tags.length} tags`);
    },
  };
}

function patchVariant(
  bench: Bench,
  label: string,
  body: (run: number, deletable: string[]) => Record<string, unknown>,
  expected: { deletes?: number; applied: Record<string, boolean | number> },
): Variant {
  return {
    method: 'PATCH',
    label,
    request: abridged(
      body(
        0,
        Array.from({ length: expected.deletes ?? 0 }, (_, index) => `<created before the run ${index + 1}>`),
      ),
    ),
    prepare: async (run) => {
      const deletable = expected.deletes ? await createDeletable(bench.setup, expected.deletes) : [];
      const patch = parseSettingsPatch(body(run, deletable));
      return () => updateMemberSettings(bench.write, TARGET, AUDIT, patch);
    },
    check: (answer) => {
      const applied = (answer as { applied: Record<string, unknown> }).applied;
      for (const [name, value] of Object.entries(expected.applied)) {
        if (applied[name] !== value) throw new Error(`PATCH ${label}: applied.${name} is ${String(applied[name])}, expected ${value}`);
      }
    },
  };
}

function variants(bench: Bench): Variant[] {
  const updates = (run: number, count: number) =>
    bench.updatable
      .slice(0, count)
      .map((id, index) => ({ id, preference_content: `Updated in run ${run}: ${preferenceBody(index).preference_content}` }));
  const creates = (run: number, count: number) => Array.from({ length: count }, (_, index) => preferenceBody(10_000 + run * 10 + index));
  const profileOf = (run: number) => `${bench.profile.slice(0, -40)}\n\nRevised in run ${run}.`;
  return [
    getVariant(bench, 'default (notifications)', {}, { sections: ['notifications'] }),
    getVariant(bench, 'include=none', { include: 'none' }, { sections: [] }),
    getVariant(bench, 'include=profile', { include: 'profile' }, { sections: ['notifications', 'profile'] }),
    getVariant(
      bench,
      'include=preferences (page 1, limit 50)',
      { include: 'preferences' },
      { sections: ['notifications', 'preferences'], preferences: 50 },
    ),
    getVariant(
      bench,
      'include=preferences page 3 (limit 50)',
      { include: 'preferences', preferences_page: '3' },
      { sections: ['notifications', 'preferences'], preferences: PREFERENCES - 100 },
    ),
    getVariant(bench, 'include=tags', { include: 'tags' }, { sections: ['notifications', 'tags'], tags: TAGS }),
    getVariant(
      bench,
      'include=profile,preferences,tags',
      { include: 'profile,preferences,tags' },
      { sections: ['notifications', 'profile', 'preferences', 'tags'], preferences: 50, tags: TAGS },
    ),
    patchVariant(bench, 'settings only', (run) => ({ settings: { selected_theme: run % 2 ? 'light' : 'dark' } }), {
      applied: { settings: true, profile: false, preferences_created: 0 },
    }),
    patchVariant(bench, 'profile only (~5 KB)', (run) => ({ profile: { profile: profileOf(run) } }), {
      applied: { profile: true, settings: false },
    }),
    patchVariant(bench, '5 preference creates', (run) => ({ preferences: creates(run, 5) }), { applied: { preferences_created: 5 } }),
    patchVariant(
      bench,
      '3 preference updates + 2 deletes',
      (run, deletable) => ({ preferences: [...updates(run, 3), ...deletable.map((id) => ({ id, delete: true }))] }),
      { deletes: 2, applied: { preferences_created: 0, preferences_updated: 3, preferences_deleted: 2 } },
    ),
    patchVariant(
      bench,
      'all sections (pref. 2 creates, 2 updates, 1 delete)',
      (run, deletable) => ({
        settings: { auto_route_enabled: run % 2 === 0 },
        notifications: { highlight_time: run % 2 ? '08:15' : '09:45' },
        profile: { profile: profileOf(run) },
        preferences: [...creates(run, 2), ...updates(run, 2), ...deletable.map((id) => ({ id, delete: true }))],
      }),
      {
        deletes: 1,
        applied: {
          settings: true,
          notifications: true,
          profile: true,
          preferences_created: 2,
          preferences_updated: 2,
          preferences_deleted: 1,
        },
      },
    ),
  ];
}

// ---------------------------------------------------------------------------------------
// Measurement

interface Result extends Tally {
  method: Variant['method'];
  variant: string;
  request: Record<string, unknown>;
  /** Whether every timed run sent the same requests, read the same items and took the same round trips. */
  same_every_run: boolean;
  wall_ms: WallTimes;
}

/** Checks the first call's answer, then times RUNS calls after WARM_UPS (the first one included). */
async function measure(variant: Variant, timeline: Timeline): Promise<Result> {
  const times: number[] = [];
  const tallies: Tally[] = [];
  for (let run = 0; run < WARM_UPS + RUNS; run++) {
    const call = await variant.prepare(run);
    timeline.take();
    const start = performance.now();
    const answer = await call();
    const elapsed = performance.now() - start;
    const tally = tallyOf(timeline.take());
    if (run === 0) variant.check(answer);
    if (run < WARM_UPS) continue;
    times.push(elapsed);
    tallies.push(tally);
  }
  // The figures that should not move from run to run (wall times and the exact overlap aside).
  const signature = (tally: Tally) =>
    JSON.stringify([tally.requests, tally.items_read, tally.round_trips, tally.round_trips_with_kms, tally.encrypts, tally.decrypts]);
  return {
    method: variant.method,
    variant: variant.label,
    request: variant.request,
    ...tallies[0],
    same_every_run: tallies.every((tally) => signature(tally) === signature(tallies[0])),
    wall_ms: wallTimes(times),
  };
}

// ---------------------------------------------------------------------------------------
// Output

function printTable(results: Result[]): void {
  const header = [
    '',
    'variant',
    'DynamoDB requests',
    'items read',
    'round trips',
    'with KMS',
    'encrypt',
    'decrypt',
    'median ms',
    'sequence (∥ together, → then)',
  ];
  const rows = results.map((r) => [
    r.method,
    r.variant,
    Object.entries(r.requests)
      .map(([name, count]) => `${name} ${count}`)
      .join(', '),
    String(r.items_read),
    `${r.round_trips}${r.same_every_run ? '' : '*'}`,
    String(r.round_trips_with_kms),
    String(r.encrypts),
    String(r.decrypts),
    r.wall_ms.median.toFixed(1),
    r.sequence,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const figures = new Set([3, 4, 5, 6, 7, 8]);
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (figures.has(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  rows.forEach((row) => console.log(line(row)));
  if (results.some((r) => !r.same_every_run)) console.log('* the requests, items read or round trips varied between runs: see the JSON');
}

const NOTES = [
  'Domain calls only. Through HTTP, the authorization adds one GetItem (the caller’s membership) for ID-token callers, ' +
    'or one Query (GSI2, the caller’s memberships) on the public alias without org_id, and nothing for org API keys.',
  'In AWS each profile encrypt adds one KMS GenerateDataKey and each decrypt one KMS Decrypt, in sequence with the ' +
    'DynamoDB round trips as the "with KMS" column counts them; here the local raw AES keyring stands in (CPU only).',
  'PATCH runs each write for real: every profile run adds a profile version row, and the create runs add preferences ' +
    '(so the member has more than 120 preferences once the PATCH rows have run; the GET rows ran first).',
  'Preferences deleted by a PATCH run were created just before it, untimed and untallied.',
];

// ---------------------------------------------------------------------------------------
// Helpers

/** A request body for the JSON output, long texts (the profile, preference contents) replaced by their length. */
const abridged = (body: Record<string, unknown>): Record<string, unknown> =>
  JSON.parse(
    JSON.stringify(body, (_key, value: unknown) =>
      typeof value === 'string' && value.length > 100 ? `<${value.length} characters>` : value,
    ),
  );

// ---------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = performance.now();
  // Setup writes and the measured calls use separate clients, so only the measured calls are tallied.
  await withBenchTable('member-settings', async ({ setupDb, benchDb }) => {
    const timeline = new Timeline();
    instrument(benchDb, timeline);
    const cipher = createProfileCipher(rawAesKeyring(randomBytes(32)));
    const models = parseModelCatalog({});
    const now = () => new Date();
    const setup: SettingsWriteDeps = { db: setupDb, cipher, models, now };
    const benchCipher = recordingCipher(cipher, timeline);

    const setupStarted = performance.now();
    const profile = markdownProfile(PROFILE_CHARACTERS);
    await writeMember(setup, profile);
    const bench: Bench = {
      read: { db: benchDb, cipher: benchCipher, models, now },
      write: { db: benchDb, cipher: benchCipher, models, now },
      setup,
      profile,
      updatable: await preferenceIds(setup, 3),
    };
    const setupSeconds = secondsSince(setupStarted);
    console.log(`Member written (profile ${profile.length} characters, ${PREFERENCES} preferences, ${TAGS} tags) in ${setupSeconds} s`);

    const results: Result[] = [];
    for (const variant of variants(bench)) results.push(await measure(variant, timeline));

    console.log(
      `\nMember settings (domain functions), ${WARM_UPS} warm-ups then ${RUNS} timed runs per row; first answer of each row checked\n`,
    );
    printTable(results);
    console.log('');
    NOTES.forEach((note) => console.log(`Note: ${note}`));

    const totalSeconds = secondsSince(started);
    const report = {
      ...reportHeader(WARM_UPS, RUNS),
      member: { profile_characters: profile.length, preferences: PREFERENCES, tags: TAGS },
      setup_seconds: setupSeconds,
      total_seconds: totalSeconds,
      notes: NOTES,
      results,
    };
    writeReport(RESULTS_FILE, report, totalSeconds);
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
