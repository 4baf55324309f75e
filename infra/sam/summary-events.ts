import type { Actor } from '../../shared/schemas/event-catalog';
import { queuedSummary, withDigest } from '../../shared/domain/summaries/summary-changes';
import { recordingItem, type Recording } from '../../shared/storage/recording-items';
import { BUILT_IN_TEMPLATE } from '../../shared/summarization/built-in-template';
import type { SampleSetup } from './sample-setup';

/**
 * The summaries' part of the sample pipeline events (infra/sam/pipeline-events.ts): the stream
 * changes that give `recording.transcription_completed` (the automatic summary's cue) and
 * `recording.summary_queued` (the summary consumer's).
 */
type Item = Record<string, unknown>;

export function summaryStreamChanges(
  setup: SampleSetup,
  at: { earlier: string; changed: string },
  stampFor: (name: string, actor: Actor | null) => Item,
): { before: Item; after: Item }[] {
  const { ids } = setup;
  const running: Recording = {
    id: ids.recordingId,
    org_id: ids.orgId,
    recorded_by: ids.memberId,
    title: 'Monday standup',
    description: '',
    duration: 0,
    language: 'en',
    tags: [],
    folder_id: null,
    state: 'processing',
    created_at: at.earlier,
    updated_at: at.earlier,
    recording_at: at.earlier,
    related: { transcript: false, summary: false, action_items: false, translation: false },
    transcription: { status: 'processing', attempt: 1, job_language: 'en-US', queued_at: at.earlier, started_at: at.earlier },
  };
  // Its transcription completed (recording.transcription_completed).
  const transcribed: Recording = {
    ...running,
    state: 'ready',
    duration: 612,
    language: 'en-US',
    updated_at: at.changed,
    related: { ...running.related, transcript: true },
    transcription: { ...running.transcription!, status: 'completed', finished_at: at.changed, billed_minutes: 11, segment_count: 42 },
  };
  // Its automatic summary, queued (recording.summary_queued).
  const queuedAt = new Date(Date.parse(at.changed) + 2000);
  const summary = queuedSummary(
    transcribed,
    'sum_5f1c0a9e2b7d4c8a1e3f',
    { id: null, name: BUILT_IN_TEMPLATE.name, sections: BUILT_IN_TEMPLATE.sections },
    queuedAt,
  );
  const queued = withDigest(transcribed, summary, queuedAt);
  return [
    {
      before: { ...recordingItem(running), ...stampFor('transcription-started', null) },
      after: { ...recordingItem(transcribed), ...stampFor('transcription-completed', null) },
    },
    {
      before: { ...recordingItem(transcribed), ...stampFor('transcription-completed', null) },
      after: { ...recordingItem(queued), ...stampFor('summary-queued', null) },
    },
  ];
}
