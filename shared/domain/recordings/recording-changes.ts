import { ConflictError, NotFoundError, ValidationError } from '../../http/errors';
import type { TableContext } from '../../storage/dynamo';
import { keys } from '../../storage/keys';
import { getMembership, type Membership } from '../../storage/memberships';
import { batchGetAll } from '../../storage/query-all';
import {
  deleteItems,
  getRecording,
  listPartKeys,
  partItems,
  recordingItem,
  recordUploadOutcome,
  sendQuery,
  tagLinkItems,
  type Recording,
  type RecordingParts,
} from '../../storage/recordings';
import { cancellationCodes, isConditionFailure, transact, type TransactItem } from '../../storage/transactions';

/** Removes a recording's uploaded object; S3 in AWS, the S3 emulator locally. */
export type DeleteObject = (key: string) => Promise<void>;

export interface RecordingDeps {
  db: TableContext;
  now: () => Date;
}

const ATTEMPTS = 10;

/**
 * Runs a read-plan-commit step until its transaction commits. Each step re-reads what it
 * depends on, so a lost race is simply planned again; the counts it moves are guarded by
 * conditions on the values it read.
 */
async function committed<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      const raced = isConditionFailure(error) || (cancellationCodes(error) ?? []).includes('TransactionConflict');
      if (!raced) throw error;
      if (attempt >= ATTEMPTS) throw new ConflictError('CONCURRENT_UPDATE', 'The recording kept changing under this request; retry it.');
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

/** The org's live and trash counters move together with each recording change. */
function orgCounts(db: TableContext, orgId: string, live: number, trash: number): TransactItem {
  return {
    Update: {
      TableName: db.tableName,
      Key: keys.organization(orgId),
      UpdateExpression: 'ADD recording_count :live, trash_count :trash',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':live': live, ':trash': trash },
    },
  };
}

/**
 * The recorder's membership counts its live recordings and the newest one's created_at.
 * The write is conditioned on the count it was computed from, so two changes racing on
 * one recorder cannot both apply to the same starting point.
 */
function recorderCounts(db: TableContext, membership: Membership, count: number, latest: string | null): TransactItem {
  return {
    Update: {
      TableName: db.tableName,
      Key: keys.membership(membership.org_id, membership.user_id),
      UpdateExpression: 'SET recording_count = :next, latest_recording_at = :latest',
      ConditionExpression: 'recording_count = :current',
      ExpressionAttributeValues: { ':next': count, ':latest': latest, ':current': membership.recording_count },
    },
  };
}

/** The created_at of the recorder's newest live recording other than `excludeId`. */
async function newestOtherLive(db: TableContext, orgId: string, userId: string, excludeId: string): Promise<string | null> {
  const { Items } = await sendQuery(db, {
    TableName: db.tableName,
    IndexName: 'GSI2',
    KeyConditionExpression: 'GSI2PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.recorderRecordingsIndex(orgId, userId, 'LIVE').GSI2PK },
    ScanIndexForward: false,
    Limit: 2,
    ProjectionExpression: 'id, created_at',
  });
  return (Items ?? []).find((item) => item.id !== excludeId)?.created_at ?? null;
}

const laterOf = (a: string | null, b: string) => (a && a > b ? a : b);
const put = (db: TableContext, Item: Record<string, unknown>, ConditionExpression?: string): TransactItem => ({ Put: { TableName: db.tableName, Item, ConditionExpression } });
const remove = (db: TableContext, Key: Record<string, string>, ConditionExpression?: string): TransactItem => ({ Delete: { TableName: db.tableName, Key, ConditionExpression } });

/** Every id must be a tag of the organization; one BatchGetItem checks them all. */
export async function assertOrgTags(db: TableContext, orgId: string, tagIds: string[], field: string): Promise<void> {
  if (!tagIds.length) return;
  const found = new Set((await batchGetAll(db, tagIds.map((id) => keys.tag(orgId, id)))).map((item) => item.tag_id));
  const unknown = tagIds.filter((id) => !found.has(id));
  if (unknown.length) throw ValidationError.field(field, 'invalid_value', `names tags this organization does not have: ${unknown.join(', ')}`);
}

async function recorderOf(db: TableContext, recording: Recording): Promise<Membership | undefined> {
  return getMembership(db, recording.org_id, recording.recorded_by);
}

/**
 * Creates a recording with its related items, its tag links and the counts it feeds
 * (the org's, and the recorder's for a live recording), in one transaction.
 */
