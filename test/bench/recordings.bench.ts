/**
 * Benchmark of List recordings (shared/domain/recordings/list-recordings.ts `listRecordings`)
 * on DynamoDB Local, for an organization of 100 live recordings and one of 10,000.
 *
 *   npx tsx test/bench/recordings.bench.ts
 *
 * Each org has 10 recorders, 5 tags (each recording carries 0 to 2 of them), recordings
 * spread over 60 days, and a few soft-deleted recordings placed where every measured
 * filter would catch them (in the measured day and week, by the measured recorder, under
 * the measured tags): no list may show them. The small org is written through the domain
 * functions (createRecording, softDeleteRecording); the large one with BatchWrite of the
 * items recordingItem() and tagLinkItems() build, its org and recorder counters set to
 * match. Every answer is checked against the recordings computed in memory, and every
 * measured filter is walked to its end by cursor before anything is timed.
 *
 * For each case it reports the DynamoDB requests by command, the items DynamoDB read
 * (ScannedCount of a Query, COUNT queries included; the items a GetItem or BatchGetItem
 * found), the items returned, the total reported, the read capacity DynamoDB Local reports
 * and the median wall time; and it splits the cost between the page and the total by
 * running the total on its own (the maintained counter, or countMatching), the page
 * being the rest. Results go to stdout and to bench-results/recordings.json.
 *
 * DynamoDB Local runs on the same machine, so wall times show relative cost (requests
 * and items read), not production latency.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { createHash } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { addMember, createOrganization, createUser } from '../../shared/operator-tasks/directory';
import { dayBounds, pageOfRecordings, type ListRequest, type ListResult } from '../../shared/domain/recordings/list-recordings';
import { createRecording } from '../../shared/domain/recordings/recording-changes';
import { softDeleteRecording } from '../../shared/domain/recordings/delete-recording';
import { type RecordingFilter } from '../../shared/storage/recording-index';
import { countMatching } from '../../shared/storage/recording-pages';
import type { TableContext } from '../../shared/storage/dynamo';
import { keys } from '../../shared/storage/keys';
import { getMembership } from '../../shared/storage/memberships';
import { getOrganization } from '../../shared/storage/organizations';
import { countRecordingsInDays, rebuildRecordingDayCounts, wholeDays } from '../../shared/storage/recording-day-counts';
import { recordingObjectKey } from '../../shared/storage/recording-objects';
import { recordingItem, tagLinkItems, type Recording } from '../../shared/storage/recording-items';
import { putTag, type Tag } from '../../shared/storage/tags';
import {
  batchPut,
  chunks,
  getItem,
  itemShape,
  printTable,
  prng,
  reportHeader,
  round,
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
/** BatchWrite's maximum; several batches are kept in flight so 20,000 writes take seconds. */
const BATCH_SIZE = 25;
const WRITE_CONCURRENCY = 8;
const RECORDERS = 10;
const TAGS = 5;
const DAYS = 60;
/** The first UTC day of the recordings; they are spread over DAYS days from it. */
const FIRST_DAY = '2025-03-01';
const DAY_MS = 86_400_000;
/** The measured filters: a week and a day inside it, one recorder, the first two tags. */
const WEEK = { startDate: '2025-03-22', endDate: '2025-03-28' };
const DAY = '2025-03-25';
/** A one-year range over every recording, its ends inside months (the days at either end are counted by day). */
const YEAR = { startDate: '2024-05-10', endDate: '2025-05-09' };
const RECORDER_INDEX = 3;
const RESULTS_FILE = path.resolve(__dirname, '../../bench-results/recordings.json');

// ---------------------------------------------------------------------------------------
// Bench data

interface Recorder {
  userId: string;
  email: string;
  displayName: string;
}

interface OrgSpec {
  orgId: string;
  name: string;
  liveCount: number;
  recorders: Recorder[];
  tags: Tag[];
  /** Every recording, the soft-deleted ones (deleted_at set) included. */
  recordings: Recording[];
}

const hex = (text: string, length: number) => createHash('sha1').update(text).digest('hex').slice(0, length);

/** Times on the measured day's and week's bounds (inclusive) and 1 ms outside them. */
function boundaryTimes(): string[] {
  const at = (day: string, time: string) => `${day}T${time}Z`;
  const shift = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
  const [dayStart, dayEnd] = [at(DAY, '00:00:00.000'), at(DAY, '23:59:59.999')];
  const [weekStart, weekEnd] = [at(WEEK.startDate, '00:00:00.000'), at(WEEK.endDate, '23:59:59.999')];
  return [dayStart, dayEnd, shift(dayStart, -1), shift(dayEnd, 1), weekStart, weekEnd, shift(weekStart, -1), shift(weekEnd, 1)];
}

