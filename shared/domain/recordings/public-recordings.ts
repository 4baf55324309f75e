import type { Caller } from '../../auth/policy';
import { pagePagination } from '../../core/page-pagination';
import { SUMMARY_LIMITS } from '../../core/summary-statuses';
import type { TableContext } from '../../storage/dynamo';
import { readPageRelations } from '../../storage/recording-relations';
import { dayBounds, listRecordings } from './list-recordings';
import { publicItemView } from './recording-views';

export interface PublicListQuery {
  start_date?: string;
  end_date?: string;
  tag_ids?: string[];
  page: number;
  limit: number;
}

/**
 * The bytes of UTF-8 a page gives its summaries' excerpts together (each written twice: `excerpt`
 * and the deprecated `markdown`), so that a page of 100 of the largest recordings with 20
 * summaries each stays under Lambda's 6 MB response by construction (test/unit/size-budgets.test.ts).
 */
export const PAGE_EXCERPT_BUDGET_BYTES = 2_000_000;

/** Each excerpt's share of the page's budget: 500 characters of up to 3 bytes fit unless the page holds many summaries. */
export function excerptBytesFor(summaryCount: number): number {
  return Math.min(SUMMARY_LIMITS.excerpt * 3, Math.floor(PAGE_EXCERPT_BUDGET_BYTES / 2 / Math.max(1, summaryCount)));
}

/**
 * The public recordings list: an org key sees its organization's live recordings, a
 * personal key its user's own. Recorders, tags and processing results of the whole page
 * come in one batch read.
 */
export async function listPublicRecordings(db: TableContext, caller: Caller, query: PublicListQuery) {
  const { from, to } = dayBounds({ startDate: query.start_date, endDate: query.end_date }, { date: 'date', start: 'start_date', end: 'end_date' });
  const result = await listRecordings(db, {
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
  const excerptBytes = excerptBytesFor(result.recordings.reduce((count, recording) => count + (recording.summaries?.length ?? 1), 0));
  return {
    data: result.recordings.map((recording) =>
      publicItemView(recording, related.recorders.get(recording.recorded_by), related.tags, related.parts.get(recording.id) ?? {}, excerptBytes),
    ),
    pagination: pagePagination(query.page, query.limit, result.total),
  };
}
