import type { Actor } from '../../shared/schemas/event-catalog';
import { queuedMemberExport } from '../../shared/domain/exports/create-member-export';
import { memberExportItem } from '../../shared/storage/member-export-items';
import type { SampleSetup } from './sample-setup';

/**
 * The member export's part of the sample pipeline events (infra/sam/pipeline-events.ts): the
 * insert of the sample export (the member's, asked for by the owner), which gives
 * `user.export_requested`, the export consumer's cue.
 */
type Item = Record<string, unknown>;

export function exportStreamInsert(
  setup: SampleSetup,
  at: { changed: string },
  stampFor: (name: string, actor: Actor | null) => Item,
): { after: Item } {
  const { ids } = setup;
  const record = queuedMemberExport({
    id: ids.exportId,
    orgId: ids.orgId,
    userId: ids.memberId,
    includeMedia: false,
    requestedBy: ids.ownerId,
    at: new Date(at.changed),
  });
  return { after: { ...memberExportItem(record), ...stampFor('export-requested', { kind: 'user', id: ids.ownerId }) } };
}
