import { ConflictError, ValidationError } from '../../core/errors';
import type { TableContext } from '../../storage/dynamo';
import type { Membership } from '../../storage/membership-items';
import { getMembership } from '../../storage/memberships';
import {
  commitRecordingChange,
  newestOtherLiveRecordingAt,
  relatedItemCount,
  TRANSACTION_WRITE_LIMIT,
  type RecordingChange,
  type RecordingCondition,
} from '../../storage/recording-writes';
import type { Recording } from '../../storage/recording-items';
import type { RecordingParts } from '../../storage/recording-part-items';
import { getTags } from '../../storage/tags';
import { retryOnWriteConflict } from '../../storage/write-retries';

export interface RecordingDeps {
  db: TableContext;
  now: () => Date;
}

/** Attempts before a change that keeps losing races gives up with 409. */
const ATTEMPTS = 10;

/**
 * Runs a read-plan-commit step until its transaction commits. Each step re-reads what it
 * depends on, so a lost race is simply planned again; the counts it moves are guarded by
 * conditions on the values it read.
 */
export function retryUntilCommitted<T>(step: () => Promise<T>): Promise<T> {
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
      const newest =
        membership.latest_recording_at === null || after.created_at > membership.latest_recording_at ? after.created_at : undefined;
      plan.recorderCounts = { kind: 'arrives', userId: membership.user_id, ...(newest === undefined ? {} : { newest }) };
    } else {
      const latest = recorder.newestOtherLiveAt ?? null;
      plan.recorderCounts = {
        kind: 'recount',
        userId: membership.user_id,
        read: membership.recording_count,
        next: membership.recording_count + liveMove,
        latestRecordingAt: latest,
      };
    }
  }
  return plan;
}

/**
 * The recorder of a recording leaving the live list, with its newest other live
 * recording (the one its latest_recording_at falls back to); undefined when the recorder
 * is no longer a member (its counters are then left alone).
 */
export async function recorderLeaving(db: TableContext, recording: Recording): Promise<RecorderState | undefined> {
  const membership = await getMembership(db, recording.org_id, recording.recorded_by);
  if (!membership) return undefined;
  return { membership, newestOtherLiveAt: await newestOtherLiveRecordingAt(db, recording.org_id, recording.recorded_by, recording.id) };
}

/** Every id must be a tag of the organization; one BatchGetItem checks them all. */
export async function assertOrgTags(db: TableContext, orgId: string, tagIds: string[], field: string): Promise<void> {
  if (!tagIds.length) return;
  const found = new Set((await getTags(db, orgId, tagIds)).map((tag) => tag.tag_id));
  const unknown = tagIds.filter((id) => !found.has(id));
  if (unknown.length)
    throw ValidationError.field(field, 'invalid_value', `names tags this organization does not have: ${unknown.join(', ')}`);
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
  await retryUntilCommitted(async () => {
    const membership = await getMembership(db, recording.org_id, recording.recorded_by);
    if (!membership)
      throw ValidationError.field('recorded_by', 'invalid_value', `names no member of this organization (${recording.recorded_by})`);
    await commitRecordingChange(
      db,
      planRecordingChange({ after: recording, relies: { kind: 'new' }, parts, recorder: { membership }, purgeAt: recording.purge_at }),
    );
  });
}

/**
 * Deletes a stored recording for good in one transaction: the recording, its tag links, its
 * counts, its trash timer and a tombstone (the `recording.deleted` event, stamped with the
 * change context). Its related items and objects are left to the object cleanup consumer.
 */
export async function commitPermanentDelete(deps: RecordingDeps, current: Recording, relies: RecordingCondition): Promise<void> {
  const { db } = deps;
  const recorder = isLive(current) ? await recorderLeaving(db, current) : undefined;
  await commitRecordingChange(db, planRecordingChange({ before: current, relies, recorder, deletedAt: deps.now().toISOString() }));
}
