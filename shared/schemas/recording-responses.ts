import * as v from 'valibot';
import { LegalHoldResponse } from './governance-responses';
import { RECORDING_STATES } from '../core/recording-states';
import { SUMMARY_STATUSES } from '../core/summary-statuses';
import { TRANSCRIPT_STATUSES } from '../core/transcript-statuses';
import { createdAt, described, envelope, NullableString, pagedEnvelope, TIMESTAMP, updatedAt } from './envelopes';

/** The recordings' responses, on the organization routes and the public API, for the OpenAPI document and the contract check. */
const recordingFields = {
  id: described(v.string(), "The recording's id."),
  title: described(v.string(), 'Its title.'),
  description: described(v.string(), 'Its description (may be empty).'),
  duration: described(v.number(), 'Its length in seconds.'),
  language: described(v.string(), 'Its language, as a language tag such as `en` or `pt-BR`.'),
  recorded_by: described(v.string(), 'The user id of the member who recorded it.'),
  tags: described(v.array(v.string()), 'The ids of its tags.'),
  created_at: createdAt('recording'),
  updated_at: updatedAt('recording'),
};

export const RecordingListItem = v.strictObject({
  id: recordingFields.id,
  title: recordingFields.title,
  duration: recordingFields.duration,
  language: recordingFields.language,
  recorded_by: recordingFields.recorded_by,
  tags: recordingFields.tags,
  created_at: recordingFields.created_at,
  deleted_at: described(v.optional(v.string()), `When it was moved to the trash (${TIMESTAMP}); only on trash items.`),
  purge_at: described(
    v.optional(NullableString),
    `When its trash timer runs out and it is deleted for good (${TIMESTAMP}): TRASH_RETENTION_DAYS after deleted_at, or a day after the operator gave a timer to a recording trashed without one, if later; DynamoDB's TTL acts shortly after (in AWS, within a few days at most). Only on trash items; null while it has no timer (trashed before the service kept them, until the operator runs \`voice-org reindex\`).`,
  ),
});

export const RecordingListResponse = v.strictObject({
  recordings: described(v.array(RecordingListItem), 'This page of recordings, newest first.'),
  pagination: described(
    v.strictObject({
      page: described(v.number(), 'This page, 1-based.'),
      limit: described(v.number(), 'The page size asked for (or its default).'),
      total: described(v.number(), 'Recordings matching the filters, across all pages.'),
      next_cursor: described(
        NullableString,
        'Pass it as `cursor` for the next page (faster than `page` deep in a list); null on the last page.',
      ),
    }),
    'Where this page is in the list.',
  ),
});

export const TranscriptSegment = v.strictObject({
  speaker: described(v.string(), "Who speaks: the speaker's name when someone named them, else the engine's label (`Speaker 1`, …)."),
  text: described(v.string(), 'What they said.'),
  start: described(v.number(), 'Start, in seconds from the beginning of the recording.'),
  end: described(v.number(), 'End, in seconds from the beginning of the recording.'),
});
export const Speaker = v.strictObject({
  label: described(v.string(), "The engine's label (`Speaker 1`, …), as the transcript's turns are stored."),
  name: described(v.string(), 'The name shown in the transcript, exports and search: the label until someone names the speaker.'),
  user_id: described(NullableString, "The member the speaker was named as; null when none (a transcript of one voice is its recorder's)."),
  talk_time_seconds: described(v.number(), "Seconds of the speaker's turns."),
  turn_count: described(v.number(), 'Turns the speaker took.'),
});
export const ActionItem = v.strictObject({
  id: described(v.string(), "The action item's id (unique within its summary)."),
  text: described(v.string(), 'What is to be done.'),
  assignee: described(NullableString, 'Who is to do it, as the summary named them; null when nobody was named.'),
  assignee_user_id: described(
    NullableString,
    'The member the named assignee was matched to (full display name, or a first name unique in the organization, case- and accent-insensitive); null when nobody was named or the name is ambiguous or unknown.',
  ),
  due_date: described(
    NullableString,
    'When it is due (YYYY-MM-DD; relative dates such as "by Friday" resolved against the day of the recording); null when not stated.',
  ),
  completed: described(v.boolean(), 'Whether it is done (PATCH …/action-items/{itemId} sets it).'),
  timestamp: described(v.nullable(v.number()), 'Seconds into the recording where it was said; null when unknown.'),
});
export const Translation = v.strictObject({
  id: described(v.string(), "The translation's id."),
  created_at: createdAt('translation'),
  updated_at: updatedAt('translation'),
  detected_language: described(v.string(), "The language translated from: the transcript's, as an Amazon Translate code such as `en`."),
  to_language: described(v.string(), 'The language translated into, as asked for (an ISO 639-1 code such as `es`).'),
  processing_status: described(v.string(), 'Where the translation is: `queued`, `processing`, `completed` or `failed`.'),
  error_message: described(v.string(), 'Why it failed; empty when it did not.'),
});

