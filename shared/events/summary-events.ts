import type { EventType } from '../schemas/event-catalog';
import type { Recording } from '../storage/recording-items';
import type { SummaryRecord } from '../storage/summary-items';

/** One summary event of a change: its type, its data, and when it happened. */
export interface SummaryEvent {
  type: Extract<EventType, `recording.summary_${string}`>;
  data: Record<string, unknown>;
  occurredAt: string;
}

/**
 * The summary events of a recording change (docs/events.md), read from its summaries' digest:
 * a digest that arrives queued, or whose status moves to completed or failed. Ids, the model
 * and the error code only, never the summary's text (nor its excerpt). A removed digest (a
 * deleted summary) and a digest that only restamps say nothing.
 */
export function summaryEventsOf(previous: Recording, recording: Recording): SummaryEvent[] {
  const before = new Map((previous.summaries ?? []).map((digest) => [digest.id, digest]));
  const events: SummaryEvent[] = [];
  for (const digest of recording.summaries ?? []) {
    const was = before.get(digest.id);
    if (was?.status === digest.status) continue;
    const common = { summary_id: digest.id, template_id: digest.template_id };
    if (digest.status === 'queued' && !was) events.push({ type: 'recording.summary_queued', data: common, occurredAt: digest.created_at });
    if (digest.status === 'completed')
      events.push({
        type: 'recording.summary_completed',
        data: { ...common, model: digest.model ?? 'unknown' },
        occurredAt: digest.updated_at,
      });
    if (digest.status === 'failed') {
      const errorCode = digest.error?.split(':')[0] || 'SUMMARY_FAILED';
      events.push({
        type: 'recording.summary_failed',
        data: { ...common, model: digest.model, error_code: errorCode },
        occurredAt: digest.updated_at,
      });
    }
  }
  return events;
}

/**
 * The action items a summary change announces: each item of a summary that has just completed
 * while its recorder's auto_add_tasks_from_summaries was on (recorded on the summary as
 * `announce_action_items`), so a task tool subscribed by webhook receives them. Ids, the
 * assignee's user id and the due date only, never the item's text.
 */
export function actionItemEventsOf(
  previous: SummaryRecord | undefined,
  summary: SummaryRecord,
): { data: Record<string, unknown>; occurredAt: string }[] {
  if (summary.status !== 'completed' || previous?.status === 'completed' || !summary.announce_action_items) return [];
  return summary.action_items.map((item) => ({
    data: { summary_id: summary.id, action_item_id: item.id, assignee_user_id: item.assignee_user_id, due_date: item.due_date },
    occurredAt: summary.updated_at,
  }));
}
