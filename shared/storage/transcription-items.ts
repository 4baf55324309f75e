import { TRANSCRIPTION_RUN_STATUSES, type TranscriptionRunStatus } from '../core/transcript-statuses';
import { nestedItemFields } from './item-fields';

/**
 * A recording's transcription attempt as stored on the recording item (recording-items.ts):
 * the type and its mapper, with no DynamoDB client, like the recording's own.
 */

type Item = Record<string, unknown>;

const VOCABULARY_USES = ['applied', 'pending'] as const;

/**
 * The recording's latest transcription attempt (docs/transcription.md): absent until one is
 * asked for. Its transitions restamp `updated_at`, so a concurrent whole-item write of the
 * recording (update, trash) conflicts with them instead of undoing them.
 */
export interface RecordingTranscription {
  status: TranscriptionRunStatus;
  /** 1 for the first attempt; each re-run adds one (job names and output keys carry it). */
  attempt: number;
  /** The job's language: a Transcribe language code, or `identify` (automatic identification). */
  job_language: string;
  queued_at: string;
  /** When the sweeper looks at this attempt next (the sort key of its watch item), while queued or processing. */
  watch_due_at?: string;
  job_name?: string;
  started_at?: string;
  finished_at?: string;
  /** Set when completed: what the usage counted, and the transcript's size. */
  billed_minutes?: number;
  segment_count?: number;
  /** Set when failed: the machine code of `transcript_error`. */
  error_code?: string;
  /** Speakers the job tells apart: the recorder's `max_speakers` when queued (absent on older attempts: 10). */
  max_speakers?: number;
  /** The organization's vocabulary, when it had one for the job's language: `applied`, or `pending` (not ready at the start). */
  vocabulary?: 'applied' | 'pending';
  /**
   * PII redaction of this attempt's transcript (docs/transcript-controls.md, "Redaction"): by Transcribe itself (asked for at the
   * start) or by the service's redactor after it; absent when the organization's redaction was off.
   */
  redaction?: TranscriptRedaction;
}

export const REDACTION_ENGINES = ['transcribe', 'service'] as const;

/** Who redacted a transcript, and which entity types. */
export interface TranscriptRedaction {
  engine: (typeof REDACTION_ENGINES)[number];
  entity_types: string[];
}

export function transcriptionFromMap(item: Item): RecordingTranscription {
  const fields = nestedItemFields(item, item.transcription, 'recording transcription');
  const stored = item.transcription as Item;
  const transcription: RecordingTranscription = {
    status: fields.oneOf('status', TRANSCRIPTION_RUN_STATUSES),
    attempt: fields.number('attempt'),
    job_language: fields.string('job_language'),
    queued_at: fields.string('queued_at'),
  };
  const optional = {
    watch_due_at: fields.optionalString('watch_due_at'),
    job_name: fields.optionalString('job_name'),
    started_at: fields.optionalString('started_at'),
    finished_at: fields.optionalString('finished_at'),
    billed_minutes: fields.optionalNumber('billed_minutes'),
    segment_count: fields.optionalNumber('segment_count'),
    error_code: fields.optionalString('error_code'),
    max_speakers: fields.optionalNumber('max_speakers'),
    vocabulary: stored.vocabulary === undefined ? undefined : fields.oneOf('vocabulary', VOCABULARY_USES),
    redaction: stored.redaction === undefined ? undefined : redactionFromMap(item, stored.redaction),
  };
  for (const [name, value] of Object.entries(optional)) if (value !== undefined) Object.assign(transcription, { [name]: value });
  return transcription;
}

function redactionFromMap(item: Item, map: unknown): TranscriptRedaction {
  const fields = nestedItemFields(item, map, 'transcript redaction');
  return { engine: fields.oneOf('engine', REDACTION_ENGINES), entity_types: fields.stringList('entity_types') };
}
