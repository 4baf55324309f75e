import type { OpenSearchIndex } from '../search/opensearch-index';
import type { TableContext } from '../storage/dynamo';
import { organizationIdsOf } from '../storage/search-sources';
import { reindexOrganization } from './search-reindex';

/* The operator's search rebuild and reindex of every organization (CLI: search rebuild, search reindex; docs/search.md). */

export interface RebuildDeps {
  db: TableContext;
  index: OpenSearchIndex;
  now: () => Date;
  /** Waits before the first recording is reindexed (the CLI: a minute by default; tests: none). */
  pause: (ms: number) => Promise<void>;
  /** The organizations to index (default: every one in the table). */
  organizations?: () => AsyncIterable<string[]>;
}

/** Long enough for an indexer run that chose its indexes before the new one existed to finish (the function's timeout). */
export const REBUILD_PAUSE_MS = 60_000;

/** Makes the index hold every recording of every organization as the table holds them. */
export async function reindexEveryOrganization(deps: Omit<RebuildDeps, 'pause'>) {
  const totals = { organizations: 0, recordings: 0, indexed: 0, removed: 0, passages: 0 };
  for await (const orgIds of deps.organizations?.() ?? organizationIdsOf(deps.db))
    for (const orgId of orgIds) {
      const { recordings, indexed, removed, passages } = await reindexOrganization(deps, orgId);
      totals.organizations++;
      totals.recordings += recordings;
      totals.indexed += indexed;
      totals.removed += removed;
      totals.passages += passages;
    }
  return totals;
}

/**
 * Builds the index of the deployment's mapping beside the one the alias names, with no gap in
 * answers: searches keep reading the old index while the indexers write to both, every
 * recording is indexed into the new one from the table, then the alias moves in one step and
 * the old index is deleted. Nothing to do when the alias names the current mapping's index.
 */
export async function rebuildSearchIndex(deps: RebuildDeps) {
  await deps.index.ensureIndex();
  const from = (await deps.index.aliasTargets()).filter((name) => name !== deps.index.currentIndex);
  if (!from.length) return { rebuilt: false, index: deps.index.currentIndex };
  await deps.index.createIndex();
  await deps.pause(REBUILD_PAUSE_MS);
  const totals = await reindexEveryOrganization(deps);
  await deps.index.moveAlias(from);
  return { rebuilt: true, from, index: deps.index.currentIndex, ...totals };
}
