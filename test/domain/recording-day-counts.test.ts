import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { deleteRecordingPermanently, softDeleteRecording } from '../../shared/domain/recordings/delete-recording';
import { dayBounds, pageOfRecordings } from '../../shared/domain/recordings/list-recordings';
import { createRecording } from '../../shared/domain/recordings/recording-changes';
import { restoreRecording } from '../../shared/domain/recordings/restore-recording';
import { keys, type RecordingBin } from '../../shared/storage/keys';
import { getOrganization } from '../../shared/storage/organizations';
import { countItemRanges, rebuildRecordingDayCounts, type DayRange } from '../../shared/storage/recording-day-counts';
import type { RecordingFilter } from '../../shared/storage/recording-index';
import type { Recording } from '../../shared/storage/recording-items';
import { localDeployment, seed, unique } from '../support/api';
import { observeRequests, type ObservedRequest } from '../support/observe-requests';

/**
 * The total of a date range of List recordings comes from day and month counts
 * (shared/storage/recording-day-counts.ts), moved in every recording change's transaction.
 * The ranges of count items must cover each day of a range exactly once, and the totals
 * must be the number of recordings the list holds, after creations, trashing, restores and
 * permanent deletes, for any whole-day range (either end open) and either bin.
 */
const { db } = localDeployment();
const NOW = new Date('2036-04-01T00:00:00.000Z');
const deps = { db, now: () => NOW, trashRetentionDays: 30 };
const NO_RELATED = { transcript: false, summary: false, action_items: false, translation: false };

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Days around two month ends and a leap day: 2035-12-29 … 2036-03-03. */
const FIRST = Date.UTC(2035, 11, 29);
const DAYS = 66;

/** How many of a range's count items cover a day (a month item covers each of its days). */
function coverage(range: DayRange, day: string): number {
  const { months, days } = countItemRanges(range);
  const month = day.slice(0, 7);
  const byMonth = months && month >= months[0] && month <= months[1] ? 1 : 0;
  return byMonth + days.filter(([first, last]) => day >= first && day <= last).length;
}

const drawnRange = fc
  .record({
    from: fc.option(fc.integer({ min: 0, max: 800 }), { nil: undefined }),
    length: fc.option(fc.integer({ min: 0, max: 800 }), { nil: undefined }),
  })
  .map(({ from, length }) => ({
    fromDay: from === undefined ? undefined : isoDay(Date.UTC(2034, 0, 1) + from * DAY_MS),
    toDay: length === undefined ? undefined : isoDay(Date.UTC(2034, 0, 1) + ((from ?? 0) + length) * DAY_MS),
  }));

describe('count item ranges', () => {
  // Every day from 2033 to 2037: ranges of up to two years and more, with leap years.
  const universe = Array.from({ length: 5 * 366 }, (_, i) => isoDay(Date.UTC(2033, 0, 1) + i * DAY_MS));

  it('cover every day of a range once, through full months and the days at its ends', () => {
    fc.assert(
      fc.property(drawnRange, (range) => {
        const inRange = (day: string) => (!range.fromDay || day >= range.fromDay) && (!range.toDay || day <= range.toDay);
        const wrong = universe.filter((day) => coverage(range, day) !== (inRange(day) ? 1 : 0));
        expect({ range, wrong }).toEqual({ range, wrong: [] });
      }),
      { numRuns: 500 },
    );
  });

  it('read at most 12 months and 60 days for a one-year range', () => {
    const { months, days } = countItemRanges({ fromDay: '2035-03-17', toDay: '2036-03-16' });
    expect(months).toEqual(['2035-04', '2036-02']);
    expect(days).toEqual([
      ['2035-03-17', '2035-03-31'],
      ['2036-03-01', '2036-03-16'],
    ]);
    expect(countItemRanges({ fromDay: '2036-02-01', toDay: '2036-02-29' })).toEqual({ months: ['2036-02', '2036-02'], days: [] });
    expect(countItemRanges({ fromDay: '2036-02-02', toDay: '2036-03-30' })).toEqual({ days: [['2036-02-02', '2036-03-30']] });
  });
});

type Fate = 'live' | 'trash' | 'restored' | 'purged';
const drawnRecording = fc.record({
  day: fc.integer({ min: 0, max: DAYS - 1 }),
  fate: fc.constantFrom<Fate>('live', 'live', 'trash', 'restored', 'purged'),
});
const drawnDayRange = fc
  .record({
    from: fc.option(fc.integer({ min: -3, max: DAYS + 2 }), { nil: undefined }),
    to: fc.option(fc.integer({ min: -3, max: DAYS + 2 }), { nil: undefined }),
  })
  .filter(({ from, to }) => (from === undefined || to === undefined || from <= to) && (from !== undefined || to !== undefined))
  .map(({ from, to }) => ({
    startDate: from === undefined ? undefined : isoDay(FIRST + from * DAY_MS),
    endDate: to === undefined ? undefined : isoDay(FIRST + to * DAY_MS),
  }));

