import { type RecordingDeps } from './recording-changes';

/** What moving recordings to the trash needs besides: how long the trash keeps them (TRASH_RETENTION_DAYS). */
export interface TrashDeps extends RecordingDeps {
  trashRetentionDays: number;
}

/** When a recording trashed at `deletedAt` is due to be deleted for good. */
export function purgeAt(deletedAt: string, trashRetentionDays: number): string {
  return new Date(Date.parse(deletedAt) + trashRetentionDays * 86_400_000).toISOString();
}
