import type { TableContext } from './dynamo';
import { itemFields } from './item-fields';
import { keys } from './keys';
import { TABLE } from './table-definition';
import type { TransactItem } from './transactions';

/**
 * The timer of a recording in the trash: written in the transaction that trashes it, removed
 * in the one that restores or deletes it. DynamoDB TTL removes it once `purge_at` has passed;
 * that REMOVE in the stream is the internal event `recording.retention_due`.
 */
export interface TrashTimer {
  org_id: string;
  recording_id: string;
  /** The recording's deleted_at when the timer was set: a later trash period has another. */
  deleted_at: string;
  /**
   * When the trash's retention runs out: deleted_at + TRASH_RETENTION_DAYS, or for a timer set
   * late (seed, reindex) no earlier than a grace period after it was set.
   */
  purge_at: string;
}

/**
 * The epoch second TTL may remove the timer at: rounded up, so the timer never goes before
 * `purge_at` (TTL removes an item at some moment after its epoch, never before).
 */
export function trashTimerEpoch(purgeAt: string): number {
  return Math.ceil(Date.parse(purgeAt) / 1000);
}

/** The timer item, with its TTL attribute. */
export function trashTimerItem(timer: TrashTimer) {
  return { ...keys.trashTimer(timer.org_id, timer.recording_id), ...timer, [TABLE.ttlAttribute]: trashTimerEpoch(timer.purge_at) };
}

/** Reads a timer item (from the table or from a stream image). */
export function trashTimerFromItem(item: Record<string, unknown>): TrashTimer {
  const field = itemFields(item, 'trash timer');
  return {
    org_id: field.string('org_id'),
    recording_id: field.string('recording_id'),
    deleted_at: field.string('deleted_at'),
    purge_at: field.string('purge_at'),
  };
}

/**
 * The timer's purge date written on its recording (Recording.purge_at), only while the
 * recording is still in the trash since `timer.deleted_at`; it goes in the transaction that
 * sets the timer. No other field moves (no event: the change is no recording change).
 */
export function recordingPurgeDateWrite(db: TableContext, timer: TrashTimer): TransactItem {
  return {
    Update: {
      TableName: db.tableName,
      Key: keys.recording(timer.org_id, timer.recording_id),
      UpdateExpression: 'SET purge_at = :purgeAt',
      ConditionExpression: 'deleted_at = :deletedAt',
      ExpressionAttributeValues: { ':purgeAt': timer.purge_at, ':deletedAt': timer.deleted_at },
    },
  };
}
