/**
 * Benchmark of page numbers: page 1, the middle page and the last page
 * of List users and List recordings in organizations of 10,000, and of List templates in one
 * of 2,000, on DynamoDB Local, through the domain functions the handlers call.
 *
 *   npm run bench -- pages     (or: npx tsx test/bench/pages.bench.ts)
 *
 * Each list's answer is checked against the list computed in memory. For each call it
 * reports the items DynamoDB read (ScannedCount of each Query, COUNT queries included; the
 * items a BatchGetItem returned; 1 per GetItem that found its item: what is billed, item by
 * item), the read capacity DynamoDB Local reports, the requests and round trips, and the
 * median (p50) wall time of 20 calls after 3 warm-ups. Results go to stdout and to
 * bench-results/pages.json.
 *
 * The organizations are written with BatchWrite of the items the repositories build, then
 * their counts and derived indexes set as the write path keeps them (createOrganization
 * makes each organization, so it carries what a new organization carries).
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createOrganization } from '../../shared/operator-tasks/directory';
import { listUsers } from '../../shared/domain/members/list-users';
import { pageOfRecordings } from '../../shared/domain/recordings/list-recordings';
import { listTemplates } from '../../shared/domain/templates/list-templates';
import type { TableContext } from '../../shared/storage/dynamo';
import { keys } from '../../shared/storage/keys';
import { rebuildMemberSearchIndex } from '../../shared/storage/member-search';
import { membershipItem, type Membership } from '../../shared/storage/membership-items';
import { rebuildRecordingDayCounts } from '../../shared/storage/recording-day-counts';
import { recordingItem, type Recording } from '../../shared/storage/recording-items';
import { templateItem, type TemplateRecord } from '../../shared/storage/template-items';
import {
  batchPut,
  chunks,
  printTable,
  prng,
  reportHeader,
  secondsSince,
  timeCalls,
  wallTimes,
  withBenchTable,
  writeReport,
  type WallTimes,
} from './support/bench-harness';
import { inPool } from '../support/in-pool';
import { tallyRequests } from '../support/observe-requests';
import { startedDirectly, type SummaryRow } from './support/bench-summary';

const WARM_UPS = 3;
const RUNS = 20;
const MEMBERS = 10_000;
const RECORDINGS = 10_000;
const TEMPLATES = 2_000;
/** Page sizes: the page=100&limit=50 is the middle of 10,000; templates at their largest page. */
const LIMITS = { users: 50, recordings: 50, templates: 100 } as const;
const RESULTS_FILE = path.resolve(__dirname, '../../bench-results/pages.json');
const NOW = new Date('2026-12-01T00:00:00.000Z');
const DAY_MS = 86_400_000;

type ListName = keyof typeof LIMITS;
const bytesOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** 10,000 active members (emails in random order), and removed and pending ones that no page may show. */
async function writeMembers(db: TableContext, orgId: string, pick: (n: number) => number): Promise<string[]> {
  await createOrganization(db, { id: orgId, name: 'Pages: members' }, NOW);
  const timestamp = NOW.toISOString();
  const membership = (index: number, status: Membership['status']): Membership => {
    const local = `${pick(36 ** 4).toString(36)}.${index}`;
    return {
      org_id: orgId,
      user_id: `usr_pages_${index}`,
      email: `${local}@pages.example`,
      display_name: `Member ${index}`,
      role: 'member',
      status,
      member_since: timestamp,
      created_at: timestamp,
      updated_at: timestamp,
      recording_count: 0,
      latest_recording_at: null,
    };
  };
  const memberships = Array.from({ length: MEMBERS + 20 }, (_, index) =>
    membership(index, index < MEMBERS ? 'active' : index % 2 ? 'removed' : 'pending'),
  );
  await inPool(chunks(memberships.map(membershipItem), 25), 8, (batch) => batchPut(db, batch));
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.organization(orgId),
      UpdateExpression: 'SET active_member_count = :n',
      ExpressionAttributeValues: { ':n': MEMBERS },
    }),
  );
  await rebuildMemberSearchIndex(db, orgId, timestamp);
  return memberships
    .filter((m) => m.status === 'active')
    .map((m) => `${m.email}#${m.user_id}`)
    .sort(bytesOrder)
    .map((key) => key.split('#')[0]);
}

