import { speakerOfAssignee, withSpeakerAssignee, withSpeakerNames } from '../speakers/speaker-names';
import { DEFAULT_SETTINGS } from '../../core/settings-catalog';
import type { CountMetric } from '../../observability/metric-names';
import type { DomainEvent } from '../../schemas/event-catalog';
import type { TableContext } from '../../storage/dynamo';
import type { Recording } from '../../storage/recording-items';
import { getRecording } from '../../storage/recordings';
import { commitSummaryTransition, getSummary } from '../../storage/summaries';
import { readTranscriptSegments } from '../../storage/transcriptions';
import { recorderPreferences } from '../../storage/member-settings';
import { activeMembersForMatching } from '../../storage/memberships';
import type { SummaryRecord } from '../../storage/summary-items';
import { getRecorderSettings } from '../../storage/member-settings';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { matchAssignee } from '../../summarization/assignees';
import { SummaryEngineError, type SummaryDraft, type SummaryEngine } from '../../summarization/summary-engine';
import { completedSummary, failedSummary, processingSummary, withDigest, type CompletionContext } from './summary-changes';

export interface SummaryRunDeps {
  db: TableContext;
  now: () => Date;
  engine: SummaryEngine;
  /** The model id the engine invokes for a recorder's `selected_model` (absent: never chosen). */
  modelIdFor: (selectedModel: string | undefined) => string;
  countMetric: CountMetric;
}

/** The preference kinds given to the model as standing instructions (the spec's command types). */
export const INSTRUCTION_COMMAND_TYPES = ['summary_enhance', 'manual'] as const;
/** The most preferences read for a summary's instructions (the newest). */
const MAX_INSTRUCTIONS_READ = 200;

/** The longest a throttled summary waits before its next try (15 minutes). */
export const MAX_THROTTLE_DELAY_SECONDS = 900;

/**
 * How long a throttled summary waits: at least what the engine asked, plus an exponential
 * full-jitter share by delivery (30 s, 60 s, 120 s, …), capped: many summaries throttled at
 * once come back spread out, never in a hot loop.
 */
export function throttleDelaySeconds(attempt: number, suggested: number, random: () => number = Math.random): number {
  const exponential = 30 * 2 ** Math.max(0, attempt - 1);
  return Math.min(MAX_THROTTLE_DELAY_SECONDS, Math.ceil(Math.max(1, suggested) + random() * exponential));
}

export type SummaryRunOutcome = 'completed' | 'failed' | 'discarded' | 'ignored' | { retryAfterSeconds: number };

type Located = { recording: Recording; summary: SummaryRecord };

/** The recording and summary as they are now, or why there is nothing to do. */
async function locate(db: TableContext, orgId: string, recordingId: string, summaryId: string): Promise<Located | 'discarded'> {
  const recording = await getRecording(db, orgId, recordingId, { consistent: true });
  if (!recording || recording.deleted_at || !recording.summaries?.some((digest) => digest.id === summaryId)) return 'discarded';
  const summary = await getSummary(db, orgId, recordingId, summaryId, { consistent: true });
  return summary ? { recording, summary } : 'discarded';
}

/**
 * Commits the summary's next state planned from the recording and summary as re-read, retried
 * while either moved under it. A summary deleted, or whose recording went to the trash or was
 * deleted meanwhile, is discarded.
 */
async function transition(
  deps: SummaryRunDeps,
  event: { orgId: string; recordingId: string; summaryId: string },
  next: (located: Located, now: Date) => SummaryRecord | undefined,
) {
  return retryOnWriteConflict(
    async (): Promise<SummaryRecord | 'discarded' | 'ignored'> => {
      const located = await locate(deps.db, event.orgId, event.recordingId, event.summaryId);
      if (located === 'discarded') return located;
      const now = deps.now();
      const summary = next(located, now);
      if (!summary) return 'ignored';
      await commitSummaryTransition(deps.db, {
        before: located.recording,
        after: withDigest(located.recording, summary, now),
        put: { summary, expect: { updated_at: located.summary.updated_at } },
      });
      return summary;
    },
    // A consumer: exhausting the retries throws, and the queue delivers the event again.
    { attempts: 10, exhausted: () => new Error('The recording kept changing while its summary was being written') },
  );
}

/**
 * The summary consumer (recording.summary_queued): marks the summary processing, reads the
 * transcript, the template snapshot and the recorder's settings (model, conversation language,
 * `summary_enhance` and `manual` preferences as instructions, auto_add_tasks_from_summaries),
 * calls the engine, matches the action items' assignees to the organization's members, and
 * stores it completed, or failed with `<CODE>: <reason>`. Throttling gives the event back to
 * the queue after the engine's delay ({retryAfterSeconds}); on the last delivery the summary
 * fails with SUMMARY_THROTTLED. Idempotent: a summary no longer queued or processing is left alone.
 */
