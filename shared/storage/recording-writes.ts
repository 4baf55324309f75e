import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { keys, type RecordingBin } from './keys';
import { recordingCountsChange } from './organizations';
import { recordingDayCountParts } from './recording-day-counts';
import { recordingItem, tagLinkItem, tagLinkKey, type Recording } from './recording-items';
import { partItems, type RecordingParts } from './recording-part-items';
import { tombstonePart } from './tombstones';
import { commitParts, type TransactionPart, type TransactItem } from './transactions';
import { recordingPurgeDateWrite, trashTimerItem, type TrashTimer } from './trash-timers';

/** What a recording change relies on about the stored recording; it commits only if this still holds. */
export type RecordingCondition =
  /** No recording with this id is stored yet. */
  | { kind: 'new' }
  /**
   * The recording is stored and, when given, is still in this bin (live, or in the trash)
   * and still unchanged since it was read with this `updated_at`.
   */
  | { kind: 'stored'; stillIn?: RecordingBin; unchangedSince?: string };

/**
 * Everything one recording change writes, planned by the domain and committed here as
 * one transaction.
 */
export interface RecordingChange {
  /** The recording as read; undefined when it is new. */
  before?: Recording;
  /** The recording to store; undefined when it is deleted for good. */
  after?: Recording;
  relies: RecordingCondition;
  /** Related items stored with a new recording. */
  parts?: RecordingParts;
  /**
   * Tag links: `write` the tags whose link is (re)written with the recording's current tag
   * set, `remove` those whose link goes.
   */
  tagLinks: { write: string[]; remove: string[] };
  /** How the organization's live and trash counters move (none when both are 0). */
  organizationCounts: { live: number; trash: number };
  /** How the recorder's live recording count and newest live recording move (RecorderCounts). */
  recorderCounts?: RecorderCounts;
  /**
   * The trash timer: `set` when the recording enters the trash (its retention runs out at
   * `purgeAt`), `remove` when it leaves it (restored or deleted for good).
   */
  trashTimer?: { set: { purgeAt: string } } | 'remove';
  /** A permanent delete's moment: the tombstone written with it is the `recording.deleted` event. */
  tombstone?: { deletedAt: string };
}

/**
 * How a recording change moves its recorder's membership counters.
 *
 * - `arrives`: one more live recording. The count is added to whatever it is now, so
 *   concurrent uploads of one member do not race on it; `newest` is the recording's
 *   created_at when it is later than the newest one read, and is then set only while no
 *   later one was set meanwhile (else the change is planned again, without it).
 * - `recount`: the count as read and the count it moves to, with the newest live
 *   recording that remains (a recording leaving the live list); committed only if the count
 *   is still the one read.
 */
export type RecorderCounts =
  | { kind: 'arrives'; userId: string; newest?: string }
  | { kind: 'recount'; userId: string; read: number; next: number; latestRecordingAt: string | null };

/** The parts of a recording transaction, by what their write or condition concerns. */
export type RecordingPart =
  'recording' | 'relatedItem' | 'tagLink' | 'organization' | 'dayCounts' | 'recorder' | 'trashTimer' | 'tombstone';

/** DynamoDB's bound on the writes of one transaction. */
export const TRANSACTION_WRITE_LIMIT = 100;

/** How many items a recording's parts are stored as (the transcript is split into chunks). */
export function relatedItemCount(orgId: string, recordingId: string, parts: RecordingParts): number {
  return partItems(orgId, recordingId, parts).length;
}

/**
 * The put of a processing stage's transition (transcription, summary, translation): the
 * recording as planned, only while it is still in `stillIn` and unchanged since `before` was
 * read (its `updated_at`), so a concurrent whole-item write conflicts instead of being undone.
 */
export function recordingPutAsRead(db: TableContext, before: Recording, after: Recording, stillIn: RecordingBin): TransactItem {
  return {
    Put: {
      TableName: db.tableName,
      Item: recordingItem(after),
      ...conditionOf({ kind: 'stored', stillIn, unchangedSince: before.updated_at }),
    },
  };
}

function conditionOf(relies: RecordingCondition): { ConditionExpression: string; ExpressionAttributeValues?: Record<string, unknown> } {
  if (relies.kind === 'new') return { ConditionExpression: 'attribute_not_exists(PK)' };
  const conditions = ['attribute_exists(PK)'];
  if (relies.stillIn === 'LIVE') conditions.push('attribute_not_exists(deleted_at)');
  if (relies.stillIn === 'TRASH') conditions.push('attribute_exists(deleted_at)');
  if (relies.unchangedSince === undefined) return { ConditionExpression: conditions.join(' AND ') };
  conditions.push('updated_at = :read');
  return { ConditionExpression: conditions.join(' AND '), ExpressionAttributeValues: { ':read': relies.unchangedSince } };
}

/**
 * Commits a recording change all-or-nothing: the recording (put or deleted, only while
 * `relies` holds), its related items, its tag links, the organization's counters (the
 * organization must exist) and its day counts, the recorder's (RecorderCounts), its trash timer and,
 * for a permanent delete, its tombstone. A failed condition or a concurrent transaction
 * becomes a WriteConflict naming the parts concerned.
 */
