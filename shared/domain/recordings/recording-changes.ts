import type { DomainEvent } from '../../events/event-catalog';
import { ConflictError, NotFoundError, ValidationError } from '../../http/errors';
import type { TableContext } from '../../storage/dynamo';
import { getMembership, type Membership } from '../../storage/memberships';
import { withChangeContext } from '../../storage/change-stamp';
import {
  commitRecordingChange,
  newestOtherLiveRecordingAt,
  rearmTrashTimer,
  relatedItemCount,
  TRANSACTION_WRITE_LIMIT,
  type RecordingChange,
  type RecordingCondition,
} from '../../storage/recording-writes';
import { getRecording, recordUploadOutcome, type Recording, type RecordingParts } from '../../storage/recordings';
import { getTags } from '../../storage/tags';
import { WriteConflict } from '../../storage/transactions';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { readLiveRecording, recordingNotFound } from './read-recording';

export interface RecordingDeps {
  db: TableContext;
  now: () => Date;
}

/** What moving recordings to the trash needs besides: how long the trash keeps them (TRASH_RETENTION_DAYS). */
export interface TrashDeps extends RecordingDeps {
  trashRetentionDays: number;
}

/** When a recording trashed at `deletedAt` is due to be deleted for good. */
export function purgeAt(deletedAt: string, trashRetentionDays: number): string {
  return new Date(Date.parse(deletedAt) + trashRetentionDays * 86_400_000).toISOString();
}

/** Attempts before a change that keeps losing races gives up with 409. */
const ATTEMPTS = 10;

/**
 * Runs a read-plan-commit step until its transaction commits. Each step re-reads what it
 * depends on, so a lost race is simply planned again; the counts it moves are guarded by
 * conditions on the values it read.
 */
function committed<T>(step: () => Promise<T>): Promise<T> {
  return retryOnWriteConflict(step, {
    attempts: ATTEMPTS,
    exhausted: () => new ConflictError('CONCURRENT_UPDATE', 'The recording kept changing under this request; retry it.'),
  });
}

const isLive = (recording: Recording | undefined): recording is Recording => recording !== undefined && !recording.deleted_at;
const isTrashed = (recording: Recording | undefined): recording is Recording => recording !== undefined && Boolean(recording.deleted_at);

/** What a change needs to know of the recorder: its membership, and its newest other live recording when one leaves the live list. */
export interface RecorderState {
  membership: Membership;
  /** created_at of the recorder's newest live recording other than this one; read only when the recording leaves the live list. */
  newestOtherLiveAt?: string | null;
}

/**
 * Plans a recording change from the recording as read (`before`, undefined for a new one)
 * to the recording to store (`after`, undefined for a permanent delete): a live recording
 * has one tag link per tag, each carrying its tag set, and a recording in the trash none,
 * so links are rewritten for every tag it is live under and removed for the tags it no
 * longer is; the organization counts its live and trash recordings, and the recorder its
 * live ones with the newest one's created_at. Pure: reads happen before, the commit after.
 */
export function planRecordingChange(change: {
  before?: Recording;
  after?: Recording;
  relies: RecordingCondition;
  parts?: RecordingParts;
  recorder?: RecorderState;
  /**
   * When a recording entering the trash is due to be deleted for good: its trash timer is
   * set (and the recording shows it as purge_at). A fixture's recording created in the trash
   * gives its own (Recording.purge_at).
   */
  purgeAt?: string;
  /** The moment of a permanent delete (`after` undefined): its tombstone's deleted_at. */
  deletedAt?: string;
}): RecordingChange {
  const { before, after, recorder } = change;
  const written = isLive(after) ? after.tags : [];
  const removed = isLive(before) ? before.tags.filter((tag) => !written.includes(tag)) : [];
  const liveMove = Number(isLive(after)) - Number(isLive(before));
  const trashMove = Number(isTrashed(after)) - Number(isTrashed(before));
  const plan: RecordingChange = {
    before,
    after,
    relies: change.relies,
    parts: change.parts,
    tagLinks: { write: written, remove: removed },
    organizationCounts: { live: liveMove, trash: trashMove },
  };
  // A timer per trash period: set when the recording enters the trash, gone once it leaves.
  if (isTrashed(after) && !isTrashed(before) && change.purgeAt) plan.trashTimer = { set: { purgeAt: change.purgeAt } };
  if (isTrashed(before) && !isTrashed(after)) plan.trashTimer = 'remove';
  if (before && !after) {
    if (!change.deletedAt) throw new Error(`A permanent delete of ${before.id} needs its moment (deletedAt)`);
    plan.tombstone = { deletedAt: change.deletedAt };
  }
  if (recorder && liveMove !== 0) {
    const { membership } = recorder;
    if (isLive(after)) {
      // An arrival adds to the count as it stands: many uploads of one member commit side by side.
      const newest = membership.latest_recording_at === null || after.created_at > membership.latest_recording_at ? after.created_at : undefined;
      plan.recorderCounts = { kind: 'arrives', userId: membership.user_id, ...(newest === undefined ? {} : { newest }) };
    } else {
      const latest = recorder.newestOtherLiveAt ?? null;
      plan.recorderCounts = { kind: 'recount', userId: membership.user_id, read: membership.recording_count, next: membership.recording_count + liveMove, latestRecordingAt: latest };
    }
  }
  return plan;
}