export async function createRecording(deps: RecordingDeps, recording: Recording, parts: RecordingParts = {}): Promise<void> {
  const { db } = deps;
  const related = partItems(recording.org_id, recording.id, parts);
  if (related.length + recording.tags.length + 3 > 100) throw ValidationError.field('transcript', 'too_long', 'is too large to store with the recording at once');
  await committed(async () => {
    const membership = await recorderOf(db, recording);
    if (!membership) throw ValidationError.field('recorded_by', 'invalid_value', `names no member of this organization (${recording.recorded_by})`);
    const live = !recording.deleted_at;
    await transact(db, [
      put(db, recordingItem(recording), 'attribute_not_exists(PK)'),
      ...related.map((item) => put(db, item)),
      ...tagLinkItems(recording).map((item) => put(db, item)),
      orgCounts(db, recording.org_id, live ? 1 : 0, live ? 0 : 1),
      ...(live ? [recorderCounts(db, membership, membership.recording_count + 1, laterOf(membership.latest_recording_at, recording.created_at))] : []),
    ]);
  });
}

function notFound(recordingId: string): NotFoundError {
  return new NotFoundError('RECORDING_NOT_FOUND', `Recording ${recordingId} does not exist in this organization.`);
}

/** Reads a live recording, or 404 (unknown, other organization, or in the trash). */
export async function getLiveRecording(db: TableContext, orgId: string, recordingId: string): Promise<Recording> {
  const recording = await getRecording(db, orgId, recordingId);
  if (!recording || recording.deleted_at) throw notFound(recordingId);
  return recording;
}

/** Changes title, description and tags of a live recording; tag links follow in the same transaction. */
export async function updateRecording(
  deps: RecordingDeps,
  orgId: string,
  recordingId: string,
  changes: { title?: string; description?: string; tags?: string[] },
): Promise<Recording> {
  const { db } = deps;
  if (changes.tags) await assertOrgTags(db, orgId, changes.tags, 'tags');
  return committed(async () => {
    const current = await getLiveRecording(db, orgId, recordingId);
    const next: Recording = { ...current, ...changes, updated_at: deps.now().toISOString() };
    const dropped = current.tags.filter((tag) => !next.tags.includes(tag));
    await transact(db, [
      {
        Put: {
          TableName: db.tableName,
          Item: recordingItem(next),
          ConditionExpression: 'updated_at = :read AND attribute_not_exists(deleted_at)',
          ExpressionAttributeValues: { ':read': current.updated_at },
        },
      },
      ...tagLinkItems(next).map((item) => put(db, item)),
      ...dropped.map((tag) => remove(db, keys.recordingTagLink(orgId, tag, current.created_at, current.id) as { PK: string; SK: string })),
    ]);
    return next;
  });
}

/** Moves a live recording to the trash: hidden from lists and counts, data kept. */
export async function softDeleteRecording(deps: RecordingDeps, orgId: string, recordingId: string): Promise<void> {
  const { db } = deps;
  await committed(async () => {
    const current = await getLiveRecording(db, orgId, recordingId);
    const membership = await recorderOf(db, current);
    const now = deps.now().toISOString();
    const trashed: Recording = { ...current, deleted_at: now, updated_at: now };
    const latest = membership ? await newestOtherLive(db, orgId, current.recorded_by, current.id) : null;
    await transact(db, [
      put(db, recordingItem(trashed), 'attribute_exists(PK) AND attribute_not_exists(deleted_at)'),
      ...tagLinkItems(current).map((link) => remove(db, { PK: link.PK, SK: link.SK! })),
      orgCounts(db, orgId, -1, 1),
      ...(membership ? [recorderCounts(db, membership, membership.recording_count - 1, latest)] : []),
    ]);
  });
}

/** Brings a recording back from the trash, with its data, tag links and counts. */
export async function restoreRecording(deps: RecordingDeps, orgId: string, recordingId: string): Promise<Recording> {
  const { db } = deps;
  return committed(async () => {
    const current = await getRecording(db, orgId, recordingId);
    if (!current?.deleted_at) throw new NotFoundError('RECORDING_NOT_FOUND', `Recording ${recordingId} is not in this organization's trash.`);
    const membership = await recorderOf(db, current);
    const { deleted_at: _deletedAt, ...rest } = current;
    const restored: Recording = { ...rest, updated_at: deps.now().toISOString() };
    await transact(db, [
      put(db, recordingItem(restored), 'attribute_exists(deleted_at)'),
      ...tagLinkItems(restored).map((item) => put(db, item)),
      orgCounts(db, orgId, 1, -1),
      ...(membership ? [recorderCounts(db, membership, membership.recording_count + 1, laterOf(membership.latest_recording_at, restored.created_at))] : []),
    ]);
    return restored;
  });
}