export async function runSummary(
  deps: SummaryRunDeps,
  event: Pick<DomainEvent, 'type' | 'org_id' | 'resource' | 'data'>,
  delivery: { attempt: number; last: boolean },
): Promise<SummaryRunOutcome> {
  if (event.type !== 'recording.summary_queued')
    throw new Error(`The summary consumer handles recording.summary_queued only, not ${event.type}`);
  const ids = { orgId: event.org_id, recordingId: event.resource.id, summaryId: String(event.data.summary_id) };
  const found = await locate(deps.db, ids.orgId, ids.recordingId, ids.summaryId);
  if (found === 'discarded') return found;
  if (found.summary.status !== 'queued' && found.summary.status !== 'processing') return 'ignored';
  const { recording } = found;
  const settingsRecord = await getRecorderSettings(deps.db, ids.orgId, recording.recorded_by);
  const settings = { ...DEFAULT_SETTINGS, ...settingsRecord?.settings };
  const modelId = deps.modelIdFor(settingsRecord?.settings.selected_model);
  const preferences = await recorderPreferences(
    deps.db,
    ids.orgId,
    recording.recorded_by,
    Math.min(settingsRecord?.preference_count ?? 0, MAX_INSTRUCTIONS_READ),
  );
  // Oldest first: a later instruction reads as refining an earlier one.
  const instructions = preferences
    .filter((preference) => (INSTRUCTION_COMMAND_TYPES as readonly string[]).includes(preference.command_type))
    .reverse()
    .map((preference) => preference.preference_content);

  const started = await transition(deps, ids, ({ summary }, now) =>
    summary.status === 'queued' ? processingSummary(summary, now, modelId) : summary.status === 'processing' ? summary : undefined,
  );
  if (started === 'discarded' || started === 'ignored') return started;

  const fail = async (code: string, reason: string): Promise<SummaryRunOutcome> => {
    const outcome = await transition(deps, ids, ({ summary }, now) =>
      summary.status === 'processing' ? failedSummary(summary, now, { code, reason }) : undefined,
    );
    if (typeof outcome === 'string') return outcome;
    deps.countMetric('SummariesFailed');
    return 'failed';
  };

  const stored = await readTranscriptSegments(deps.db, ids.orgId, ids.recordingId);
  if (!stored) return fail('TRANSCRIPT_NOT_READY', 'the recording has no completed transcript.');
  // The engine reads the turns with the names speakers were given, and names assignees so.
  const transcript = withSpeakerNames(stored, recording.speakers);
  let draft: SummaryDraft;
  try {
    draft = await deps.engine.summarize({
      modelId,
      template: { name: started.template_name, sections: started.template_sections },
      language: settings.conversation_language,
      instructions,
      transcript,
      recordedAt: recording.recording_at,
    });
  } catch (error) {
    if (error instanceof SummaryEngineError) {
      if (error.retryAfterSeconds !== undefined && !delivery.last)
        return { retryAfterSeconds: throttleDelaySeconds(delivery.attempt, error.retryAfterSeconds) };
      return fail(error.code, error.message);
    }
    if (delivery.last) return fail('SUMMARY_FAILED', 'the summary engine failed on every attempt.');
    throw error;
  }

  // An assignee the engine wrote as a speaker label that someone named: the speaker's name, and member when named as one.
  draft = { ...draft, action_items: draft.action_items.map((item) => withSpeakerAssignee(item, recording.speakers)) };
  const named = draft.action_items.some((item) => item.assignee !== null);
  const members = named ? await activeMembersForMatching(deps.db, ids.orgId) : [];
  const context: CompletionContext = {
    preferencesApplied: instructions.length,
    announceActionItems: settings.auto_add_tasks_from_summaries,
    assigneeUserIds: draft.action_items.map(
      (item) => speakerOfAssignee(item.assignee, recording.speakers)?.user_id ?? matchAssignee(item.assignee, members),
    ),
  };
  const completed = await transition(deps, ids, ({ summary }, now) =>
    summary.status === 'processing' ? completedSummary(summary, now, draft, context) : undefined,
  );
  if (typeof completed === 'string') return completed;
  deps.countMetric('SummariesCompleted');
  deps.countMetric('SummaryInputTokens', completed.usage.input_tokens);
  deps.countMetric('SummaryOutputTokens', completed.usage.output_tokens);
  return 'completed';
}
