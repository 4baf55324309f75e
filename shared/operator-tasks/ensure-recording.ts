import type { Fixture } from '../schemas/fixture';
import type { TableContext } from '../storage/dynamo';
import { recordingObjectKey } from '../storage/recording-objects';
import type { Recording } from '../storage/recording-items';
import type { RecordingParts } from '../storage/recording-part-items';
import { getRecording } from '../storage/recordings';
import { digestOf, type StoredActionItem, type SummaryRecord } from '../storage/summary-items';
import { BUILT_IN_TEMPLATE } from '../summarization/built-in-template';
import { excerptOf } from '../domain/summaries/summary-changes';
import { assertOrgTags, createRecording } from '../domain/recordings/recording-changes';
import type { EnsureOutcome } from './directory';
import { latePurgeAt } from './trash-timers';

/** What loading a fixture's recordings needs: the table, and the trash's retention (a recording loaded in the trash gets its timer). */
export interface FixtureRecordingDeps {
  db: TableContext;
  trashRetentionDays: number;
}

/**
 * Creates a fixture recording with its related resources, through the same transaction as
 * the API (so the org's and the recorder's counts follow; one loaded in the trash gets its
 * trash timer). A recording whose id exists is left as it is, which keeps a second load of
 * the fixture from changing anything.
 */
export async function ensureRecording(
  { db, trashRetentionDays }: FixtureRecordingDeps,
  entry: Fixture['recordings'][number],
  now: Date,
): Promise<EnsureOutcome> {
  if (await getRecording(db, entry.org_id, entry.id)) return 'unchanged';
  await assertOrgTags(db, entry.org_id, entry.tags, `recordings.${entry.id}.tags`);
  const { recording, parts } = fixtureRecording(entry, now, trashRetentionDays);
  await createRecording({ db, now: () => now }, recording, parts);
  return 'created';
}

/**
 * The recording and related parts a fixture entry stands for (shared by the one-entry and the
 * bulk path). One in the trash is purged as a timer set now would purge it (latePurgeAt).
 */
export function fixtureRecording(
  entry: Fixture['recordings'][number],
  now: Date,
  trashRetentionDays: number,
): { recording: Recording; parts: RecordingParts } {
  const createdAt = entry.created_at ?? now.toISOString();
  const recording: Recording = {
    id: entry.id,
    org_id: entry.org_id,
    recorded_by: entry.recorded_by,
    title: entry.title,
    description: entry.description,
    duration: entry.duration,
    language: entry.language,
    tags: entry.tags,
    folder_id: entry.folder_id,
    state: entry.state,
    created_at: createdAt,
    updated_at: createdAt,
    recording_at: entry.recording_at ?? createdAt,
    ...(entry.deleted_at ? { deleted_at: entry.deleted_at, purge_at: latePurgeAt(entry.deleted_at, now, trashRetentionDays) } : {}),
    ...(entry.upload ? { upload: fixtureUpload(entry, entry.upload) } : {}),
    related: {
      transcript: Boolean(entry.transcript),
      summary: Boolean(entry.summary),
      action_items: Boolean(entry.action_items),
      translation: Boolean(entry.translation),
    },
  };
  const actionItems = entry.action_items?.map((item, index) => ({
    id: item.id ?? `${entry.id}_action_${index + 1}`,
    text: item.text,
    assignee: item.assignee,
    // The fixtures name assignees by user id.
    assignee_user_id: item.assignee?.startsWith('usr_') ? item.assignee : null,
    due_date: item.due_date,
    completed: item.completed,
    timestamp: null,
  }));
  const parts: RecordingParts = {
    transcript: entry.transcript && {
      header: {
        id: `${entry.id}_transcript`,
        language: entry.language,
        segment_count: entry.transcript.length,
        chunk_count: 0,
        created_at: createdAt,
        updated_at: createdAt,
      },
      segments: entry.transcript,
    },
    translation: entry.translation && { id: `${entry.id}_translation`, created_at: createdAt, updated_at: createdAt, ...entry.translation },
  };
  if (entry.summary) {
    // Written as the pipeline writes summaries (the item and the recording's digest), with the id the public list always showed.
    const summary = fixtureSummary(entry, entry.summary, actionItems ?? [], createdAt);
    parts.summaries = [summary];
    recording.summaries = [digestOf(summary, excerptOf(summary.markdown))];
  } else if (actionItems) {
    parts.action_items = actionItems;
  }
  return { recording, parts };
}

/** A fixture recording's file as Create upload URL declares it, and as the upload completion records it once `uploaded_at` says it landed. */
function fixtureUpload(
  entry: Fixture['recordings'][number],
  upload: NonNullable<Fixture['recordings'][number]['upload']>,
): NonNullable<Recording['upload']> {
  const declared = {
    s3_key: recordingObjectKey(entry.org_id, entry.id, upload.filename),
    content_type: upload.content_type,
    filename: upload.filename,
    size_bytes: upload.size_bytes,
  };
  return upload.uploaded_at
    ? { ...declared, uploaded_bytes: upload.size_bytes, uploaded_content_type: upload.content_type, uploaded_at: upload.uploaded_at }
    : declared;
}

/** A fixture's summary as a completed summary item (no sections or usage: it was not written by an engine). */
function fixtureSummary(
  entry: Fixture['recordings'][number],
  summary: NonNullable<Fixture['recordings'][number]['summary']>,
  actionItems: StoredActionItem[],
  createdAt: string,
): SummaryRecord {
  return {
    id: `${entry.id}_summary`,
    org_id: entry.org_id,
    recording_id: entry.id,
    template_id: summary.template_id ?? null,
    template_name: summary.template_name ?? BUILT_IN_TEMPLATE.name,
    template_sections: [],
    status: 'completed',
    error: null,
    model: null,
    language: null,
    markdown: summary.markdown,
    sections: [],
    action_items: actionItems,
    preferences_applied: 0,
    usage: { input_tokens: 0, output_tokens: 0 },
    announce_action_items: false,
    created_at: createdAt,
    updated_at: createdAt,
  };
}