/**
 * The recorder of a recording leaving the live list, with its newest other live
 * recording (the one its latest_recording_at falls back to); undefined when the recorder
 * is no longer a member (its counters are then left alone).
 */
async function recorderLeaving(db: TableContext, recording: Recording): Promise<RecorderState | undefined> {
  const membership = await getMembership(db, recording.org_id, recording.recorded_by);
  if (!membership) return undefined;
  return { membership, newestOtherLiveAt: await newestOtherLiveRecordingAt(db, recording.org_id, recording.recorded_by, recording.id) };
}

/** Every id must be a tag of the organization; one BatchGetItem checks them all. */
export async function assertOrgTags(db: TableContext, orgId: string, tagIds: string[], field: string): Promise<void> {
  if (!tagIds.length) return;
  const found = new Set((await getTags(db, orgId, tagIds)).map((tag) => tag.tag_id));
  const unknown = tagIds.filter((id) => !found.has(id));
  if (unknown.length) throw ValidationError.field(field, 'invalid_value', `names tags this organization does not have: ${unknown.join(', ')}`);
}

/**
 * Creates a recording with its related items, its tag links and the counts it feeds
 * (the org's, and the recorder's for a live recording), in one transaction.
 */
export async function createRecording(deps: RecordingDeps, recording: Recording, parts: RecordingParts = {}): Promise<void> {
  const { db } = deps;
  // The recording, its parts, its links, the two counters and the day and month counts share one transaction.
  if (relatedItemCount(recording.org_id, recording.id, parts) + recording.tags.length + 5 > TRANSACTION_WRITE_LIMIT) {
    throw ValidationError.field('transcript', 'too_long', 'is too large to store with the recording at once');
  }
  await committed(async () => {
    const membership = await getMembership(db, recording.org_id, recording.recorded_by);
    if (!membership) throw ValidationError.field('recorded_by', 'invalid_value', `names no member of this organization (${recording.recorded_by})`);
    await commitRecordingChange(db, planRecordingChange({ after: recording, relies: { kind: 'new' }, parts, recorder: { membership }, purgeAt: recording.purge_at }));
  });
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
    const { recording: current } = await readLiveRecording(db, orgId, recordingId);
    const next: Recording = { ...current, ...changes, updated_at: deps.now().toISOString() };
    await commitRecordingChange(db, planRecordingChange({ before: current, after: next, relies: { kind: 'stored', stillIn: 'LIVE', unchangedSince: current.updated_at } }));
    return next;
  });
}

/**
 * Moves a live recording to the trash: hidden from lists and counts, data kept. Its trash
 * timer, in the same transaction, runs out after the retention (TRASH_RETENTION_DAYS).
 * The whole recording is stored again from the read, so the write holds only while it is
 * unchanged since: an update or upload completion landing meanwhile is re-read, not undone.
 */
export async function softDeleteRecording(deps: TrashDeps, orgId: string, recordingId: string): Promise<void> {
  const { db } = deps;
  await committed(async () => {
    const { recording: current } = await readLiveRecording(db, orgId, recordingId);
    const now = deps.now().toISOString();
    const trashed: Recording = { ...current, deleted_at: now, updated_at: now };
    const recorder = await recorderLeaving(db, current);
    const purge = purgeAt(now, deps.trashRetentionDays);
    await commitRecordingChange(db, planRecordingChange({ before: current, after: trashed, relies: { kind: 'stored', stillIn: 'LIVE', unchangedSince: current.updated_at }, recorder, purgeAt: purge }));
  });
}

/**
 * Brings a recording back from the trash, with its data, tag links and counts; its trash
 * timer goes in the same transaction. Conditioned, like the trash, on the recording as read
 * (an upload completing meanwhile is re-read, not undone).
 */