/**
 * The org's recorders, tags and recordings (the same for the same seed): `live` live ones at random times over DAYS
 * days, each by a random recorder with 0, 1 or 2 distinct random tags (the first few on
 * the measured day's and week's bounds), and `deleted` soft-deleted ones in the measured
 * day, by the measured recorder, under tags 0 and 1.
 */
function orgSpec(input: { orgId: string; name: string; live: number; deleted: number; seed: number }, now: Date): OrgSpec {
  const pick = prng(input.seed);
  const timestamp = now.toISOString();
  const short = input.orgId.replace(/^org_/, '');
  const recorders: Recorder[] = Array.from({ length: RECORDERS }, (_, index) => ({
    userId: `usr_${short}_rec${index}`,
    email: `recorder${index}.${short}@bench.example`,
    displayName: `Bench Recorder ${index}`,
  }));
  const tags: Tag[] = Array.from({ length: TAGS }, (_, index) => ({
    tag_id: `tag_${short}_${index}`,
    org_id: input.orgId,
    user_id: recorders[index % RECORDERS].userId,
    name: `Bench tag ${index}`,
    color: '#1f77b4',
    created_at: timestamp,
    updated_at: timestamp,
  }));
  const firstDay = Date.parse(`${FIRST_DAY}T00:00:00.000Z`);
  const recording = (index: number, createdAt: string, recorder: Recorder, tagIds: string[]): Recording => {
    const id = `rec_${hex(`${input.orgId}:${index}`, 20)}`;
    const filename = `meeting-${index}.m4a`;
    return {
      id,
      org_id: input.orgId,
      recorded_by: recorder.userId,
      title: `Bench meeting ${index}`,
      description: `Weekly sync ${index}: pipeline review, renewals and open questions.`,
      duration: 600 + pick(3_000),
      language: 'en',
      tags: tagIds,
      folder_id: null,
      state: 'ready',
      created_at: createdAt,
      updated_at: createdAt,
      recording_at: createdAt,
      upload: {
        s3_key: recordingObjectKey(input.orgId, id, filename),
        content_type: 'audio/mp4',
        filename,
        size_bytes: 1_000_000 + pick(9_000_000),
      },
      related: { transcript: false, summary: false, action_items: false, translation: false },
    };
  };
  const recordings: Recording[] = [];
  const edges = boundaryTimes();
  for (let index = 0; index < input.live; index++) {
    // Seconds then milliseconds: the PRNG draws at most 2^24.
    let createdAt = new Date(firstDay + pick(DAYS) * DAY_MS + pick(86_400) * 1000 + pick(1000)).toISOString();
    // The first few sit on (and 1 ms outside) the measured day's and week's bounds, by the
    // measured recorder; every 97th shares its created_at with the one before (the id orders them).
    if (index < edges.length) createdAt = edges[index];
    else if (index % 97 === 50) createdAt = recordings[index - 1].created_at;
    const tagIds: string[] = [];
    for (let count = pick(3); tagIds.length < count;) {
      const tagId = tags[pick(TAGS)].tag_id;
      if (!tagIds.includes(tagId)) tagIds.push(tagId);
    }
    const recorder = recorders[pick(RECORDERS)];
    recordings.push(recording(index, createdAt, index < edges.length ? recorders[RECORDER_INDEX] : recorder, tagIds));
  }
  const dayStart = Date.parse(`${DAY}T00:00:00.000Z`);
  for (let index = input.live; index < input.live + input.deleted; index++) {
    const createdAt = new Date(dayStart + pick(86_400) * 1000 + pick(1000)).toISOString();
    const trashed = recording(index, createdAt, recorders[RECORDER_INDEX], [tags[0].tag_id, tags[1].tag_id]);
    recordings.push({ ...trashed, deleted_at: timestamp, updated_at: timestamp });
  }
  return { orgId: input.orgId, name: input.name, liveCount: input.live, recorders, tags, recordings };
}

/** The org, its recorders (users and active memberships) and its tags, through the domain functions. */
async function writeDirectory(db: TableContext, spec: OrgSpec, now: Date): Promise<void> {
  await createOrganization(db, { id: spec.orgId, name: spec.name }, now);
  for (const recorder of spec.recorders) {
    await createUser(db, { id: recorder.userId, email: recorder.email, display_name: recorder.displayName }, now);
    await addMember(db, { orgId: spec.orgId, userId: recorder.userId, role: 'member' }, now);
  }
  for (const tag of spec.tags) await putTag(db, tag);
}

/**
 * The real write path, for the small org: one createRecording transaction per recording
 * (one at a time: each moves the org's counts), then softDeleteRecording for the trashed ones.
 */
