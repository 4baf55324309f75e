import { getRecording, recordingDeletedRecently, recordUploadOutcome } from '../../storage/recordings';
import type { RecordingDeps } from './recording-changes';

/** An object that landed under a recording's key, as its ObjectCreated event describes it. */
export interface LandedObject {
  s3Key: string;
  /** The event's `object.size`: what S3 stored, whatever the client declared. */
  sizeBytes: number;
}

export interface CompletionDeps extends RecordingDeps {
  /** The stored object's content type, or undefined when the object is gone (S3 events do not carry it). */
  storedContentType: (key: string) => Promise<string | undefined>;
  /** Removes an object that landed for a recording that no longer exists. */
  deleteObject: (key: string) => Promise<void>;
}

/** Why a landed object is not the upload that was declared, or undefined when it is. */
export function uploadMismatch(
  declared: { size_bytes: number; content_type: string },
  landed: { sizeBytes: number; contentType?: string },
): string | undefined {
  const reasons: string[] = [];
  if (landed.sizeBytes !== declared.size_bytes)
    reasons.push(`size_mismatch: declared ${declared.size_bytes} bytes, received ${landed.sizeBytes}`);
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
 * Recordings no longer pending (a failed upload is final) and repeated events change nothing.
 * A file landing for a recording deleted for good (by a request, the trash's purge or its
 * recorder's erasure, with an upload URL issued before; its tombstone says so) is removed:
 * nothing outlives its recording. Unknown keys change nothing.
 */
export async function completeUpload(
  deps: CompletionDeps,
  orgId: string,
  recordingId: string,
  landed: LandedObject,
): Promise<'uploaded' | 'failed' | 'ignored' | 'removed'> {
  const { db } = deps;
  // Consistent: an upload can land within a second of the write that created its recording.
  const recording = await getRecording(db, orgId, recordingId, { consistent: true });
  if (!recording) {
    // Deleted for good (or its recorder erased) while an upload URL it was given was still valid.
    if (!(await recordingDeletedRecently(db, orgId, recordingId))) return 'ignored';
    await deps.deleteObject(landed.s3Key);
    return 'removed';
  }
  const upload = recording.upload;
  if (!upload || recording.state !== 'pending_upload' || upload.s3_key !== landed.s3Key) return 'ignored';
  const contentType = await deps.storedContentType(landed.s3Key);
  const error = uploadMismatch(upload, { sizeBytes: landed.sizeBytes, contentType });
  const recorded = await recordUploadOutcome(
    db,
    { ...recording, upload },
    {
      state: error ? 'failed' : 'uploaded',
      uploadedBytes: landed.sizeBytes,
      uploadedContentType: contentType,
      uploadedAt: deps.now().toISOString(),
      error,
    },
  );
  if (!recorded) return 'ignored';
  return error ? 'failed' : 'uploaded';
}
