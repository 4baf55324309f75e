import type { StoredActionItem, SummaryRecord } from '../../storage/summary-items';

/** An action item as the API shows it. */
export function actionItemView(item: StoredActionItem) {
  return {
    id: item.id,
    text: item.text,
    assignee: item.assignee,
    assignee_user_id: item.assignee_user_id,
    due_date: item.due_date,
    completed: item.completed,
    timestamp: item.timestamp,
  };
}

/** The Summary resource: its content, never the template snapshot's prompts or the bookkeeping. */
export function summaryView(summary: SummaryRecord) {
  return {
    id: summary.id,
    recording_id: summary.recording_id,
    template_id: summary.template_id,
    template_name: summary.template_name,
    status: summary.status,
    error: summary.error,
    model: summary.model,
    language: summary.language,
    markdown: summary.markdown,
    sections: summary.sections,
    action_items: summary.action_items.map(actionItemView),
    preferences_applied: summary.preferences_applied,
    usage: summary.usage,
    created_at: summary.created_at,
    updated_at: summary.updated_at,
  };
}