const summaryFields = {
  markdown: described(v.string(), 'The summary, markdown.'),
  template_id: described(NullableString, 'The template it was made with; null for the default summary.'),
  template_name: described(NullableString, "That template's name when the summary was made (kept if the template is deleted)."),
  created_at: described(v.optional(v.string()), `When the summary was made (${TIMESTAMP})`),
  updated_at: described(v.optional(v.string()), `When the summary last changed (${TIMESTAMP})`),
};
const Summary = v.strictObject(summaryFields);

/**
 * A recording's `state`: pending_upload → uploaded → processing (a stage queued or running) →
 * ready (none is; a failed stage sets its error), or failed (an upload that is not the declared
 * size or type).
 */
const RecordingStateField = described(
  v.picklist(RECORDING_STATES),
  'Where the recording is: `pending_upload` until its file lands, then `uploaded`; `processing` while a processing stage (transcription) is queued or running, `ready` when none is (a failed stage leaves it `ready` with its error set); `failed` when the upload was not the declared size or type.',
);
const TranscriptStatusField = described(
  v.picklist(TRANSCRIPT_STATUSES),
  'Where its transcription is: `none` (never asked for), `queued`, `processing`, `completed` or `failed` (see `transcript_error`). A re-run goes through `queued` and `processing` again; the previous transcript stays readable until the new one completes.',
);
const TranscriptErrorField = described(
  v.string(),
  'Why transcription failed, as `<CODE>: <reason>` (codes: `UNSUPPORTED_MEDIA`, `UNSUPPORTED_LANGUAGE`, `ENGINE_UNAVAILABLE`, `TRANSCRIPTION_QUOTA_EXCEEDED`, `TRANSCRIPTION_TIMEOUT`, `TRANSCRIPTION_FAILED`); empty when it did not.',
);

export const RecordingResponse = v.strictObject({
  ...recordingFields,
  folder_id: described(v.optional(NullableString), 'The folder it is in; null when in none.'),
  state: RecordingStateField,
  /** Why the upload failed (state `failed`), e.g. `size_mismatch: declared 5 bytes, received 20`; `""` when it did not. */
  upload_error: described(
    v.string(),
    'Why the upload failed (state `failed`), such as `size_mismatch: declared 5 bytes, received 20`; empty when it did not.',
  ),
  transcript_status: TranscriptStatusField,
  transcript_error: TranscriptErrorField,
  recording_at: described(v.optional(NullableString), `When it was recorded (${TIMESTAMP}), if known.`),
  transcript: described(
    v.optional(v.nullable(v.array(TranscriptSegment))),
    'With `include=transcript`: the transcript as timed segments; null when it has none.',
  ),
  summary: described(v.optional(v.nullable(Summary)), 'With `include=summary`: the AI summary; null when it has none.'),
  action_items: described(
    v.optional(v.nullable(v.array(ActionItem))),
    'With `include=action_items`: the action items found; null when it has none.',
  ),
  translation: described(v.optional(v.nullable(Translation)), 'With `include=translation`: its translation; null when it has none.'),
  speakers: described(
    v.optional(v.nullable(v.array(Speaker))),
    'With `include=speakers`: who speaks in the transcript, in order of first appearance; null when it has no transcript.',
  ),
  transcript_vocabulary: described(
    v.optional(v.nullable(v.picklist(['applied', 'pending']))),
    "Whether the latest transcription used the organization's vocabulary: `applied`, or `pending` (it was not ready when the job started, which ran without it); null when none applied to it (no vocabulary, another language, or language identification).",
  ),
  legal_hold: described(
    v.optional(v.nullable(LegalHoldResponse)),
    "The legal hold that keeps it (docs/governance.md): its own, else its recorder's (`scope` says which); null when none does.",
  ),
});

export const RecordingUpdateResponse = v.strictObject({
  id: recordingFields.id,
  title: recordingFields.title,
  description: recordingFields.description,
  duration: recordingFields.duration,
  tags: recordingFields.tags,
  updated_at: recordingFields.updated_at,
});

