import type { Membership } from '../../storage/membership-items';
import type { Recording } from '../../storage/recording-items';
import type { RecordingParts } from '../../storage/recording-part-items';
import type { Tag } from '../../storage/tags';
import type { RecordingInclude } from '../../schemas/recordings';
import { transcriptStatusOf } from '../transcription/transcription-plan';
import { translationView } from '../translations/translation-plan';

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
export function recordingView(recording: Recording, parts: RecordingParts, include: RecordingInclude[]) {
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
  };
  if (include.includes('transcript')) view.transcript = parts.transcript ? parts.transcript.segments : null;
  if (include.includes('summary')) view.summary = parts.summary ? summaryView(parts.summary) : null;
  if (include.includes('action_items')) view.action_items = parts.action_items ?? null;
  if (include.includes('translation')) view.translation = latestTranslation(recording, parts);
  return view;
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
export function publicItemView(recording: Recording, recorder: Membership | undefined, tags: Map<string, Tag>, parts: RecordingParts) {
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
    summarizations: parts.summary ? [{ id: `${recording.id}_summary`, ...summaryView(parts.summary) }] : null,
    summarizations_errors: recording.summarizations_errors ?? [],
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
