import { keysetCursor } from '../../core/keyset-cursor';
import { ID_PATTERN } from '../../schemas/common';
import type { UsageQuery } from '../../schemas/transcription';
import type { TableContext } from '../../storage/dynamo';
import { listMemberUsage, readTranscriptionBudget } from '../../storage/transcription-usage';
import { monthOf } from './transcription-changes';

/** Where a page of a month's members starts: after this user id. */
export const memberUsageCursor = keysetCursor<{ userId: string }, { orgId: string; month: string }>({
  bindsTo: ({ orgId, month }) => ['transcription-usage', orgId, month],
  write: ({ userId }) => ({ u: userId }),
  read: ({ u }) => (typeof u === 'string' && ID_PATTERN.test(u) ? { userId: u } : undefined),
});

/**
 * Get usage: a UTC month's billed transcription minutes, the organization's, its allowance
 * (null: none) and a page of its members' (by user id, with a cursor). Three reads: the
 * organization and its month in one BatchGetItem, the members' page in one Query.
 */
export async function getUsage(deps: { db: TableContext; now: () => Date }, orgId: string, query: UsageQuery) {
  const month = query.month ?? monthOf(deps.now());
  const filter = { orgId, month };
  const after = query.cursor === undefined ? undefined : memberUsageCursor.decode(query.cursor, filter).userId;
  const [budget, page] = await Promise.all([
    readTranscriptionBudget(deps.db, orgId, month),
    listMemberUsage(deps.db, orgId, month, { limit: query.limit, afterUserId: after }),
  ]);
  const last = page.members.at(-1);
  return {
    month,
    transcription_minutes: budget.used,
    allowance: budget.allowance,
    members: page.members,
    pagination: { limit: query.limit, next_cursor: page.more && last ? memberUsageCursor.encode({ userId: last.user_id }, filter) : null },
  };
}
