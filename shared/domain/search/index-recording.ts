import type { DomainEvent } from '../../schemas/event-catalog';
import { passagesOf } from '../../search/passages';
import type { SearchIndex } from '../../search/search-index';
import type { TableContext } from '../../storage/dynamo';
import { readSearchableRecording } from '../../storage/search-sources';

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

/** Makes the index hold the recording's passages as the table holds them now (none in the trash or once deleted). */
export async function reindexRecording(deps: IndexingDeps, orgId: string, recordingId: string): Promise<IndexingOutcome> {
  const source = await readSearchableRecording(deps.db, orgId, recordingId);
  if (!source || source.recording.deleted_at) {
    await deps.index.removeRecording(orgId, recordingId);
    return { kind: 'removed' };
  }
  const generation = deps.now().getTime();
  const passages = passagesOf(source, generation);
  await deps.index.replaceRecording(orgId, recordingId, passages, generation);
  return { kind: 'indexed', passages: passages.length };
}