async function writeThroughDomain(db: TableContext, spec: OrgSpec, now: Date): Promise<void> {
  await writeDirectory(db, spec, now);
  const deps = { db, now: () => now, trashRetentionDays: 30 };
  for (const recording of spec.recordings) {
    const { deleted_at: _deletedAt, ...live } = recording;
    await createRecording(deps, { ...live, updated_at: live.created_at });
  }
  for (const recording of spec.recordings.filter((r) => r.deleted_at)) await softDeleteRecording(deps, spec.orgId, recording.id);
}

/**
 * The fast write path, for the large org: the items recordingItem() and tagLinkItems()
 * build, put with BatchWrite, then the org's and each recorder's counters set to what
 * createRecording would have left. `checkItemShapes` compares them with the small org's.
 */
async function writeWithBatches(db: TableContext, spec: OrgSpec, now: Date): Promise<void> {
  await writeDirectory(db, spec, now);
  const items: Record<string, unknown>[] = spec.recordings.flatMap((recording) => [recordingItem(recording), ...tagLinkItems(recording)]);
  await inPool(chunks(items, BATCH_SIZE), WRITE_CONCURRENCY, (batch) => batchPut(db, batch));
  const counters = expectedCounters(spec);
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.organization(spec.orgId),
      UpdateExpression: 'SET recording_count = :live, trash_count = :trash',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':live': counters.live, ':trash': counters.trash },
    }),
  );
  for (const recorder of spec.recorders) {
    const { count, latest } = counters.recorders.get(recorder.userId)!;
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.membership(spec.orgId, recorder.userId),
        UpdateExpression: 'SET recording_count = :count, latest_recording_at = :latest',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':count': count, ':latest': latest },
      }),
    );
  }
  // The day and month counts createRecording would have moved, counted from the recordings index.
  await rebuildRecordingDayCounts(db, spec.orgId, now.toISOString());
}

/** The counts createRecording and softDeleteRecording maintain, from the recordings in memory. */
function expectedCounters(spec: OrgSpec) {
  const live = spec.recordings.filter((recording) => !recording.deleted_at);
  const recorders = new Map<string, { count: number; latest: string | null }>();
  for (const recorder of spec.recorders) {
    const own = live.filter((recording) => recording.recorded_by === recorder.userId).map((recording) => recording.created_at);
    recorders.set(recorder.userId, { count: own.length, latest: own.length ? own.reduce((a, b) => (a > b ? a : b)) : null });
  }
  return { live: live.length, trash: spec.recordings.length - live.length, recorders };
}

/**
 * Guards the batch path against drifting from the domain's: the org, a membership, a live
 * recording with tags, its tag link and a trashed recording written by BatchWrite must
 * have the attributes, and value types, of the same items the domain functions wrote.
 */
async function checkItemShapes(db: TableContext, viaDomain: OrgSpec, viaBatch: OrgSpec): Promise<void> {
  const keysOf = (spec: OrgSpec) => {
    const tagged = spec.recordings.find((recording) => !recording.deleted_at && recording.tags.length === 2)!;
    const trashed = spec.recordings.find((recording) => recording.deleted_at)!;
    return {
      organization: keys.organization(spec.orgId),
      membership: keys.membership(spec.orgId, spec.recorders[RECORDER_INDEX].userId),
      'live recording': keys.recording(spec.orgId, tagged.id),
      'tag link': keys.recordingTagLink(spec.orgId, tagged.tags[1], tagged.created_at, tagged.id) as Record<string, string>,
      'trashed recording': keys.recording(spec.orgId, trashed.id),
    };
  };
  const [domainKeys, batchKeys] = [keysOf(viaDomain), keysOf(viaBatch)];
  for (const what of Object.keys(domainKeys) as (keyof typeof domainKeys)[]) {
    const [expected, actual] = [itemShape(await getItem(db, domainKeys[what])), itemShape(await getItem(db, batchKeys[what]))];
    if (expected === '[]' || expected !== actual) throw new Error(`Bench ${what} item differs from the domain's:\n${actual}\n${expected}`);
  }
}

