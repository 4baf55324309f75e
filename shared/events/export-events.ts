import type { MemberExport } from '../storage/member-export-items';
import type { ItemSide } from '../storage/stream-items';
import { writerOf, type Derived } from './derived-events';

/**
 * A member export's events (docs/events.md): `user.export_requested` when its item is
 * written (queued; the export consumer's cue), `user.export_completed` when it turns
 * completed. Ids, the option and the size only: never anything the ZIP holds. Its other
 * changes (running, failed, the TTL's removal) are no event: GET shows them.
 */
export function memberExportEvents(change: { before?: ItemSide<MemberExport>; after?: ItemSide<MemberExport> }): Derived[] {
  const { before, after } = change;
  if (!after) return [];
  const record = after.value;
  const resource = { type: 'user' as const, id: record.user_id };
  if (!before) {
    return [
      {
        type: 'user.export_requested',
        resource,
        data: { export_id: record.id, include_media: record.include_media },
        occurredAt: record.created_at,
        stamp: writerOf(before, after),
      },
    ];
  }
  if (before.value.status !== 'completed' && record.status === 'completed') {
    return [
      {
        type: 'user.export_completed',
        resource,
        data: { export_id: record.id, size_bytes: record.size_bytes ?? 0 },
        occurredAt: record.finished_at ?? record.updated_at,
        stamp: writerOf(before, after),
      },
    ];
  }
  return [];
}
