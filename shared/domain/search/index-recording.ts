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
  const { org_id: orgId, resource } = event;
  const source = event.type === 'recording.deleted' ? undefined : await readSearchableRecording(deps.db, orgId, resource.id);
  if (!source || source.recording.deleted_at) {
    await deps.index.removeRecording(orgId, resource.id);
    return { kind: 'removed' };
  }
  const generation = deps.now().getTime();
  const passages = passagesOf(source, generation);
  await deps.index.replaceRecording(orgId, resource.id, passages, generation);
  return { kind: 'indexed', passages: passages.length };
}