export async function commitRecordingChange(db: TableContext, change: RecordingChange): Promise<void> {
  const subject = change.after ?? change.before;
  if (!subject) throw new Error('A recording change needs the recording before or after it');
  const { org_id: orgId, id } = subject;
  const put = (Item: Record<string, unknown>): TransactItem => ({ Put: { TableName: db.tableName, Item } });
  const remove = (Key: Record<string, string>): TransactItem => ({ Delete: { TableName: db.tableName, Key } });
  const condition = conditionOf(change.relies);
  const timer = change.trashTimer;
  // The recording carries the purge date of the timer set with it (the trash list shows it).
  const stored = change.after && timer && timer !== 'remove' ? { ...change.after, purge_at: timer.set.purgeAt } : change.after;
  const parts: TransactionPart<RecordingPart>[] = [
    {
      name: 'recording',
      write: stored
        ? { Put: { TableName: db.tableName, Item: recordingItem(stored), ...condition } }
        : { Delete: { TableName: db.tableName, Key: keys.recording(orgId, id), ...condition } },
    },
    ...(change.after && change.parts
      ? partItems(orgId, id, change.parts).map((item) => ({ name: 'relatedItem' as const, write: put(item) }))
      : []),
    ...(change.after ? change.tagLinks.write.map((tagId) => ({ name: 'tagLink' as const, write: put(tagLinkItem(subject, tagId)) })) : []),
    ...change.tagLinks.remove.map((tagId) => ({ name: 'tagLink' as const, write: remove(tagLinkKey(subject, tagId)) })),
  ];
  const { live, trash } = change.organizationCounts;
  if (live || trash) {
    parts.push({ name: 'organization', write: recordingCountsChange(db, orgId, { live, trash }) });
    // The day and month of created_at (which never changes) move with the organization's counters.
    parts.push(
      ...recordingDayCountParts(db, orgId, subject.created_at, { live, trash }).map((write) => ({ name: 'dayCounts' as const, write })),
    );
  }
  if (change.recorderCounts) parts.push({ name: 'recorder', write: recorderCountsChange(db, orgId, change.recorderCounts) });
  if (timer === 'remove') parts.push({ name: 'trashTimer', write: remove(keys.trashTimer(orgId, id)) });
  else if (timer) {
    if (!change.after?.deleted_at) throw new Error(`A trash timer needs a recording in the trash (${id})`);
    parts.push({
      name: 'trashTimer',
      write: put(trashTimerItem({ org_id: orgId, recording_id: id, deleted_at: change.after.deleted_at, purge_at: timer.set.purgeAt })),
    });
  }
  if (change.tombstone) {
    if (change.after) throw new Error(`A tombstone goes with a permanent delete only (${id})`);
    parts.push(
      tombstonePart(db, {
        resource: 'recording',
        org_id: orgId,
        id,
        deleted_at: change.tombstone.deletedAt,
        recorded_by: subject.recorded_by,
      }),
    );
  }
  await commitParts(db, parts);
}

/**
 * Sets a trashed recording's timer again, with the purge date its recording shows, only while
 * the recording is still in the trash since `timer.deleted_at`: when the timer went before the
 * retention ran out (the retention was raised since it was set), the recording must still be
 * purged at its time. A WriteConflict when the recording left the trash or was trashed again
 * meanwhile.
 */
export async function rearmTrashTimer(db: TableContext, timer: TrashTimer): Promise<void> {
  await commitParts<'recording' | 'trashTimer'>(db, [
    { name: 'recording', write: recordingPurgeDateWrite(db, timer) },
    { name: 'trashTimer', write: { Put: { TableName: db.tableName, Item: trashTimerItem(timer) } } },
  ]);
}

/**
 * The recorder's membership counts its live recordings and the newest one's created_at
 * (RecorderCounts): an arrival adds one, a recount writes the count it computed only if
 * the count is still the one it read.
 */
function recorderCountsChange(db: TableContext, orgId: string, counts: RecorderCounts): TransactItem {
  const Key = keys.membership(orgId, counts.userId);
  if (counts.kind === 'recount') {
    return {
      Update: {
        TableName: db.tableName,
        Key,
        UpdateExpression: 'SET recording_count = :next, latest_recording_at = :latest',
        ConditionExpression: 'recording_count = :current',
        ExpressionAttributeValues: { ':next': counts.next, ':latest': counts.latestRecordingAt, ':current': counts.read },
      },
    };
  }
  if (counts.newest === undefined) {
    return {
      Update: {
        TableName: db.tableName,
        Key,
        UpdateExpression: 'ADD recording_count :one',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':one': 1 },
      },
    };
  }
  return {
    Update: {
      TableName: db.tableName,
      Key,
      UpdateExpression: 'ADD recording_count :one SET latest_recording_at = :newest',
      // Strings compare by bytes: ISO timestamps in UTC compare as moments.
      // Equal moments both hold: only a later recording committed first sends this change back to be planned again.
      // A member with no live recording holds NULL, which is matched by its type (not by `=`).
      ConditionExpression:
        'attribute_exists(PK) AND (attribute_not_exists(latest_recording_at) OR attribute_type(latest_recording_at, :nullType) OR latest_recording_at <= :newest)',
      ExpressionAttributeValues: { ':one': 1, ':newest': counts.newest, ':nullType': 'NULL' },
    },
  };
}

/**
 * The created_at of a recorder's newest live recording other than `excluding` (the one
 * leaving the live list), or null when it has none: two index entries answer it.
 */
export async function newestOtherLiveRecordingAt(
  db: TableContext,
  orgId: string,
  userId: string,
  excluding: string,
): Promise<string | null> {
  const { Items } = await db.client.send(
    new QueryCommand({
      TableName: db.tableName,
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.recorderRecordingsIndex(orgId, userId, 'LIVE').GSI2PK },
      ScanIndexForward: false,
      Limit: 2,
      ProjectionExpression: 'id, created_at',
    }),
  );
  const newest: unknown = (Items ?? []).find((item) => item.id !== excluding)?.created_at;
  return typeof newest === 'string' ? newest : null;
}