async function writeOrg(drawn: { day: number; fate: Fate }[]) {
  const id = unique();
  const orgId = `org_ddays_${id}`;
  const userId = `usr_ddays_${id}`;
  await seed(db, {
    orgs: [{ id: orgId, name: `Day counts ${id}` }],
    users: [{ id: userId, email: `days.${id}@example.com`, display_name: 'Recorder' }],
    memberships: [{ org_id: orgId, user_id: userId, role: 'member' as const }],
  });
  const recordings: (Recording & { fate: Fate })[] = drawn.map((d, i) => {
    // Spread over the day, its first and last millisecond included.
    const ms = FIRST + d.day * DAY_MS + [0, DAY_MS - 1, 12 * 3_600_000][i % 3];
    const at = new Date(ms).toISOString();
    return {
      id: `rec_ddays_${i}_${id}`,
      org_id: orgId,
      recorded_by: userId,
      title: `Recording ${i}`,
      description: '',
      duration: 60,
      language: 'en',
      tags: [],
      folder_id: null,
      state: 'ready',
      created_at: at,
      updated_at: at,
      recording_at: at,
      related: NO_RELATED,
      fate: d.fate,
    };
  });
  for (const { fate: _fate, ...recording } of recordings) await createRecording(deps, recording);
  for (const recording of recordings) {
    if (recording.fate === 'live') continue;
    await softDeleteRecording(deps, orgId, recording.id);
    if (recording.fate === 'restored') await restoreRecording(deps, orgId, recording.id);
    if (recording.fate === 'purged') await deleteRecordingPermanently(deps, orgId, recording.id);
  }
  return { orgId, recordings };
}

function expectedTotal(recordings: (Recording & { fate: Fate })[], bin: RecordingBin, from?: string, to?: string): number {
  const inBin = (fate: Fate) => (bin === 'LIVE' ? fate === 'live' || fate === 'restored' : fate === 'trash');
  return recordings.filter((r) => inBin(r.fate) && (!from || r.created_at >= from) && (!to || r.created_at <= to)).length;
}

const totalOf = async (filter: RecordingFilter) => (await pageOfRecordings(db, { filter, page: 1, limit: 1 })).total;

describe('date range totals', () => {
  it('equal the recordings of the range in either bin, after creations, trashing, restores and permanent deletes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(drawnRecording, { minLength: 1, maxLength: 14 }),
        fc.array(drawnDayRange, { minLength: 1, maxLength: 6 }),
        async (drawn, ranges) => {
          const { orgId, recordings } = await writeOrg(drawn);
          for (const range of ranges) {
            const { from, to } = dayBounds(range);
            for (const bin of ['LIVE', 'TRASH'] as const) {
              expect({ range, bin, total: await totalOf({ orgId, bin, from, to, tagMode: 'any' }) }).toEqual({
                range,
                bin,
                total: expectedTotal(recordings, bin, from, to),
              });
            }
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 180_000);

  it('read the day and month counts beside the organization, not the recordings', async () => {
    const { orgId, recordings } = await writeOrg(Array.from({ length: 12 }, (_, i) => ({ day: i * 5, fate: 'live' as const })));
    const observed: ObservedRequest[] = [];
    observeRequests(db, 'day-counts-test', (request) => observed.push(request));
    const { from, to } = dayBounds({ startDate: '2035-12-30', endDate: '2036-03-02' });
    try {
      expect(await totalOf({ orgId, bin: 'LIVE', from, to, tagMode: 'any' })).toBe(expectedTotal(recordings, 'LIVE', from, to));
    } finally {
      db.client.middlewareStack.remove('day-counts-test');
    }
    // The total ran beside the page: its requests are the organization, and the counts (two months, two end ranges).
    const countQueries = observed.filter(
      (r) =>
        r.command === 'Query' &&
        (r.input.ExpressionAttributeValues as Record<string, string>)[':pk'] === keys.recordingDayCount(orgId, '').PK,
    );
    expect(countQueries).toHaveLength(3);
    expect(countQueries.reduce((sum, r) => sum + r.itemsRead, 0)).toBeLessThanOrEqual(2 + 3 + 2);
    expect(observed.filter((r) => r.command === 'Query' && r.input.Select === 'COUNT')).toHaveLength(0);
  });

  it('are counted over the recordings for an organization created before the counts, until a rebuild completes them', async () => {
    const { orgId, recordings } = await writeOrg(
      Array.from({ length: 9 }, (_, i) => ({ day: i * 7, fate: (['live', 'trash', 'restored'] as const)[i % 3] })),
    );
    // As stored before the counts existed: none, and no mark on the organization; plus a stray count the rebuild must remove.
    await db.client.send(
      new UpdateCommand({ TableName: db.tableName, Key: keys.organization(orgId), UpdateExpression: 'REMOVE recording_days_index_at' }),
    );
    const { Items = [] } = await db.client.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.recordingDayCount(orgId, '').PK },
      }),
    );
    for (const item of Items) await db.client.send(new DeleteCommand({ TableName: db.tableName, Key: { PK: item.PK, SK: item.SK } }));
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.recordingDayCount(orgId, '2036-01-15'),
        UpdateExpression: 'SET live = :n',
        ExpressionAttributeValues: { ':n': 40 },
      }),
    );
    const { from, to } = dayBounds({ startDate: '2036-01-01', endDate: '2036-02-29' });
    expect(await totalOf({ orgId, bin: 'LIVE', from, to, tagMode: 'any' })).toBe(expectedTotal(recordings, 'LIVE', from, to));

    const rebuilt = await rebuildRecordingDayCounts(db, orgId, NOW.toISOString());
    expect(rebuilt.recordings).toBe(9);
    expect((await getOrganization(db, orgId))?.recording_days_index_at).toBe(NOW.toISOString());
    for (const bin of ['LIVE', 'TRASH'] as const) {
      expect(await totalOf({ orgId, bin, from, to, tagMode: 'any' })).toBe(expectedTotal(recordings, bin, from, to));
      expect(await totalOf({ orgId, bin, to, tagMode: 'any' })).toBe(expectedTotal(recordings, bin, undefined, to));
    }
  });
});
