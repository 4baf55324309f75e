import { createHash } from 'node:crypto';
import { SUMMARY_IN_FLIGHT } from '../../core/summary-statuses';
import { SUMMARY_LIMITS } from '../../core/limits';
import type { Recording } from '../../storage/recording-items';
import { digestOf, type StoredActionItem, type SummaryDigest, type SummaryRecord } from '../../storage/summary-items';
import type { SummaryDraft } from '../../summarization/summary-engine';
import { restampedAt } from '../transcription/transcription-changes';

/**
 * A summary's transitions as plain functions (docs/summaries.md): each returns the summary to
 * store and the recording with its digest changed and `updated_at` restamped. Storage commits
 * both only while the recording is still as read.
 */

/** The template a summary is made with, as snapshotted when it is queued (a deleted template's summaries keep it). */
export interface TemplateSnapshot {
  id: string | null;
  name: string;
  sections: { title: string; prompt: string }[];
}

/** A summary id derived from the event that queued it: a redelivered event finds the same id, and adds nothing. */
export function summaryIdForEvent(eventId: string): string {
  return `sum_${createHash('sha256').update(eventId).digest('hex').slice(0, 20)}`;
}

/** The excerpt a list shows of a summary's markdown: at most `chars` characters, control characters as spaces. */
export function excerptOf(markdown: string, chars: number = SUMMARY_LIMITS.excerpt): string {
  const clean = markdown.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  const cut = [...clean].slice(0, chars).join('');
  return cut;
}

/**
 * How long a summary may stay queued or processing before it no longer holds its template: the
 * writer's 8 deliveries with throttling delays of at most 15 minutes and 5-minute runs end well
 * within it. Longer, the writer never finished it (its recording was in the trash when it ran,
 * then restored; or its messages went to the dead-letter queue): a new one may be asked for.
 */
export const STALE_IN_FLIGHT_MS = 3 * 60 * 60_000;

/** Whether a summary is queued or running and still holds its template (SUMMARY_IN_PROGRESS). */
export function isSummaryInFlight(digest: Pick<SummaryDigest, 'status' | 'updated_at'>, now: Date): boolean {
  return SUMMARY_IN_FLIGHT.includes(digest.status) && now.getTime() - Date.parse(digest.updated_at) < STALE_IN_FLIGHT_MS;
}

/** The recording with one summary's digest entry set (added at the end when new), restamped. */
export function withDigest(recording: Recording, summary: SummaryRecord, now: Date): Recording {
  const digests = recording.summaries ?? [];
  const entry = digestOf(summary, summary.status === 'completed' ? excerptOf(summary.markdown) : '');
  const next = digests.some((digest) => digest.id === summary.id)
    ? digests.map((digest) => (digest.id === summary.id ? entry : digest))
    : [...digests, entry];
  return {
    ...recording,
    summaries: next,
    related: { ...recording.related, summary: true },
    summarizations_errors: errorsOf(next),
    updated_at: restampedAt(recording, now),
  };
}

/** The recording without one summary's digest entry, restamped. */
export function withoutDigest(recording: Recording, summaryId: string, now: Date): Recording {
  const next = (recording.summaries ?? []).filter((digest) => digest.id !== summaryId);
  return { ...recording, summaries: next, summarizations_errors: errorsOf(next), updated_at: restampedAt(recording, now) };
}

/** The recording's `summarizations_errors`: the reasons of its failed summaries. */
function errorsOf(digests: SummaryDigest[]): string[] {
  return digests.flatMap((digest) => (digest.status === 'failed' && digest.error ? [digest.error] : []));
}

/** A new summary, queued. */
export function queuedSummary(recording: Recording, id: string, template: TemplateSnapshot, now: Date): SummaryRecord {
  const at = now.toISOString();
  return {
    id,
    org_id: recording.org_id,
    recording_id: recording.id,
    template_id: template.id,
    template_name: template.name,
    template_sections: template.sections,
    status: 'queued',
    error: null,
    model: null,
    language: null,
    markdown: '',
    sections: [],
    action_items: [],
    preferences_applied: 0,
    usage: { input_tokens: 0, output_tokens: 0 },
    announce_action_items: false,
    created_at: at,
    updated_at: at,
  };
}

