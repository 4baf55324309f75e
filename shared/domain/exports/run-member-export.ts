import type { Delivery } from '../../events/event-consumer';
import type { DomainEvent } from '../../schemas/event-catalog';
import type { ExportObjects } from '../../storage/export-objects';
import { finishedExport, memberExportObjectKey, type MemberExport, type MemberExportCounts } from '../../storage/member-export-items';
import { getMemberExport, replaceMemberExport } from '../../storage/member-exports';
import { exportEntries, ExportedMemberGone, type ExportContentDeps } from './export-content';
import { writeZip } from './zip-writer';

export interface ExportRunDeps extends ExportContentDeps {
  objects: Pick<ExportObjects, 'openObject' | 'uploadStream' | 'deleteObject'>;
}

/** What a delivery of `user.export_requested` did, for the log (ids and states only). */
export type ExportRunOutcome =
  | { kind: 'completed'; sizeBytes: number; counts: MemberExportCounts }
  | { kind: 'failed'; error: string }
  | { kind: 'skipped'; why: 'gone' | 'finished' | 'claimed_elsewhere' };

/**
 * The export consumer (user.export_requested): claims the queued export for this event
 * (`running`, with the event's id), streams its ZIP into the bucket, then marks it
 * `completed` (its change is `user.export_completed`) or `failed`. Idempotent by event id: a
 * finished export is left alone; a redelivery of the same event after a crash writes the ZIP
 * again from the start (the same key: the earlier partial upload was aborted, or the bucket's
 * lifecycle aborts it). A failure is retried by the queue; the last delivery records it as
 * `failed` with `internal_error`. A member gone meanwhile fails it at once (`member_not_found`).
 */
export async function runMemberExport(deps: ExportRunDeps, event: DomainEvent, delivery: Delivery): Promise<ExportRunOutcome> {
  const exportId = String(event.data.export_id);
  const record = await getMemberExport(deps.db, event.org_id, event.resource.id, exportId);
  if (!record) return { kind: 'skipped', why: 'gone' };
  if (record.status === 'completed' || record.status === 'failed') return { kind: 'skipped', why: 'finished' };
  if (record.status === 'running' && record.run_event_id !== event.id) return { kind: 'skipped', why: 'claimed_elsewhere' };

  const startedAt = deps.now().toISOString();
  const running: MemberExport = {
    ...record,
    status: 'running',
    started_at: startedAt,
    updated_at: startedAt,
    run_event_id: event.id,
  };
  if (!(await replaceMemberExport(deps.db, record, running))) return { kind: 'skipped', why: 'claimed_elsewhere' };

  const counts: MemberExportCounts = { recordings: 0, media_files: 0, assigned_action_items: 0, audit_entries: 0, api_keys: 0 };
  const objectKey = memberExportObjectKey(record.org_id, record.user_id, record.id);
  try {
    const sizeBytes = await writeZip(exportEntries(deps, running, counts), (zip) =>
      deps.objects.uploadStream(objectKey, zip, 'application/zip'),
    );
    if (!(await finish(deps, running, { status: 'completed', sizeBytes, counts, objectKey }))) {
      // Erased while it ran (deleteMemberExports): its ZIP must not outlive its item.
      await deps.objects.deleteObject(objectKey);
      return { kind: 'skipped', why: 'gone' };
    }
    return { kind: 'completed', sizeBytes, counts };
  } catch (error) {
    const reason = error instanceof ExportedMemberGone ? 'member_not_found' : delivery.last ? 'internal_error' : undefined;
    if (!reason) throw error;
    return (await finish(deps, running, { status: 'failed', error: reason }))
      ? { kind: 'failed', error: reason }
      : { kind: 'skipped', why: 'gone' };
  }
}

/** Records the outcome; false when the export is gone (erased meanwhile). Only this run may finish it: a condition on the state it claimed. */
async function finish(deps: ExportRunDeps, running: MemberExport, outcome: Parameters<typeof finishedExport>[2]): Promise<boolean> {
  if (await replaceMemberExport(deps.db, running, finishedExport(running, deps.now(), outcome))) return true;
  if (!(await getMemberExport(deps.db, running.org_id, running.user_id, running.id))) return false;
  throw new Error(`Export ${running.id} changed while it ran`);
}