export const PublicRecording = v.strictObject({
  id: recordingFields.id,
  title: recordingFields.title,
  created_at: recordingFields.created_at,
  updated_at: recordingFields.updated_at,
  recording_at: described(v.optional(NullableString), `When it was recorded (${TIMESTAMP}), if known.`),
  duration: recordingFields.duration,
  language: recordingFields.language,
  folder_id: described(v.string(), 'The folder it is in; empty when in none.'),
  state: RecordingStateField,
  recorded_by: described(
    v.strictObject({
      display_name: described(v.string(), "The recorder's name as shown."),
      email: described(v.string(), "The recorder's email."),
      user_id: described(v.string(), "The recorder's user id."),
    }),
    'The member who recorded it.',
  ),
  tags: described(
    v.array(
      v.strictObject({
        id: described(v.string(), "The tag's id."),
        name: described(v.string(), "The tag's name."),
        color: described(v.string(), 'Its colour, as a hex colour such as `#1f77b4`.'),
      }),
    ),
    'Its tags.',
  ),
  summarizations: described(
    v.nullable(
      v.array(
        v.strictObject({
          id: described(v.string(), "The summary's id."),
          template_id: summaryFields.template_id,
          template_name: summaryFields.template_name,
          status: described(
            v.optional(v.picklist(SUMMARY_STATUSES)),
            'Where the summary is: `queued`, `processing`, `completed` or `failed` (see `summarizations_errors`).',
          ),
          excerpt: described(
            v.optional(v.string()),
            "The beginning of its markdown (at most 500 characters, control characters as spaces; shorter when a page's summaries would not fit Lambda's 6 MB response otherwise); empty until completed. Get summary gives the whole.",
          ),
          markdown: described(
            v.string(),
            '**Deprecated**: the same text as `excerpt` (it once held the whole summary); read `excerpt`, or Get summary for the whole.',
          ),
          created_at: summaryFields.created_at,
          updated_at: summaryFields.updated_at,
        }),
      ),
    ),
    'Its summaries, oldest first; null when it has none.',
  ),
  summarizations_errors: described(
    v.array(v.unknown()),
    'Why summarizing failed (`<CODE>: <reason>` of each failed summary), when it did; empty otherwise.',
  ),
  transcript: described(
    v.nullable(
      v.strictObject({
        id: described(v.string(), "The transcript's id."),
        language: described(v.string(), 'The language transcribed.'),
        segment_count: described(v.number(), 'How many timed segments it has (read them with Get recording, `include=transcript`).'),
        created_at: createdAt('transcript'),
        updated_at: updatedAt('transcript'),
      }),
    ),
    'Its transcript, summed up; null when it has none.',
  ),
  transcript_status: TranscriptStatusField,
  transcript_error: TranscriptErrorField,
  translation: described(v.nullable(Translation), 'Its translation; null when it has none.'),
  translation_error: described(v.string(), 'Why translation failed; empty when it did not.'),
  upload_error: described(v.string(), 'Why the upload failed (state `failed`); empty when it did not.'),
});
export const PublicRecordingListResponse = pagedEnvelope(described(v.array(PublicRecording), 'This page of recordings, newest first.'));

export const UploadUrlResponse = envelope(
  described(
    v.strictObject({
      recording_id: described(v.string(), 'The new recording, in state `pending_upload` until its file lands.'),
      upload_url: described(v.string(), 'A pre-signed S3 URL: PUT the file there, once, before `expires_at`.'),
      method: described(v.literal('PUT'), 'The HTTP method of the upload: always PUT.'),
      /** The headers the PUT must send exactly: both are signed into the URL. */
      headers: described(
        v.strictObject({
          'content-type': described(v.string(), 'The declared `content_type`.'),
          'content-length': described(v.string(), 'The declared `size_bytes`.'),
        }),
        'The headers the PUT must send exactly: both are signed into the URL.',
      ),
      expires_at: described(
        v.string(),
        `When the URL stops working (${TIMESTAMP}; UPLOAD_URL_TTL_SECONDS after issue, 15 minutes by default).`,
      ),
    }),
    'The recording created and where to upload its file.',
  ),
);

/** A pre-signed GET of a recording's file (Get recording media): the org route answers it bare, the public route in the envelope. */
export const RecordingMedia = v.strictObject({
  /** GET it (Range requests too) until expires_at; S3 answers with content_type and a Content-Disposition naming the original file. */
  url: described(
    v.string(),
    'A pre-signed S3 URL: GET it (Range requests too) until `expires_at`; S3 answers with `content_type` and a Content-Disposition naming the original file.',
  ),
  expires_at: described(v.string(), `When the URL stops working (${TIMESTAMP}; MEDIA_URL_TTL_SECONDS after issue, 15 minutes by default).`),
  content_type: described(v.string(), 'The media type of the file, as uploaded, such as `audio/mp4`.'),
  size_bytes: described(v.number(), 'The size of the file, in bytes.'),
});
export const PublicRecordingMediaResponse = envelope(described(RecordingMedia, "Where to play or download the recording's file."));