/** The org's and every recorder's maintained counts must be the ones the recordings give. */
async function checkCounters(db: TableContext, spec: OrgSpec): Promise<void> {
  const expected = expectedCounters(spec);
  const org = await getOrganization(db, spec.orgId);
  if (org?.recording_count !== expected.live || org.trash_count !== expected.trash) {
    throw new Error(`${spec.name}: org counts ${org?.recording_count}/${org?.trash_count}, expected ${expected.live}/${expected.trash}`);
  }
  for (const recorder of spec.recorders) {
    const membership = await getMembership(db, spec.orgId, recorder.userId);
    const { count, latest } = expected.recorders.get(recorder.userId)!;
    if (membership?.recording_count !== count || membership.latest_recording_at !== latest) {
      throw new Error(
        `${spec.name}: recorder ${recorder.userId} counts ${membership?.recording_count}/${membership?.latest_recording_at}, expected ${count}/${latest}`,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------
// The expected answers, computed in memory

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sortKeyOf = (recording: Recording) => `${recording.created_at}#${recording.id}`;

/** The recordings a filter must list, newest first (created_at, then id, as bytes). */
function expectedList(spec: OrgSpec, filter: RecordingFilter): Recording[] {
  return spec.recordings
    .filter((recording) => {
      if (Boolean(recording.deleted_at) !== (filter.bin === 'TRASH')) return false;
      if (filter.from && recording.created_at < filter.from) return false;
      if (filter.to && recording.created_at > filter.to) return false;
      if (filter.recordedBy && recording.recorded_by !== filter.recordedBy) return false;
      const tagIds = filter.tagIds ?? [];
      if (!tagIds.length) return true;
      return filter.tagMode === 'all'
        ? tagIds.every((tag) => recording.tags.includes(tag))
        : tagIds.some((tag) => recording.tags.includes(tag));
    })
    .sort((a, b) => compare(sortKeyOf(b), sortKeyOf(a)));
}

/** Throws unless a listRecordings answer is the expected page of `expected`. */
function checkAnswer(
  where: string,
  answer: ListResult,
  expected: Recording[],
  page: number,
  limit: number,
  bin: RecordingFilter['bin'] = 'LIVE',
): void {
  const ids = answer.recordings.map((recording) => recording.id);
  const expectedIds = expected.slice((page - 1) * limit, page * limit).map((recording) => recording.id);
  const expectedMore = expected.length > page * limit;
  const problems = [
    JSON.stringify(ids) !== JSON.stringify(expectedIds) &&
      `ids [${ids.length}] differ from the expected [${expectedIds.length}] (order: newest first)`,
    answer.total !== expected.length && `total ${answer.total}, expected ${expected.length}`,
    answer.page !== page && `page ${answer.page}, expected ${page}`,
    (answer.nextCursor !== null) !== expectedMore &&
      `next_cursor ${answer.nextCursor === null ? 'null' : 'set'}, expected ${expectedMore ? 'set' : 'null'}`,
    answer.recordings.some((recording) => Boolean(recording.deleted_at) !== (bin === 'TRASH')) &&
      (bin === 'TRASH' ? 'lists a live recording in the trash' : 'lists a soft-deleted recording'),
  ].filter(Boolean);
  if (problems.length) throw new Error(`${where}: ${problems.join('; ')}`);
}

/** Every page of a filter by cursor, from page 1 to a null next_cursor, must be the expected list. */
async function walkByCursor(db: TableContext, spec: OrgSpec, label: string, filter: RecordingFilter, limit: number): Promise<number> {
  const expected = expectedList(spec, filter);
  let cursor: string | undefined;
  let pages = 0;
  do {
    pages++;
    const answer = await pageOfRecordings(db, { filter, page: 1, limit, cursor });
    checkAnswer(`${spec.name} / ${label} / cursor walk page ${pages}`, answer, expected, pages, limit, filter.bin);
    cursor = answer.nextCursor ?? undefined;
  } while (cursor);
  if (pages !== Math.max(1, Math.ceil(expected.length / limit)))
    throw new Error(`${spec.name} / ${label}: cursor walk took ${pages} pages`);
  return pages;
}

// ---------------------------------------------------------------------------------------
// Measurement

/** What DynamoDB did for some calls. */
interface Tally {
  /** HTTP attempts by API name (Query, GetItem, BatchGetItem). */
  requests: Record<string, number>;
  request_count: number;
  items_read: number;
  /** null when DynamoDB Local reports no consumed capacity. */
  read_capacity_units: number | null;
}

const emptyTally = (): Tally => ({ requests: {}, request_count: 0, items_read: 0, read_capacity_units: null });

/**
 * Adds a middleware to the client that asks each request for its consumed capacity and
 * tallies, per command, the HTTP attempts, the items read (ScannedCount of a Query, COUNT
 * queries included; 1 per GetItem that found an item; the items a BatchGetItem returned)
 * and the capacity. Returns a function that hands over the tally so far and starts anew.
 */
function instrument(db: TableContext): () => Tally {
  return tallyRequests(db, 'recordingsBenchTally', emptyTally, (tally, { command, attempts, itemsRead, capacityUnits }) => {
    tally.requests[command] = (tally.requests[command] ?? 0) + attempts;
    tally.request_count += attempts;
    tally.items_read += itemsRead;
    if (capacityUnits !== undefined) tally.read_capacity_units = (tally.read_capacity_units ?? 0) + capacityUnits;
  });
}

/** `whole` less `part`, command by command (the page's share of a call: the call less its total). */
function minus(whole: Tally, part: Tally, where: string): Tally {
  const requests: Record<string, number> = {};
  for (const name of new Set([...Object.keys(whole.requests), ...Object.keys(part.requests)])) {
    const left = (whole.requests[name] ?? 0) - (part.requests[name] ?? 0);
    if (left < 0) throw new Error(`${where}: the total alone sent more ${name} requests than the whole call`);
    if (left > 0) requests[name] = left;
  }
  const capacity = whole.read_capacity_units === null ? null : round(whole.read_capacity_units - (part.read_capacity_units ?? 0));
  const result = {
    requests,
    request_count: whole.request_count - part.request_count,
    items_read: whole.items_read - part.items_read,
    read_capacity_units: capacity,
  };
  if (result.items_read < 0) throw new Error(`${where}: the total alone read more items than the whole call`);
  return result;
}

type TotalPath = 'org counter' | 'recorder counter' | 'day counts' | 'countMatching';

/**
 * The total on its own, by the path listRecordings takes for the filter (its `totalOf`):
 * the org's maintained count when nothing bounds the list, the recorder's membership count
 * for a recorder alone in the live list, the day and month counts for a date range of the
 * whole organization, else countMatching.
 */
async function totalAlone(db: TableContext, filter: RecordingFilter): Promise<{ value: number; path: TotalPath }> {
  const unbounded = !filter.from && !filter.to && !filter.tagIds?.length;
  if (unbounded && !filter.recordedBy) {
    const org = await getOrganization(db, filter.orgId);
    return { value: (filter.bin === 'LIVE' ? org?.recording_count : org?.trash_count) ?? 0, path: 'org counter' };
  }
  if (unbounded && filter.bin === 'LIVE') {
    return { value: (await getMembership(db, filter.orgId, filter.recordedBy!))?.recording_count ?? 0, path: 'recorder counter' };
  }
  const days = filter.tagIds?.length || filter.recordedBy ? undefined : wholeDays(filter.from, filter.to);
  if (days) {
    const [, value] = await Promise.all([getOrganization(db, filter.orgId), countRecordingsInDays(db, filter.orgId, filter.bin, days)]);
    return { value, path: 'day counts' };
  }
  return { value: await countMatching(db, filter), path: 'countMatching' };
}

interface Scenario {
  /** The same for both orgs, to compare them. */
  key: string;
  label: string;
  filter: RecordingFilter;
  page: number;
  limit: number;
  /** For a cursor case: the page whose next_cursor it follows (read untallied, before measuring). */
  cursorAfterPage?: number;
}

/** The List recordings calls measured per org. */
function scenarios(spec: OrgSpec): Scenario[] {
  const base: RecordingFilter = { orgId: spec.orgId, bin: 'LIVE', tagMode: 'any' };
  const week = { ...base, ...dayBounds(WEEK) };
  const day = { ...base, ...dayBounds({ date: DAY }) };
  const recordedBy = spec.recorders[RECORDER_INDEX].userId;
  const [tag0, tag1] = spec.tags.map((tag) => tag.tag_id);
  const lastPage = Math.ceil(spec.liveCount / 20);
  const middlePage = Math.ceil(lastPage / 2);
  /** The last page of a filter at limit 20 (page 1 when it matches nothing). */
  const lastPageOf = (filter: RecordingFilter) => Math.max(1, Math.ceil(expectedList(spec, filter).length / 20));
  const tagsAny: RecordingFilter = { ...base, tagIds: [tag0, tag1] };
  return [
    { key: 'page1-20', label: 'unfiltered, page 1, limit 20', filter: base, page: 1, limit: 20 },
    { key: 'page1-100', label: 'unfiltered, page 1, limit 100', filter: base, page: 1, limit: 100 },
    { key: 'middle', label: `unfiltered, middle page ${middlePage} by number, limit 20`, filter: base, page: middlePage, limit: 20 },
    { key: 'last', label: `unfiltered, last page ${lastPage} by number, limit 20`, filter: base, page: lastPage, limit: 20 },
    { key: 'cursor', label: 'unfiltered, page 2 by cursor, limit 20', filter: base, page: 2, limit: 20, cursorAfterPage: 1 },
    { key: 'week', label: `week ${WEEK.startDate}..${WEEK.endDate}, limit 20`, filter: week, page: 1, limit: 20 },
    { key: 'day', label: `day ${DAY}, limit 20`, filter: day, page: 1, limit: 20 },
    {
      key: 'year',
      label: `year ${YEAR.startDate}..${YEAR.endDate}, limit 20`,
      filter: { ...base, ...dayBounds(YEAR) },
      page: 1,
      limit: 20,
    },
    // The issue's example of a deep page number: in the middle of a 10,000-recording list.
    { key: 'page100-50', label: 'unfiltered, page 100 by number, limit 50', filter: base, page: 100, limit: 50 },
    { key: 'recorder', label: 'recorder, limit 20', filter: { ...base, recordedBy }, page: 1, limit: 20 },
    { key: 'recorder-week', label: 'recorder + week, limit 20', filter: { ...week, recordedBy }, page: 1, limit: 20 },
    { key: 'tag-any-1', label: 'tag any (1 tag), limit 20', filter: { ...base, tagIds: [tag0] }, page: 1, limit: 20 },
    { key: 'tag-any-2', label: 'tag any (2 tags), limit 20', filter: { ...base, tagIds: [tag0, tag1] }, page: 1, limit: 20 },
    {
      key: 'tag-any-2-cursor',
      label: 'tag any (2 tags), page 2 by cursor, limit 20',
      filter: { ...base, tagIds: [tag0, tag1] },
      page: 2,
      limit: 20,
      cursorAfterPage: 1,
    },
    {
      key: 'tag-all-2',
      label: 'tag all (2 tags), limit 20',
      filter: { ...base, tagIds: [tag0, tag1], tagMode: 'all' },
      page: 1,
      limit: 20,
    },
    // Deep pages of filtered lists: a counter total (the recorder) and a countMatching one (merged tag links).
    {
      key: 'recorder-last',
      label: `recorder, last page ${lastPageOf({ ...base, recordedBy })} by number, limit 20`,
      filter: { ...base, recordedBy },
      page: lastPageOf({ ...base, recordedBy }),
      limit: 20,
    },
    {
      key: 'tag-any-2-last',
      label: `tag any (2 tags), last page ${lastPageOf(tagsAny)} by number, limit 20`,
      filter: tagsAny,
      page: lastPageOf(tagsAny),
      limit: 20,
    },
  ];
}

interface Result {
  org: string;
  live_recordings: number;
  key: string;
  scenario: string;
  filter: Omit<RecordingFilter, 'orgId'>;
  page: number;
  limit: number;
  by_cursor: boolean;
  matching: number;
  items_returned: number;
  total_reported: number;
  /** The whole listRecordings call. */
  call: Tally;
  /** The call less its total. */
  page_cost: Tally;
  /** The total run on its own. */
  total_cost: Tally & { path: TotalPath };
  wall_ms: WallTimes;
  total_alone_wall_ms: WallTimes;
}

/** Wall times of RUNS calls after WARM_UPS. */
async function timed(call: () => Promise<unknown>): Promise<WallTimes> {
  return wallTimes(await timeCalls(call, WARM_UPS, RUNS));
}

/** Checks the answer once (its tally stands for every call: the reads are the same), then times RUNS calls after WARM_UPS. */
async function measure(db: TableContext, takeTally: () => Tally, spec: OrgSpec, scenario: Scenario): Promise<Result> {
  const { filter, limit } = scenario;
  const where = `${spec.name} / ${scenario.label}`;
  const expected = expectedList(spec, filter);
  let request: ListRequest = { filter, page: scenario.page, limit };
  if (scenario.cursorAfterPage) {
    const before = await pageOfRecordings(db, { filter, page: scenario.cursorAfterPage, limit });
    checkAnswer(`${where} (the page before)`, before, expected, scenario.cursorAfterPage, limit);
    if (!before.nextCursor) throw new Error(`${where}: page ${scenario.cursorAfterPage} has no next_cursor`);
    request = { filter, page: 1, limit, cursor: before.nextCursor };
  }
  takeTally();
  const answer = await pageOfRecordings(db, request);
  const call = takeTally();
  checkAnswer(where, answer, expected, scenario.page, limit);
  const total = await totalAlone(db, filter);
  const totalTally = takeTally();
  if (total.value !== answer.total) throw new Error(`${where}: the total alone is ${total.value}, the call reported ${answer.total}`);
  const wall = await timed(() => pageOfRecordings(db, request));
  const totalWall = await timed(() => totalAlone(db, filter));
  takeTally();
  const { orgId: _orgId, ...shownFilter } = filter;
  return {
    org: spec.name,
    live_recordings: spec.liveCount,
    key: scenario.key,
    scenario: scenario.label,
    filter: shownFilter,
    page: scenario.page,
    limit,
    by_cursor: Boolean(request.cursor),
    matching: expected.length,
    items_returned: answer.recordings.length,
    total_reported: answer.total,
    call,
    page_cost: minus(call, totalTally, where),
    total_cost: { ...totalTally, path: total.path },
    wall_ms: wall,
    total_alone_wall_ms: totalWall,
  };
}

// ---------------------------------------------------------------------------------------
// Output

const SHORT_NAMES: Record<string, string> = { Query: 'Q', GetItem: 'Get', BatchGetItem: 'BGet' };
const COMMAND_ORDER = ['Query', 'GetItem', 'BatchGetItem'];
const requestsText = (tally: Tally) =>
  Object.entries(tally.requests)
    .sort(([a], [b]) => (COMMAND_ORDER.indexOf(a) >>> 0) - (COMMAND_ORDER.indexOf(b) >>> 0))
    .map(([name, count]) => `${SHORT_NAMES[name] ?? name}×${count}`)
    .join(' ') || '-';
const units = (tally: Tally) => (tally.read_capacity_units === null ? 'n/a' : String(round(tally.read_capacity_units)));
const count = (n: number) => n.toLocaleString('en-US');

function printResults(results: Result[]): void {
  printTable(
    [
      'org',
      'case',
      'requests (call)',
      'items read',
      'returned',
      'total',
      'read CU',
      'median ms',
      'page: requests',
      'page read',
      'page CU',
      'total: path',
      'requests',
      'total read',
      'total CU',
      'total ms',
    ],
    results.map((r) => [
      `${count(r.live_recordings)} live`,
      r.scenario,
      requestsText(r.call),
      count(r.call.items_read),
      String(r.items_returned),
      count(r.total_reported),
      units(r.call),
      r.wall_ms.median.toFixed(1),
      requestsText(r.page_cost),
      count(r.page_cost.items_read),
      units(r.page_cost),
      r.total_cost.path,
      requestsText(r.total_cost),
      count(r.total_cost.items_read),
      units(r.total_cost),
      r.total_alone_wall_ms.median.toFixed(1),
    ]),
    2,
  );
}

/** A case's page cost in both orgs, side by side: what grows with the organization's size. */
function growthOf(results: Result[], small: OrgSpec, large: OrgSpec) {
  return scenarios(small).map(({ key }) => {
    const [s, l] = [small, large].map((spec) => results.find((r) => r.key === key && r.org === spec.name)!);
    return {
      key,
      scenario: l.scenario,
      page_items_read: { small: s.page_cost.items_read, large: l.page_cost.items_read },
      page_requests: { small: s.page_cost.request_count, large: l.page_cost.request_count },
      total_items_read: { small: s.total_cost.items_read, large: l.total_cost.items_read },
      matching: { small: s.matching, large: l.matching },
      /** Items read for the page per (limit + 1) entry it needs, in the large org. */
      large_page_read_per_entry: round(l.page_cost.items_read / (l.limit + 1)),
    };
  });
}

function printGrowth(growth: ReturnType<typeof growthOf>, small: OrgSpec, large: OrgSpec): void {
  const [s, l] = [small, large].map((spec) => count(spec.liveCount));
  printTable(
    [
      'case (limit 20 unless said)',
      `page read ${s}`,
      `page read ${l}`,
      `page req ${s}`,
      `page req ${l}`,
      `page read/(limit+1) ${l}`,
      `matching ${s}`,
      `matching ${l}`,
      `total read ${s}`,
      `total read ${l}`,
    ],
    growth.map((g) => [
      g.key,
      count(g.page_items_read.small),
      count(g.page_items_read.large),
      String(g.page_requests.small),
      String(g.page_requests.large),
      g.large_page_read_per_entry.toFixed(2),
      count(g.matching.small),
      count(g.matching.large),
      count(g.total_items_read.small),
      count(g.total_items_read.large),
    ]),
    1,
  );
}

// ---------------------------------------------------------------------------------------

/** What DynamoDB Local does differently from DynamoDB, as far as these figures go. */
const LOCAL_CAVEAT =
  'DynamoDB Local may answer a COUNT or filtered Query in fewer responses than DynamoDB, which stops every 1 MB read: ' +
  'in AWS a countMatching total sends about 1 Query per 128 read CU (per MB read). Items read and read CU are the same.';

/** Runs the benchmark, prints its tables and writes its report; returns its results. */
async function run(): Promise<Result[]> {
  const started = performance.now();
  // Setup writes and the measured reads use separate clients, so only the reads are tallied.
  return withBenchTable('recordings', async ({ setupDb, benchDb }) => {
    const now = new Date();
    const small = orgSpec({ orgId: 'org_bench_rec_small', name: 'Bench 100', live: 100, deleted: 3, seed: 100 }, now);
    const large = orgSpec({ orgId: 'org_bench_rec_large', name: 'Bench 10k', live: 10_000, deleted: 5, seed: 10_000 }, now);
    const setupStarted = performance.now();
    await writeThroughDomain(setupDb, small, now);
    console.log(
      `${small.name}: ${small.recordings.length} recordings written through createRecording/softDeleteRecording in ${secondsSince(setupStarted)} s`,
    );
    const batchStarted = performance.now();
    await writeWithBatches(setupDb, large, now);
    await checkItemShapes(setupDb, small, large);
    console.log(
      `${large.name}: ${large.recordings.length} recordings and their tag links written with BatchWrite in ${secondsSince(batchStarted)} s`,
    );

    // Before timing anything: the counters, page 1 and its total, every measured filter
    // walked to its end by cursor, and the trash.
    const checksStarted = performance.now();
    let walkedPages = 0;
    for (const spec of [small, large]) {
      await checkCounters(setupDb, spec);
      const live: RecordingFilter = { orgId: spec.orgId, bin: 'LIVE', tagMode: 'any' };
      checkAnswer(
        `${spec.name} / page 1`,
        await pageOfRecordings(setupDb, { filter: live, page: 1, limit: 20 }),
        expectedList(spec, live),
        1,
        20,
      );
      const seen = new Set<string>();
      for (const { label, filter } of scenarios(spec)) {
        const fingerprint = JSON.stringify(filter);
        if (seen.has(fingerprint)) continue;
        seen.add(fingerprint);
        walkedPages += await walkByCursor(setupDb, spec, label, filter, 100);
      }
      const trash: RecordingFilter = { ...live, bin: 'TRASH' };
      walkedPages += await walkByCursor(setupDb, spec, 'trash', trash, 100);
    }
    console.log(
      `Checked: counters, page 1, and ${walkedPages} pages walked by cursor over every measured filter and the trash, in ${secondsSince(checksStarted)} s`,
    );
    const setupSeconds = secondsSince(setupStarted);

    const takeTally = instrument(benchDb);
    const results: Result[] = [];
    for (const spec of [small, large]) {
      for (const scenario of scenarios(spec)) results.push(await measure(benchDb, takeTally, spec, scenario));
    }
    console.log(
      `\nlistRecordings, ${WARM_UPS} warm-ups then ${RUNS} timed runs per row; every answer checked. ` +
        'Page = the call less its total; total = the total run on its own (its path, requests, items read, CU, median ms).\n',
    );
    printResults(results);
    const growth = growthOf(results, small, large);
    console.log('\nPage cost by organization size:\n');
    printGrowth(growth, small, large);
    console.log(`\nNote: ${LOCAL_CAVEAT}`);

    const totalSeconds = secondsSince(started);
    const report = {
      ...reportHeader(WARM_UPS, RUNS),
      data: { days: DAYS, first_day: FIRST_DAY, recorders: RECORDERS, tags: TAGS, week: WEEK, day: DAY },
      setup_seconds: setupSeconds,
      total_seconds: totalSeconds,
      note: LOCAL_CAVEAT,
      results,
      growth,
    };
    writeReport(RESULTS_FILE, report, totalSeconds);
    return results;
  });
}

/** The date-range total and deep page rows of the benchmark table (the goals of docs/performance.md). */
export async function summary(): Promise<SummaryRow[]> {
  const results = await run();
  const at = (org: 'Bench 100' | 'Bench 10k', key: string) => {
    const found = results.find((r) => r.org === org && r.key === key);
    if (!found) throw new Error(`no result for ${key} in ${org}`);
    return found;
  };
  const year = at('Bench 10k', 'year');
  const [weekSmall, weekLarge] = [at('Bench 100', 'week'), at('Bench 10k', 'week')];
  const weekRatio = weekLarge.wall_ms.median / weekSmall.wall_ms.median;
  const last = at('Bench 10k', 'last');
  const page100 = at('Bench 10k', 'page100-50');
  return [
    {
      area: 'totals',
      measure: `List recordings one-year total at 10,000 (${year.matching.toLocaleString('en-US')} match): items read`,
      value: String(year.total_cost.items_read),
      goal: '≤ 400',
      met: year.total_cost.items_read <= 400,
    },
    {
      area: 'totals',
      measure: 'List recordings one-week range: median ms at 10,000 / at 100',
      value: `${weekLarge.wall_ms.median.toFixed(1)} / ${weekSmall.wall_ms.median.toFixed(1)} = ${weekRatio.toFixed(2)}×`,
      goal: '≤ 1.2×',
      met: weekRatio <= 1.2,
    },
    {
      area: 'totals',
      measure: 'List recordings one-week total at 10,000: items read',
      value: `${weekLarge.total_cost.items_read} (${weekLarge.matching.toLocaleString('en-US')} match)`,
    },
    { area: 'deep pages', measure: `List recordings ${last.scenario} at 10,000: items read`, value: String(last.call.items_read) },
    {
      area: 'deep pages',
      measure: 'List recordings page=100&limit=50 at 10,000: items read, median ms',
      value: `${page100.call.items_read.toLocaleString('en-US')}, ${page100.wall_ms.median.toFixed(1)} ms`,
    },
  ];
}

if (startedDirectly(__filename)) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