/**
 * Removes a recording for good, live or trashed: its related items and uploaded object
 * first, then the recording, its tag links and its counts in one transaction. A failure
 * part way leaves the recording in place, so the delete can simply be repeated.
 */
export async function deleteRecordingPermanently(deps: RecordingDeps & { deleteObject: DeleteObject }, orgId: string, recordingId: string): Promise<void> {
  const { db } = deps;
  const recording = await getRecording(db, orgId, recordingId);
  if (!recording) throw notFound(recordingId);
  await deleteItems(db, await listPartKeys(db, orgId, recordingId));
  if (recording.upload) await deps.deleteObject(recording.upload.s3_key);
  await committed(async () => {
    const current = await getRecording(db, orgId, recordingId);
    if (!current) return; // a concurrent delete finished the job
    const live = !current.deleted_at;
    const membership = live ? await recorderOf(db, current) : undefined;
    const latest = membership ? await newestOtherLive(db, orgId, current.recorded_by, current.id) : null;
    await transact(db, [
      {
        Delete: {
          TableName: db.tableName,
          Key: keys.recording(orgId, recordingId),
          ConditionExpression: 'updated_at = :read',
          ExpressionAttributeValues: { ':read': current.updated_at },
        },
      },
      ...tagLinkItems(current).map((link) => remove(db, { PK: link.PK, SK: link.SK! })),
      orgCounts(db, orgId, live ? -1 : 0, live ? 0 : -1),
      ...(membership ? [recorderCounts(db, membership, membership.recording_count - 1, latest)] : []),
    ]);
  });
}

/** An object that landed under a recording's key, as its ObjectCreated event describes it. */
export interface LandedObject {
  s3Key: string;
  /** The event's `object.size`: what S3 stored, whatever the client declared. */
  sizeBytes: number;
}

export interface CompletionDeps extends RecordingDeps {
  /** The stored object's content type, or undefined when the object is gone (S3 events do not carry it). */
  storedContentType: (key: string) => Promise<string | undefined>;
}

/** Why a landed object is not the upload that was declared, or undefined when it is. */
export function uploadMismatch(declared: { size_bytes: number; content_type: string }, landed: { sizeBytes: number; contentType?: string }): string | undefined {
  const reasons: string[] = [];
  if (landed.sizeBytes !== declared.size_bytes) reasons.push(`size_mismatch: declared ${declared.size_bytes} bytes, received ${landed.sizeBytes}`);
  // A gone object cannot be asked its type; its size still came with the event.
  if (landed.contentType !== undefined && landed.contentType.trim().toLowerCase() !== declared.content_type.toLowerCase()) {
    reasons.push(`content_type_mismatch: declared ${declared.content_type}, received ${landed.contentType || '(none)'}`);
  }
  return reasons.length ? reasons.join('; ') : undefined;
}

/**
 * Completes a pending upload when its object lands: `uploaded` when the object has the
 * declared size and content type, else `failed` with the reason in `upload_error`. Either
 * way one conditional write, and no count moves (a recording counts whatever its state).
 * Unknown keys, recordings no longer pending (a failed upload is final) and repeated
 * events change nothing.
 */
export async function completeUpload(deps: CompletionDeps, orgId: string, recordingId: string, landed: LandedObject): Promise<'uploaded' | 'failed' | 'ignored'> {
  const { db } = deps;
  // Consistent: an upload can land within a second of the write that created its recording.
  const recording = await getRecording(db, orgId, recordingId, { consistent: true });
  const upload = recording?.upload;
  if (!recording || !upload || recording.state !== 'pending_upload' || upload.s3_key !== landed.s3Key) return 'ignored';
  const contentType = await deps.storedContentType(landed.s3Key);
  const error = uploadMismatch(upload, { sizeBytes: landed.sizeBytes, contentType });
  const recorded = await recordUploadOutcome(db, { ...recording, upload }, {
    state: error ? 'failed' : 'uploaded',
    uploadedBytes: landed.sizeBytes,
    uploadedContentType: contentType,
    uploadedAt: deps.now().toISOString(),
    error,
  });
  if (!recorded) return 'ignored';
  return error ? 'failed' : 'uploaded';
}
