import type { Caller } from '../../auth/policy';
import { pagePagination } from '../../http/responses';
import type { TableContext } from '../../storage/dynamo';
import { keys, withoutKeys } from '../../storage/keys';
import { membershipFromItem, type Membership } from '../../storage/memberships';
import { batchGetAll } from '../../storage/query-all';
import { partsFromItems, type Recording } from '../../storage/recordings';
import type { Tag } from '../../storage/tags';
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
  const related = await readRelated(db, caller.orgId, result.recordings);
  return {
    data: result.recordings.map((recording) => {
      const sk = keys.recording(recording.org_id, recording.id).SK;
      return publicItemView(recording, related.recorders.get(recording.recorded_by), related.tags, partsFromItems(related.parts, sk));
    }),
    pagination: pagePagination(query.page, query.limit, result.total),
  };
}

/** Recorders, tags and the summary, transcript header and translation of a page, in one batch. */
async function readRelated(db: TableContext, orgId: string, recordings: Recording[]) {
  const wanted = new Map<string, Record<string, string>>();
  const add = (key: { PK: string; SK: string }) => wanted.set(`${key.PK}|${key.SK}`, key);
  for (const recording of recordings) {
    add(keys.membership(orgId, recording.recorded_by));
    for (const tagId of recording.tags) add(keys.tag(orgId, tagId));
    if (recording.related?.summary) add(keys.recordingPart(orgId, recording.id, 'SUMMARY'));
    if (recording.related?.transcript) add(keys.recordingPart(orgId, recording.id, 'TRANSCRIPT'));
    if (recording.related?.translation) add(keys.recordingPart(orgId, recording.id, 'TRANSLATION'));
  }
  const items = await batchGetAll(db, [...wanted.values()]);
  const recorders = new Map<string, Membership>();
  const tags = new Map<string, Tag>();
  const parts: Record<string, unknown>[] = [];
  for (const item of items) {
    const sk = item.SK as string;
    if (sk.startsWith('MEMBER#')) {
      const membership = membershipFromItem(item);
      recorders.set(membership.user_id, membership);
    } else if (sk.startsWith('TAG#')) {
      const tag = withoutKeys(item) as unknown as Tag;
      tags.set(tag.tag_id, tag);
    } else parts.push(item);
  }
  return { recorders, tags, parts };
}