/** 10,000 live recordings over 60 days (every 50th day-mate shares a created_at), 20 in the trash. */
async function writeRecordings(db: TableContext, orgId: string, pick: (n: number) => number): Promise<string[]> {
  await createOrganization(db, { id: orgId, name: 'Pages: recordings' }, NOW);
  const first = Date.parse('2026-09-01T00:00:00.000Z');
  const recordings: Recording[] = [];
  for (let index = 0; index < RECORDINGS + 20; index++) {
    const createdAt =
      index % 50 === 49
        ? recordings[index - 1].created_at
        : new Date(first + pick(60) * DAY_MS + pick(86_400) * 1000 + pick(1000)).toISOString();
    recordings.push({
      id: `rec_pages_${index.toString(36).padStart(4, '0')}`,
      org_id: orgId,
      recorded_by: 'usr_pages_recorder',
      title: `Meeting ${index}`,
      description: `Weekly sync ${index}: pipeline review, renewals and open questions.`,
      duration: 600 + pick(3000),
      language: 'en',
      tags: [],
      folder_id: null,
      state: 'ready',
      created_at: createdAt,
      updated_at: createdAt,
      recording_at: createdAt,
      related: { transcript: false, summary: false, action_items: false, translation: false },
      ...(index >= RECORDINGS ? { deleted_at: NOW.toISOString() } : {}),
    });
  }
  await inPool(chunks(recordings.map(recordingItem), 25), 8, (batch) => batchPut(db, batch));
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.organization(orgId),
      UpdateExpression: 'SET recording_count = :live, trash_count = :trash',
      ExpressionAttributeValues: { ':live': RECORDINGS, ':trash': 20 },
    }),
  );
  await rebuildRecordingDayCounts(db, orgId, NOW.toISOString());
  const sortKey = (r: Recording) => `${r.created_at}#${r.id}`;
  return recordings
    .filter((r) => !r.deleted_at)
    .sort((a, b) => bytesOrder(sortKey(b), sortKey(a)))
    .map((r) => r.id);
}

const WORDS = ['Sales', 'sales call', 'Standup', 'standup!', 'Retro', 'Interview', 'interview loop', 'Board', 'Onboarding', 'Support'];

/** 2,000 templates of about 2.5 KB (4 sections): names that begin others, differ only in case, or are equal. */
async function writeTemplates(db: TableContext, orgId: string, pick: (n: number) => number): Promise<string[]> {
  await createOrganization(db, { id: orgId, name: 'Pages: templates' }, NOW);
  const timestamp = NOW.toISOString();
  const prompt = (index: number, section: number) =>
    `Section ${section} of template ${index}: `.padEnd(500, 'list the decisions, the owners and the dates; ');
  const templates: TemplateRecord[] = Array.from({ length: TEMPLATES }, (_, index) => ({
    id: `tpl_pages_${pick(36 ** 5).toString(36)}_${index}`,
    org_id: orgId,
    name: index % 10 === 0 ? WORDS[pick(WORDS.length)] : `${WORDS[pick(WORDS.length)]} ${pick(300)}`,
    description: 'What this template is for, in a sentence or two: the meetings it suits and what its summary holds.',
    sections: Array.from({ length: 4 }, (_, section) => ({ title: `Part ${section + 1}`, prompt: prompt(index, section) })),
    created_at: timestamp,
    updated_at: timestamp,
  }));
  await inPool(chunks(templates.map(templateItem), 25), 8, (batch) => batchPut(db, batch));
  // The count that creating each template through the API would have moved.
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.organization(orgId),
      UpdateExpression: 'SET template_count = :count',
      ExpressionAttributeValues: { ':count': TEMPLATES },
    }),
  );
  const byName = (a: TemplateRecord, b: TemplateRecord) => {
    const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
    return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
  return templates.sort(byName).map((t) => t.id);
}

interface Tally {
  requests: number;
  roundTrips: number;
  waveEnd: number;
  itemsRead: number;
  readCapacityUnits: number;
}

interface Result {
  list: ListName;
  size: number;
  page: number;
  limit: number;
  which: 'page 1' | 'middle page' | 'last page';
  requests: number;
  round_trips: number;
  items_read: number;
  items_returned: number;
  read_capacity_units: number;
  wall_ms: WallTimes;
}

/** One call of a list's page, as the ids it lists and the total it reports. */
type PageCall = (db: TableContext, page: number, limit: number) => Promise<{ ids: string[]; total: number }>;

async function measure(db: TableContext, takeTally: () => Tally, list: ListName, call: PageCall, expected: string[]): Promise<Result[]> {
  const limit = LIMITS[list];
  const last = Math.ceil(expected.length / limit);
  const pages = [
    ['page 1', 1],
    ['middle page', Math.ceil(last / 2)],
    ['last page', last],
  ] as const;
  const results: Result[] = [];
  for (const [which, page] of pages) {
    takeTally();
    const answer = await call(db, page, limit);
    const tally = takeTally();
    const want = expected.slice((page - 1) * limit, page * limit);
    if (JSON.stringify(answer.ids) !== JSON.stringify(want) || answer.total !== expected.length) {
      throw new Error(
        `${list} ${which} (${page}): got ${answer.ids.length} (total ${answer.total}), expected ${want.length} (total ${expected.length}) in order`,
      );
    }
    const times = await timeCalls(() => call(db, page, limit), WARM_UPS - 1, RUNS);
    takeTally();
    results.push({
      list,
      size: expected.length,
      page,
      limit,
      which,
      requests: tally.requests,
      round_trips: tally.roundTrips,
      items_read: tally.itemsRead,
      items_returned: answer.ids.length,
      read_capacity_units: Math.round(tally.readCapacityUnits * 10) / 10,
      wall_ms: wallTimes(times),
    });
  }
  return results;
}

