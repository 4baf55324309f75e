import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { itemFields } from './item-fields';
import { keys } from './keys';
import { queryAll } from './query-all';
import { appliedUnlessConditionFails, commitParts, WriteConflict } from './transactions';
import { recordingPurgeDateWrite, trashTimerFromItem, trashTimerItem, type TrashTimer } from './trash-timers';

/*
 * Trash timers for recordings that entered the trash without one: loaded in the trash by a
 * fixture before seeds set them, or trashed before the event pipeline existed. Found by
 * `voice-org reindex` and `seed` (shared/operator-tasks/trash-timers.ts); every write is
 * conditioned on the recording still being in the trash since the same moment, and never
 * moves a timer of that trash period.
 */

/** A recording of an organization's trash: when it was trashed, and the purge date it shows (absent when none was set). */
export interface TrashedRecording {
  recording_id: string;
  deleted_at: string;
  purge_at?: string;
}

/**
 * An organization's trash (its index, eventually consistent, as the day counts' rebuild reads
 * it) and its trash timers: two Queries, each reading what it returns.
 */
export async function readTrashAndTimers(db: TableContext, orgId: string): Promise<{ trashed: TrashedRecording[]; timers: TrashTimer[] }> {
  const [trashed, timers] = await Promise.all([
    queryAll(db, {
      TableName: db.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.recordingsIndex(orgId, 'TRASH').GSI1PK },
      ProjectionExpression: 'id, deleted_at, purge_at',
    }),
    queryAll(db, {
      TableName: db.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.organization(orgId).PK, ':prefix': keys.trashTimer(orgId, '').SK },
      ConsistentRead: true,
    }),
  ]);
  return {
    trashed: trashed.map((item) => {
      const fields = itemFields(item, 'trash index entry');
      const purgeAt = fields.optionalString('purge_at');
      return {
        recording_id: fields.string('id'),
        deleted_at: fields.string('deleted_at'),
        ...(purgeAt === undefined ? {} : { purge_at: purgeAt }),
      };
    }),
    timers: timers.map(trashTimerFromItem),
  };
}

/** Attempts when only a concurrent transaction (no failed condition) cancelled the write. */
const CONFLICT_ATTEMPTS = 3;

/**
 * Sets the timer of a recording that has none for its trash period, with its purge date on
 * the recording, in one transaction: only while the recording is still in the trash since
 * `timer.deleted_at`, and only where no timer of that period is (one left from an earlier
 * period is replaced). False when either no longer holds (restored, trashed again, or a timer
 * set meanwhile): whatever changed it set or removed its own timer.
 */
export async function setMissingTrashTimer(db: TableContext, timer: TrashTimer): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      await commitParts<'recording' | 'trashTimer'>(db, [
        { name: 'recording', write: recordingPurgeDateWrite(db, timer) },
        {
          name: 'trashTimer',
          write: {
            Put: {
              TableName: db.tableName,
              Item: trashTimerItem(timer),
              ConditionExpression: 'attribute_not_exists(PK) OR deleted_at <> :deletedAt',
              ExpressionAttributeValues: { ':deletedAt': timer.deleted_at },
            },
          },
        },
      ]);
      return true;
    } catch (error) {
      if (!(error instanceof WriteConflict)) throw error;
      if (error.failed.length || attempt >= CONFLICT_ATTEMPTS) return false;
    }
  }
}

/**
 * Writes a timer's purge date on its recording (trashed before recordings carried it), while
 * the recording is still in the trash since the timer's `deleted_at`. False when it is not.
 */
export async function copyPurgeDateToRecording(db: TableContext, timer: TrashTimer): Promise<boolean> {
  const { Update } = recordingPurgeDateWrite(db, timer);
  if (!Update) throw new Error('A purge date write is an Update');
  return appliedUnlessConditionFails(db.client.send(new UpdateCommand(Update)));
}
