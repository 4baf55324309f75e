import type { Caller } from '../../auth/policy';
import { pagePagination } from '../../core/page-pagination';
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
  return {
    data: result.recordings.map((recording) =>
      publicItemView(recording, related.recorders.get(recording.recorded_by), related.tags, related.parts.get(recording.id) ?? {}),
    ),
    pagination: pagePagination(query.page, query.limit, result.total),
  };
}