async function run(): Promise<Result[]> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const started = performance.now();
  return withBenchTable('pages', async ({ setupDb, benchDb }) => {
    const pick = prng(26);
    const ids = { users: 'org_pages_users', recordings: 'org_pages_recordings', templates: 'org_pages_templates' };
    const emails = await writeMembers(setupDb, ids.users, pick);
    const recordingIds = await writeRecordings(setupDb, ids.recordings, pick);
    const templateIds = await writeTemplates(setupDb, ids.templates, pick);
    const setupSeconds = secondsSince(started);
    console.log(`${MEMBERS} members, ${RECORDINGS} recordings and ${TEMPLATES} templates written in ${setupSeconds} s`);

    const takeTally = tallyRequests(
      benchDb,
      'pagesBenchTally',
      (): Tally => ({ requests: 0, roundTrips: 0, waveEnd: -1, itemsRead: 0, readCapacityUnits: 0 }),
      (tally, request) => {
        tally.requests += request.attempts;
        if (request.start >= tally.waveEnd) tally.roundTrips += 1;
        tally.waveEnd = Math.max(tally.waveEnd, request.end);
        tally.itemsRead += request.itemsRead;
        tally.readCapacityUnits += request.capacityUnits ?? 0;
      },
    );
    const users: PageCall = async (db, page, limit) => {
      const { members, pagination } = await listUsers(db, ids.users, { page, limit });
      return { ids: members.map((m) => m.email), total: pagination.total };
    };
    const recordings: PageCall = async (db, page, limit) => {
      const answer = await pageOfRecordings(db, { filter: { orgId: ids.recordings, bin: 'LIVE', tagMode: 'any' }, page, limit });
      return { ids: answer.recordings.map((r) => r.id), total: answer.total };
    };
    const templates: PageCall = async (db, page, limit) => {
      const answer = await listTemplates({ db, now: () => NOW }, ids.templates, { page, limit });
      return { ids: answer.templates.map((t) => t.id), total: answer.pagination.total };
    };
    const results = [
      ...(await measure(benchDb, takeTally, 'users', users, emails)),
      ...(await measure(benchDb, takeTally, 'recordings', recordings, recordingIds)),
      ...(await measure(benchDb, takeTally, 'templates', templates, templateIds)),
    ];
    console.log(`\nPage numbers, ${WARM_UPS} warm-ups then ${RUNS} timed runs per row; every answer checked\n`);
    printTable(
      ['list', 'page', 'requests', 'round trips', 'items read', 'returned', 'read CU', 'p50 ms', 'min ms', 'max ms'],
      results.map((r) => [
        `${r.list} (${r.size.toLocaleString('en-US')})`,
        `${r.which} (${r.page}, limit ${r.limit})`,
        String(r.requests),
        String(r.round_trips),
        r.items_read.toLocaleString('en-US'),
        String(r.items_returned),
        String(r.read_capacity_units),
        r.wall_ms.median.toFixed(1),
        r.wall_ms.min.toFixed(1),
        r.wall_ms.max.toFixed(1),
      ]),
      2,
    );
    const totalSeconds = secondsSince(started);
    writeReport(
      RESULTS_FILE,
      { ...reportHeader(WARM_UPS, RUNS), setup_seconds: setupSeconds, total_seconds: totalSeconds, results },
      totalSeconds,
    );
    return results;
  });
}

const TITLES: Record<ListName, string> = { users: 'List users', recordings: 'List recordings', templates: 'List templates' };

/** One row per list and page: items read, read units, round trips and the median latency. */
export async function summary(): Promise<SummaryRow[]> {
  const results = await run();
  return results.map((r) => ({
    area: 'pages',
    measure: `${TITLES[r.list]} at ${r.size.toLocaleString('en-US')}, ${r.which} (${r.page}, limit ${r.limit}): items read, read CU, round trips, p50`,
    value: `${r.items_read.toLocaleString('en-US')}, ${r.read_capacity_units} RCU, ${r.round_trips}, ${r.wall_ms.median.toFixed(1)} ms`,
  }));
}

if (startedDirectly(__filename)) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
