import type { Caller } from '../../auth/policy';
import { NotFoundError } from '../../core/errors';
import type { TableContext } from '../../storage/dynamo';
import type { TranscriptSegment } from '../../storage/recording-part-items';
import { getRecordingWithParts } from '../../storage/recordings';
import { renderTranscript, transcriptFileName, type TranscriptFormat } from '../../transcription/transcript-formats';
import { recordingNotFound } from '../recordings/read-recording';
import { contentDisposition } from '../recordings/recording-media';

/** A transcript as a file: its media type and text, and with `download` the Content-Disposition that saves it. */
export interface TranscriptFile {
  contentType: string;
  body: string;
  contentDisposition?: string;
}

/**
 * Get transcript (both hosts): the recording's transcript rendered in a format (json, vtt, srt,
 * txt), one Query over the recording's key range. 404 RECORDING_NOT_FOUND for an unknown or
 * trashed recording (or another member's, for a personal key); 404 TRANSCRIPT_NOT_FOUND while
 * it has none. During a re-run the previous transcript is served.
 */
export async function exportTranscript(db: TableContext, caller: Caller, recordingId: string, format: TranscriptFormat, download: boolean): Promise<TranscriptFile> {
  const { recording, parts } = await getRecordingWithParts(db, caller.orgId, recordingId);
  if (!recording || recording.deleted_at) throw recordingNotFound(recordingId);
  if (caller.kind === 'user_key' && recording.recorded_by !== caller.userId) throw recordingNotFound(recordingId);
  if (!parts.transcript) throw new NotFoundError('TRANSCRIPT_NOT_FOUND', `Recording ${recordingId} has no transcript yet.`);
  const segments: TranscriptSegment[] = parts.transcript.segments;
  const file: TranscriptFile = renderTranscript(format, { recordingId, language: parts.transcript.header.language, segments });
  if (download) file.contentDisposition = contentDisposition('attachment', transcriptFileName(recording.title, format));
  return file;
}
