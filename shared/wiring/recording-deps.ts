import { config } from '../config';
import type { CleanupDeps } from '../domain/recordings/clean-up-recording';
import type { UploadDeps } from '../domain/recordings/create-upload-url';
import type { TrashDeps } from '../domain/recordings/recording-trash';
import type { CompletionDeps } from '../domain/recordings/complete-upload';
import type { MediaDeps } from '../domain/recordings/get-recording-media';
import { table } from '../storage/dynamo';
import { recordingObjects } from '../storage/recording-objects';

/**
 * The recordings area's composition root: what its functions (the recording routes, the
 * public API's uploads and media, the upload completion, the trash's retention and the object
 * cleanup) hand the domain, built from config on first use and kept for the warm function.
 * Each export is its own function, so only the functions that reach the bucket carry the S3 client.
 */

let recordings: TrashDeps | undefined;
let media: MediaDeps | undefined;
let uploads: UploadDeps | undefined;
let completion: CompletionDeps | undefined;
let cleanup: CleanupDeps | undefined;

/** The table, the clock and the trash's retention: reading, changing, trashing, restoring and expiring recordings. */
export function recordingDeps(): TrashDeps {
  return (recordings ??= { db: table(), now: () => new Date(), trashRetentionDays: config().events.trashRetentionDays });
}

/** Pre-signed GETs of recordings' files (both hosts). */
export function recordingMediaDeps(): MediaDeps {
  return (media ??= { db: table(), objects: recordingObjects(), now: () => new Date(), urlTtlSeconds: config().media.urlTtlSeconds });
}

/** New recordings and the pre-signed PUT of their file. */
export function uploadDeps(): UploadDeps {
  return (uploads ??= { db: table(), objects: recordingObjects(), now: () => new Date(), uploads: config().uploads });
}

/** The upload completion: the table, the clock, and the stored object's content type (S3 events do not carry it). */
export function uploadCompletionDeps(): CompletionDeps {
  return (completion ??= {
    db: table(),
    now: () => new Date(),
    storedContentType: (objectKey) => recordingObjects().storedContentType(objectKey),
    deleteObject: (objectKey) => recordingObjects().deleteObject(objectKey),
  });
}

/** The object cleanup of a permanently deleted recording: its items and its files. */
export function recordingCleanupDeps(): CleanupDeps {
  return (cleanup ??= { db: table(), objects: recordingObjects() });
}
