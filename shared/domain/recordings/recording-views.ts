import type { Membership } from '../../storage/membership-items';
import type { Recording } from '../../storage/recording-items';
import type { RecordingParts } from '../../storage/recording-part-items';
import type { Tag } from '../../storage/tags';
import type { RecordingInclude } from '../../schemas/recordings';
import { excerptOf } from '../summaries/summary-changes';
import { holdView, type EffectiveHold } from '../governance/hold-checks';
import { transcriptStatusOf } from '../transcription/transcription-changes';
import { translationView } from '../translations/translation-changes';
import type { RecordingSpeaker } from '../../storage/speaker-items';
import { speakerView, withSpeakerAssignee, withSpeakerNames } from '../speakers/speaker-names';

/** The recording's latest translation (docs/translations.md), else a fixture's translation item; null when none. */
function latestTranslation(recording: Recording, parts: RecordingParts) {
  return recording.translation ? translationView(recording.translation) : (parts.translation ?? null);
}

/** An item of the organization's recordings list (trash items add deleted_at and purge_at, null while no timer is set). */
export function listItemView(recording: Recording) {
  return {
    id: recording.id,
    title: recording.title,
    duration: recording.duration,
    language: recording.language,
    recorded_by: recording.recorded_by,
    tags: recording.tags,
    created_at: recording.created_at,
    ...(recording.deleted_at ? { deleted_at: recording.deleted_at, purge_at: recording.purge_at ?? null } : {}),
  };
}

/**
 * Get recording: the recording (with `upload_error`, empty unless its upload failed), plus
 * each related resource asked for (null when it has none).
 */
export function recordingView(
  recording: Recording,
  parts: RecordingParts,
  include: RecordingInclude[],
  hold?: EffectiveHold | null,
  speakers: RecordingSpeaker[] | undefined = recording.speakers,
) {
  const view: Record<string, unknown> = {
    id: recording.id,
    title: recording.title,
    description: recording.description,
    duration: recording.duration,
    language: recording.language,
    recorded_by: recording.recorded_by,
    tags: recording.tags,
    folder_id: recording.folder_id,
    state: recording.state,
    upload_error: recording.upload_error ?? '',
    transcript_status: transcriptStatusOf(recording),
    transcript_error: recording.transcript_error ?? '',
    created_at: recording.created_at,
    updated_at: recording.updated_at,
    recording_at: recording.recording_at,
    // Get recording reads the recorder's hold too; the other answers show the recording's own.
    legal_hold: hold !== undefined ? hold : recording.legal_hold ? holdView(recording.legal_hold, 'recording') : null,
    transcript_vocabulary: recording.transcription?.vocabulary ?? null,
  };
  if (include.includes('transcript')) view.transcript = parts.transcript ? withSpeakerNames(parts.transcript.segments, speakers) : null;
  if (include.includes('speakers')) view.speakers = speakers?.map(speakerView) ?? null;
  if (include.includes('summary')) view.summary = parts.summary ? summaryView(parts.summary) : null;
  if (include.includes('action_items'))
    view.action_items = parts.action_items?.map((item) => actionItemView(withSpeakerAssignee(item, speakers))) ?? null;
  if (include.includes('translation')) view.translation = latestTranslation(recording, parts);
  return view;
}

/** An action item as the API shows it (a fixture's, from before summaries were written, has no member match or timestamp). */
export function actionItemView(item: NonNullable<RecordingParts['action_items']>[number]) {
  return {
    id: item.id,
    text: item.text,
    assignee: item.assignee,
    assignee_user_id: item.assignee_user_id ?? null,
    due_date: item.due_date,
    completed: item.completed,
    timestamp: item.timestamp ?? null,
  };
}

function summaryView(summary: NonNullable<RecordingParts['summary']>) {
  return {
    markdown: summary.markdown,
    template_id: summary.template_id ?? null,
    template_name: summary.template_name ?? null,
    created_at: summary.created_at,
    updated_at: summary.updated_at,
  };
}

/** Update recording's response. */
export function updatedView(recording: Recording) {
  return {
    id: recording.id,
    title: recording.title,
    description: recording.description,
    duration: recording.duration,
    tags: recording.tags,
    updated_at: recording.updated_at,
  };
}

/**
 * A public list item: recorder and tags as objects, and the processing results
 * (summarizations, transcript, translation: null when absent; error fields, the upload's
 * included, empty when none).
 */
export function publicItemView(
  recording: Recording,
  recorder: Membership | undefined,
  tags: Map<string, Tag>,
  parts: RecordingParts,
  excerptBytes = Infinity,
) {
  return {
    id: recording.id,
    title: recording.title,
    created_at: recording.created_at,
    updated_at: recording.updated_at,
    recording_at: recording.recording_at,
    duration: recording.duration,
    language: recording.language,
    folder_id: recording.folder_id ?? '',
    state: recording.state,
    recorded_by: { display_name: recorder?.display_name ?? '', email: recorder?.email ?? '', user_id: recording.recorded_by },
    tags: recording.tags.flatMap((id) => {
      const tag = tags.get(id);
      return tag ? [{ id, name: tag.name, color: tag.color }] : [];
    }),
    summarizations: summarizationsView(recording, parts, excerptBytes),
    summarizations_errors: (recording.summarizations_errors ?? []).map((error) => withinBytes(error, excerptBytes)),
    transcript: parts.transcript
      ? {
          id: parts.transcript.header.id,
          language: parts.transcript.header.language,
          segment_count: parts.transcript.header.segment_count,
          created_at: parts.transcript.header.created_at,
          updated_at: parts.transcript.header.updated_at,
        }
      : null,
    transcript_status: transcriptStatusOf(recording),
    transcript_error: recording.transcript_error ?? '',
    translation: latestTranslation(recording, parts),
    translation_error: recording.translation_error ?? '',
    upload_error: recording.upload_error ?? '',
  };
}

/**
 * The public list item's `summarizations`: one entry per digest (a recording from before
 * summaries were written shows its fixture summary), each excerpt (and template name, and
 * error) cut to `excerptBytes` of payload (the page's share: docs/summaries.md); `markdown`
 * repeats the excerpt (deprecated).
 */
function summarizationsView(recording: Recording, parts: RecordingParts, excerptBytes: number) {
  if (recording.summaries?.length) {
    return recording.summaries.map((digest) => {
      const excerpt = withinBytes(digest.excerpt, excerptBytes);
      return {
        id: digest.id,
        template_id: digest.template_id,
        template_name: withinBytes(digest.template_name, excerptBytes),
        status: digest.status,
        excerpt,
        markdown: excerpt,
        created_at: digest.created_at,
        updated_at: digest.updated_at,
      };
    });
  }
  if (!parts.summary) return null;
  const excerpt = withinBytes(excerptOf(parts.summary.markdown), excerptBytes);
  return [{ id: `${recording.id}_summary`, ...summaryView(parts.summary), status: 'completed', excerpt, markdown: excerpt }];
}

/**
 * The longest start of a text (whole characters) that costs at most `bytes` in a Lambda
 * response: JSON in a body that is itself a JSON string (`"` costs 4 bytes there, `é` 2, `ア` 3).
 */
export function withinBytes(text: string, bytes: number): string {
  if (bytes === Infinity) return text;
  let size = 0;
  let end = 0;
  for (const character of text) {
    size += payloadCost(character);
    if (size > bytes) break;
    end += character.length;
  }
  return text.slice(0, end);
}

/** What a text costs in a Lambda response's payload (its body's JSON, escaped again as a string). */
export const payloadCost = (text: string) => Buffer.byteLength(JSON.stringify(JSON.stringify(text))) - 6;
