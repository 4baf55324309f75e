import type { Caller } from '../../auth/policy';
import { ConflictError } from '../../core/errors';
import type { TableContext } from '../../storage/dynamo';
import type { RecordingObjects } from '../../storage/recording-objects';
import { getRecording } from '../../storage/recordings';
import { recordingNotFound } from './get-recording';

export interface MediaDeps {
  db: TableContext;
  objects: Pick<RecordingObjects, 'presignDownload'>;
  now: () => Date;
  /** How long the URL works (config MEDIA_URL_TTL_SECONDS, at most 900). */
  urlTtlSeconds: number;
}

/** How a browser should treat the file: play it in the page, or save it. */
export type MediaDisposition = 'inline' | 'attachment';

/** What Get recording media answers: where to GET the file until when, and what it is. */
export interface RecordingMedia {
  url: string;
  expires_at: string;
  content_type: string;
  size_bytes: number;
}

/**
 * A short-lived pre-signed GET of a recording's uploaded file: one GetItem, then a signature
 * computed locally (no request to S3). S3 answers the URL with the recording's content type
 * and a Content-Disposition carrying its original file name (`inline` plays in a browser,
 * `attachment` saves). A personal key sees only its own user's recordings, as the public list
 * does. Its refusals are the route's (shared/routes/recordings/get-recording-media.ts).
 */
export async function getRecordingMedia(
  deps: MediaDeps,
  caller: Caller,
  recordingId: string,
  disposition: MediaDisposition = 'inline',
): Promise<RecordingMedia> {
  const recording = await getRecording(deps.db, caller.orgId, recordingId);
  if (!recording || recording.deleted_at) throw recordingNotFound(recordingId);
  if (caller.kind === 'user_key' && recording.recorded_by !== caller.userId) throw recordingNotFound(recordingId);
  const upload = recording.upload;
  // uploaded_at is set by the upload completion alone; upload_error when what landed was not the declared file.
  if (!upload?.uploaded_at || recording.upload_error !== undefined) {
    const why = recording.upload_error !== undefined ? 'its upload failed' : 'its file has not been uploaded yet';
    throw new ConflictError('RECORDING_NOT_UPLOADED', `Recording ${recordingId} cannot be played: ${why}.`);
  }
  const now = deps.now();
  const contentType = upload.uploaded_content_type || upload.content_type;
  const url = await deps.objects.presignDownload(
    upload.s3_key,
    { contentType, contentDisposition: contentDisposition(disposition, upload.filename) },
    deps.urlTtlSeconds,
    now,
  );
  return {
    url,
    expires_at: new Date(now.getTime() + deps.urlTtlSeconds * 1000).toISOString(),
    content_type: contentType,
    size_bytes: upload.uploaded_bytes ?? upload.size_bytes,
  };
}

/**
 * A Content-Disposition value naming a file (RFC 6266): `filename="…"`, an ASCII fallback for
 * old clients (accents dropped, anything else outside printable ASCII, quotes and backslashes
 * replaced by `_`), and `filename*=UTF-8''…` (RFC 8187, ex-5987) with the exact name, which
 * clients that know it prefer. The whole value is ASCII, so it travels in any header.
 */
export function contentDisposition(disposition: MediaDisposition, filename: string): string {
  const fallback = filename
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encodeExtValue(filename)}`;
}

/** RFC 8187 value-chars: attr-char as is, every other UTF-8 byte percent-encoded. */
function encodeExtValue(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
