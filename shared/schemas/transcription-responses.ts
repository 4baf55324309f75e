import * as v from 'valibot';
import { described, envelope, NullableString } from './envelopes';
import { RecordingResponse, Speaker, TranscriptSegment } from './recording-responses';

/* The transcription routes' responses, for the OpenAPI document and the contract check. */

/** Transcribe recording, public host: the recording in the envelope (the organization route answers it bare). */
export const PublicTranscribeResponse = envelope(described(RecordingResponse, 'The recording, with `transcript_status: queued`.'));

/** Get transcript with `format=json` (the default); the other formats are text (text/vtt, application/x-subrip, text/plain). */
export const TranscriptExport = v.strictObject({
  recording_id: described(v.string(), 'The recording transcribed.'),
  language: described(v.string(), 'The language transcribed, such as `en-US`.'),
  text: described(v.string(), "The whole transcript: the segments' texts joined by a space."),
  segments: described(
    v.array(TranscriptSegment),
    'The speaker turns, in order: `Speaker 1`, `Speaker 2`, … in order of first appearance, or the names they were given.',
  ),
  speakers: described(
    v.optional(v.array(Speaker)),
    "The transcript's speakers with their labels, names, talk time and turns (a translation's are its transcript's).",
  ),
});

/** Get usage: a month's billed transcription minutes, the organization's and a page of its members'. */
export const UsageResponse = v.strictObject({
  month: described(v.string(), 'The UTC calendar month, YYYY-MM.'),
  transcription_minutes: described(
    v.number(),
    "Minutes billed for the organization's completed transcriptions this month: each rounds its audio's length up to a whole minute; a re-run counts again.",
  ),
  allowance: described(
    v.nullable(v.number()),
    "The organization's monthly allowance of transcription minutes; null: none. Once reached, transcription is refused (403 TRANSCRIPTION_QUOTA_EXCEEDED) until the next month.",
  ),
  members: described(
    v.array(
      v.strictObject({
        user_id: described(v.string(), 'The recorder (a member, or someone who was one).'),
        transcription_minutes: described(v.number(), "Minutes billed for this member's recordings this month."),
      }),
    ),
    'This page of the members with usage this month, by user id.',
  ),
  pagination: described(
    v.strictObject({
      limit: described(v.number(), 'The page size asked for (or its default).'),
      next_cursor: described(NullableString, 'Pass it as `cursor` for the next page; null on the last page.'),
    }),
    'Where this page is in the list of members.',
  ),
});
