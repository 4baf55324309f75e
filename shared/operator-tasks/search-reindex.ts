import { reindexRecording } from '../domain/search/index-recording';
import type { SearchIndex } from '../search/search-index';
import type { TableContext } from '../storage/dynamo';
import { recordingIdsOf } from '../storage/search-sources';

/* The operator's search reindex (CLI: search reindex --org O; docs/search.md). */

/**
 * Makes the index hold every recording of an organization as the table holds it: for data from
 * before search, or after the index was lost. Recordings are reindexed a few at a time; each is
 * the indexer's own step, so running it while the organization changes things is safe.
 */
export async function reindexOrganization(
  deps: { db: TableContext; index: SearchIndex; now: () => Date },
  orgId: string,
): Promise<{ org_id: string; recordings: number; indexed: number; removed: number; passages: number }> {
  const totals = { org_id: orgId, recordings: 0, indexed: 0, removed: 0, passages: 0 };
  for await (const ids of recordingIdsOf(deps.db, orgId)) {
    for (let start = 0; start < ids.length; start += 8) {
      const outcomes = await Promise.all(ids.slice(start, start + 8).map((id) => reindexRecording(deps, orgId, id)));
      for (const outcome of outcomes) {
        totals.recordings++;
        if (outcome.kind === 'indexed') {
          totals.indexed++;
          totals.passages += outcome.passages;
        } else totals.removed++;
      }
    }
  }
  return totals;
}
