import type { DomainEvent } from '../../schemas/event-catalog';
import { passagesOf as passagesOfSource, type Passage } from '../../search/passages';
import type { SearchIndex } from '../../search/search-index';
import type { TableContext } from '../../storage/dynamo';
import { readSearchableRecording, type SearchableRecording } from '../../storage/search-sources';

export interface IndexingDeps {
  db: TableContext;
  index: SearchIndex;
  now: () => Date;
}

export type IndexingOutcome = { kind: 'indexed'; passages: number } | { kind: 'removed' };

/**
 * The indexer (recording.index_due, recording.deleted): makes the index hold the recording's
 * passages as the table holds them now, or none once it is in the trash or deleted. It reads
 * the current state, so a redelivered, late or out-of-order event indexes the same.
 */
export async function indexRecording(deps: IndexingDeps, event: DomainEvent): Promise<IndexingOutcome> {
  if (event.type === 'recording.deleted') {
    await deps.index.removeRecording(event.org_id, event.resource.id);
    return { kind: 'removed' };
  }
  return reindexRecording(deps, event.org_id, event.resource.id);
}

/** How many times one run indexes again when the recording changed while it indexed, before the queue retries it. */
const ROUNDS = 3;

/**
 * Makes the index hold the recording's passages as the table holds them now (none in the trash
 * or once deleted). The generation is taken before the table is read, so of two indexers the
 * one that read later wins in the index (opensearch-index.ts); and the table is read again
 * after writing: when the recording changed meanwhile, it indexes again, so an indexer that
 * read an older state and finished last never leaves it behind.
 */
export async function reindexRecording(deps: IndexingDeps, orgId: string, recordingId: string): Promise<IndexingOutcome> {
  let generation = 0;
  for (let round = 0; round < ROUNDS; round++) {
    generation = Math.max(deps.now().getTime(), generation + 1);
    const passages = passagesOf(await readSearchableRecording(deps.db, orgId, recordingId), generation);
    if (passages === undefined) await deps.index.removeRecording(orgId, recordingId);
    else await deps.index.replaceRecording(orgId, recordingId, passages, generation);
    const now = passagesOf(await readSearchableRecording(deps.db, orgId, recordingId), generation);
    if (JSON.stringify(now) === JSON.stringify(passages))
      return passages === undefined ? { kind: 'removed' } : { kind: 'indexed', passages: passages.length };
  }
  throw new Error(`Recording ${recordingId} changed while it was indexed ${ROUNDS} times: the queue retries it.`);
}

/** The passages to index, or undefined when the recording is not searchable (gone, or in the trash). */
function passagesOf(source: SearchableRecording | undefined, generation: number): Passage[] | undefined {
  return source && !source.recording.deleted_at ? passagesOfSource(source, generation) : undefined;
}
