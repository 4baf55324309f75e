import type { Caller } from '../../auth/policy';
import { NotFoundError } from '../../core/errors';
import type { TableContext } from '../../storage/dynamo';
import type { TranscriptSegment } from '../../storage/recording-part-items';
import { getRecording, getRecordingWithParts } from '../../storage/recordings';
import { readTranslation } from '../../storage/translations';
import { translationCodeOfTag } from '../../translation/languages';
import { renderTranscript, transcriptFileName, type TranscriptFormat } from '../../transcription/transcript-formats';
import { recordingNotFound, speakersToShow } from '../recordings/get-recording';
import { contentDisposition } from '../recordings/get-recording-media';
import { withSpeakerNames } from '../speakers/speaker-names';

/** A transcript as a file: its media type and text, and with `download` the Content-Disposition that saves it. */
export interface TranscriptFile {
  contentType: string;
  body: string;
  contentDisposition?: string;
}

/**
 * Get transcript (both hosts): the recording's transcript rendered in a format (json, vtt, srt,
 * txt), one Query over the recording's key range; its refusals are the route's
 * (shared/routes/recordings/transcription-docs.ts). During a re-run the previous transcript is served.
 *
 * With `language` (an Amazon Translate code) other than the transcript's own: its translation
 * into that language (docs/translations.md), same speakers and times, read with one Get of the
 * recording and one Query of that language's items, never the original.
 */
export async function getTranscript(
  db: TableContext,
  caller: Caller,
  recordingId: string,
  format: TranscriptFormat,
  download: boolean,
  language?: string,
): Promise<TranscriptFile> {
  if (language !== undefined) {
    const recording = await getRecording(db, caller.orgId, recordingId);
    if (!recording || recording.deleted_at) throw recordingNotFound(recordingId);
    if (caller.kind === 'user_key' && recording.recorded_by !== caller.userId) throw recordingNotFound(recordingId);
    if (translationCodeOfTag(recording.language) !== language) {
      const translation = await readTranslation(db, caller.orgId, recordingId, language);
      if (!translation)
        throw new NotFoundError('TRANSLATION_NOT_FOUND', `Recording ${recordingId} has no completed translation into ${language}.`);
      // A translation keeps the transcript's speaker labels: shown with the names given since.
      const file: TranscriptFile = renderTranscript(format, {
        recordingId,
        language: translation.header.language,
        segments: withSpeakerNames(translation.segments, recording.speakers),
        speakers: recording.speakers,
      });
      if (download)
        file.contentDisposition = contentDisposition('attachment', transcriptFileName(`${recording.title} (${language})`, format));
      return file;
    }
  }
  const { recording, parts } = await getRecordingWithParts(db, caller.orgId, recordingId);
  if (!recording || recording.deleted_at) throw recordingNotFound(recordingId);
  if (caller.kind === 'user_key' && recording.recorded_by !== caller.userId) throw recordingNotFound(recordingId);
  if (!parts.transcript) throw new NotFoundError('TRANSCRIPT_NOT_FOUND', `Recording ${recordingId} has no transcript yet.`);
  // As Get recording shows them: a transcript stored before speakers were is measured from its turns, a single voice the recorder's.
  const speakers = await speakersToShow(db, recording, parts);
  const segments: TranscriptSegment[] = withSpeakerNames(parts.transcript.segments, speakers);
  const file: TranscriptFile = renderTranscript(format, { recordingId, language: parts.transcript.header.language, segments, speakers });
  if (download) file.contentDisposition = contentDisposition('attachment', transcriptFileName(recording.title, format));
  return file;
}
