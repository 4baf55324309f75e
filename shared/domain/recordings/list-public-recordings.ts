import type { Caller } from '../../auth/policy';
import { pagePagination } from '../../core/page-pagination';
import type { TableContext } from '../../storage/dynamo';
import { readPageRelations } from '../../storage/recording-relations';
import { dayBounds, pageOfRecordings } from './list-recordings';
import { publicItemView } from './recording-views';

export interface PublicListQuery {
  start_date?: string;
  end_date?: string;
  tag_ids?: string[];
  page: number;
  limit: number;
}

/**
 * What a page of the public list may weigh (bytes of its Lambda payload): Lambda answers at most 6 MB, and the
 * envelope, headers and base64 room stay outside this (test/unit/size-budgets.test.ts).
 */
export const PUBLIC_PAGE_BUDGET_BYTES = 5 * 1024 * 1024;

/**
 * A page's items within the budget by construction: built whole first; when the page is over
 * budget (a full page of recordings with many summaries of long names and errors), each
 * summary's free texts — its excerpt (written twice: `excerpt` and the deprecated `markdown`),
 * its template name and its error in `summarizations_errors` — are cut to an equal share of
 * what is left once everything else is counted. Everything else on an item has its own limit.
 */
export function fitToPageBudget<T>(count: number, build: (excerptBytes: number) => T[], budget = PUBLIC_PAGE_BUDGET_BYTES): T[] {
  const payload = (items: T[]) => Buffer.byteLength(JSON.stringify(JSON.stringify(items)));
  const whole = build(Infinity);
  if (payload(whole) <= budget || count === 0) return whole;
  const withoutExcerpts = payload(build(0));
  return build(Math.max(0, Math.floor((budget - withoutExcerpts) / (4 * count))));
}

/**
 * The public recordings list: an org key sees its organization's live recordings, a
 * personal key its user's own. Recorders, tags and processing results of the whole page
 * come in one batch read.
 */
export async function listPublicRecordings(db: TableContext, caller: Caller, query: PublicListQuery) {
  const { from, to } = dayBounds(
    { startDate: query.start_date, endDate: query.end_date },
    { date: 'date', start: 'start_date', end: 'end_date' },
  );
  const result = await pageOfRecordings(db, {
    filter: {
      orgId: caller.orgId,
      bin: 'LIVE',
      from,
      to,
      recordedBy: caller.kind === 'user_key' ? caller.userId : undefined,
      tagIds: query.tag_ids,
      tagMode: 'any',
    },
    page: query.page,
    limit: query.limit,
  });
  const related = await readPageRelations(db, caller.orgId, result.recordings);
  const summaryCount = result.recordings.reduce((count, recording) => count + (recording.summaries?.length ?? 1), 0);
  return {
    data: fitToPageBudget(summaryCount, (excerptBytes) =>
      result.recordings.map((recording) =>
        publicItemView(
          recording,
          related.recorders.get(recording.recorded_by),
          related.tags,
          related.parts.get(recording.id) ?? {},
          excerptBytes,
        ),
      ),
    ),
    pagination: pagePagination(query.page, query.limit, result.total),
  };
}