export async function restoreRecording(deps: RecordingDeps, orgId: string, recordingId: string): Promise<Recording> {
  const { db } = deps;
  return committed(async () => {
    const current = await getRecording(db, orgId, recordingId);
    if (!current?.deleted_at) throw new NotFoundError('RECORDING_NOT_FOUND', `Recording ${recordingId} is not in this organization's trash.`);
    const membership = await getMembership(db, orgId, current.recorded_by);
    // Out of the trash: neither when it was trashed nor when it would have been purged.
    const { deleted_at: _deletedAt, purge_at: _purgeAt, ...rest } = current;
    const restored: Recording = { ...rest, updated_at: deps.now().toISOString() };
    const recorder = membership && { membership };
    await commitRecordingChange(db, planRecordingChange({ before: current, after: restored, relies: { kind: 'stored', stillIn: 'TRASH', unchangedSince: current.updated_at }, recorder }));
    return restored;
  });
}

/**
 * Deletes a stored recording for good in one transaction: the recording, its tag links, its
 * counts, its trash timer and a tombstone (the `recording.deleted` event, stamped with the
 * change context). Its related items and objects are left to the object cleanup consumer.
 */
async function commitPermanentDelete(deps: RecordingDeps, current: Recording, relies: RecordingCondition): Promise<void> {
  const { db } = deps;
  const recorder = isLive(current) ? await recorderLeaving(db, current) : undefined;
  await commitRecordingChange(db, planRecordingChange({ before: current, relies, recorder, deletedAt: deps.now().toISOString() }));
}

/**
 * Removes a recording for good, live or trashed: one transaction takes it, its tag links and
 * its counts, and writes its tombstone. No S3 call and no related item on the request path:
 * the tombstone's `recording.deleted` event has the object cleanup consumer remove them.
 */
export async function deleteRecordingPermanently(deps: RecordingDeps, orgId: string, recordingId: string): Promise<void> {
  let found = false;
  await committed(async () => {
    const current = await getRecording(deps.db, orgId, recordingId);
    if (!current) {
      if (found) return; // a concurrent delete finished the job
      throw recordingNotFound(recordingId);
    }
    found = true;
    await commitPermanentDelete(deps, current, { kind: 'stored', unchangedSince: current.updated_at });
  });
}

/** What the trash retention did with a recording whose timer ran out. */
export type RetentionOutcome =
  /** Deleted for good, as a permanent delete does. */
  | 'deleted'
  /** Gone, restored or otherwise out of the trash: nothing to do. */
  | 'not_in_trash'
  /** Still in the trash but not yet for the retention (it was raised since the timer was set): the timer is set again. */
  | 'not_due';

/**
 * Deletes a recording whose trash timer ran out, once it is sure it should: the recording
 * must still be in the trash (a restore racing the timer wins: the delete is conditioned on
 * the recording as read, still in the trash) and have been there for the retention by `now`.
 * The delete is the manual permanent delete's, in a change context naming no actor and the
 * reason 'retention', so `recording.deleted` says the service deleted it and why.
 */
export async function expireTrashedRecording(deps: TrashDeps, due: Pick<DomainEvent, 'type' | 'org_id' | 'resource' | 'correlation_id'>): Promise<RetentionOutcome> {
  if (due.type !== 'recording.retention_due' || due.resource.type !== 'recording') {
    throw new Error(`The trash retention handles recording.retention_due only, not ${due.type} of a ${due.resource.type}`);
  }
  const { db } = deps;
  return committed(async (): Promise<RetentionOutcome> => {
    const current = await getRecording(db, due.org_id, due.resource.id, { consistent: true });
    const deletedAt = current?.deleted_at;
    if (!current || !deletedAt) return 'not_in_trash';
    const purge = purgeAt(deletedAt, deps.trashRetentionDays);
    if (Date.parse(purge) > deps.now().getTime()) {
      try {
        await rearmTrashTimer(db, { org_id: current.org_id, recording_id: current.id, deleted_at: deletedAt, purge_at: purge });
      } catch (error) {
        // Restored or trashed again since it was read: that change set or removed its own timer.
        // (A mere concurrent transaction is a conflict too, which `committed` plans again.)
        if (error instanceof WriteConflict && error.failedAt('recording')) return 'not_in_trash';
        throw error;
      }
      return 'not_due';
    }
    await withChangeContext({ actor: null, correlationId: due.correlation_id, reason: 'retention' }, () =>
      commitPermanentDelete(deps, current, { kind: 'stored', stillIn: 'TRASH', unchangedSince: current.updated_at }),
    );
    return 'deleted';
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