const stamp = (summary: SummaryRecord, now: Date) => {
  const read = Date.parse(summary.updated_at);
  return new Date(Math.max(now.getTime(), Number.isNaN(read) ? 0 : read + 1)).toISOString();
};

/** Picked up by the engine's consumer: the model it is written with is known from now on. */
export function processingSummary(summary: SummaryRecord, now: Date, model: string): SummaryRecord {
  return { ...summary, status: 'processing', model, updated_at: stamp(summary, now) };
}

const cut = (text: string, chars: number) => {
  const characters = [...text];
  return characters.length <= chars ? text : `${characters.slice(0, chars - 1).join('')}…`;
};

/** What the consumer found besides the draft. */
export interface CompletionContext {
  preferencesApplied: number;
  announceActionItems: boolean;
  /** Each draft action item's member, by the assignee the model named (null: nobody, or ambiguous). */
  assigneeUserIds: (string | null)[];
}

/**
 * Completed: the draft's sections (cut so that the whole stays within SUMMARY_LIMITS), its
 * action items with ids in order (`ai_1`, …), usage and language.
 */
export function completedSummary(summary: SummaryRecord, now: Date, draft: SummaryDraft, context: CompletionContext): SummaryRecord {
  const perSection = Math.floor(SUMMARY_LIMITS.markdown / Math.max(1, draft.sections.length));
  const actionItems: StoredActionItem[] = draft.action_items.slice(0, SUMMARY_LIMITS.actionItems).map((item, index) => ({
    id: `ai_${index + 1}`,
    text: cut(item.text, SUMMARY_LIMITS.actionItemText),
    assignee: item.assignee === null ? null : cut(item.assignee, SUMMARY_LIMITS.assignee),
    assignee_user_id: context.assigneeUserIds[index] ?? null,
    due_date: item.due_date,
    completed: false,
    timestamp: item.timestamp,
  }));
  return {
    ...summary,
    status: 'completed',
    error: null,
    model: draft.model,
    language: draft.language,
    markdown: cut(draft.markdown, SUMMARY_LIMITS.markdown),
    sections: draft.sections.map((section) => ({ title: section.title, markdown: cut(section.markdown, perSection) })),
    action_items: actionItems,
    preferences_applied: context.preferencesApplied,
    usage: { input_tokens: draft.usage.input_tokens, output_tokens: draft.usage.output_tokens },
    announce_action_items: context.announceActionItems,
    updated_at: stamp(summary, now),
  };
}

/** Failed: `error` is `<CODE>: <reason>` (cut to SUMMARY_LIMITS.error). */
export function failedSummary(summary: SummaryRecord, now: Date, failure: { code: string; reason: string }): SummaryRecord {
  // Control characters as spaces: the reason is shown in every list item's summarizations_errors.
  return {
    ...summary,
    status: 'failed',
    error: cut(excerptOf(`${failure.code}: ${failure.reason}`, SUMMARY_LIMITS.error + 1), SUMMARY_LIMITS.error),
    updated_at: stamp(summary, now),
  };
}

/** One action item marked done or not. */
export function withActionItem(summary: SummaryRecord, now: Date, itemId: string, completed: boolean): SummaryRecord {
  return {
    ...summary,
    action_items: summary.action_items.map((item) => (item.id === itemId ? { ...item, completed } : item)),
    updated_at: stamp(summary, now),
  };
}

/**
 * The summary Get recording shows (`include=summary`, `include=action_items`): the latest
 * completed with the organization's default template, else the latest completed.
 */
export function featuredDigest(recording: Recording, defaultTemplateId: string | undefined): SummaryDigest | undefined {
  const completed = (recording.summaries ?? []).filter((digest) => digest.status === 'completed');
  const latest = (digests: SummaryDigest[]) =>
    digests.reduce<SummaryDigest | undefined>((best, digest) => (!best || digest.created_at >= best.created_at ? digest : best), undefined);
  return (
    (defaultTemplateId !== undefined ? latest(completed.filter((digest) => digest.template_id === defaultTemplateId)) : undefined) ??
    latest(completed)
  );
}
