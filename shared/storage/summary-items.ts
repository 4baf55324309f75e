import { SUMMARY_STATUSES, type SummaryStatus } from '../core/summary-statuses';
import { changeStamp } from './change-stamp';
import { itemFields, nestedItemFields } from './item-fields';
import { keys } from './keys';

/**
 * Summaries as items (docs/summaries.md, docs/data-model.md): the recording item carries a
 * compact digest of each (`summaries`), each summary's content is an item of its own in the
 * recording's key range (`REC#<id>#SUMMARY#<summaryId>`). Types, builders and the explicit
 * mappers; no DynamoDB client here (the event processor maps these items and bundles none).
 */
type Item = Record<string, unknown>;

/** A summary as the recording's digest lists it: what lists, refusals and `include=summary` decide from without reading the summary. */
export interface SummaryDigest {
  id: string;
  template_id: string | null;
  template_name: string;
  status: SummaryStatus;
  model: string | null;
  /** The first characters of its markdown (empty until completed). */
  excerpt: string;
  /** `<CODE>: <reason>` when failed, else null. */
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface StoredActionItem {
  id: string;
  text: string;
  /** The name the model gave, as written. */
  assignee: string | null;
  assignee_user_id: string | null;
  due_date: string | null;
  completed: boolean;
  timestamp: number | null;
}

/** A summary's own item: its content and the template snapshot taken when it was queued. */
export interface SummaryRecord {
  id: string;
  org_id: string;
  recording_id: string;
  template_id: string | null;
  template_name: string;
  template_sections: { title: string; prompt: string }[];
  status: SummaryStatus;
  error: string | null;
  model: string | null;
  language: string | null;
  markdown: string;
  sections: { title: string; markdown: string }[];
  action_items: StoredActionItem[];
  preferences_applied: number;
  usage: { input_tokens: number; output_tokens: number };
  /** The recorder's auto_add_tasks_from_summaries when it completed: whether its action items are announced (action_item.created). */
  announce_action_items: boolean;
  created_at: string;
  updated_at: string;
}

/** The part name of a summary's item in its recording's key range. */
export const summaryPart = (summaryId: string) => `SUMMARY#${summaryId}`;

/** The summary's item. */
export function summaryItem(summary: SummaryRecord) {
  return { ...keys.recordingPart(summary.org_id, summary.recording_id, summaryPart(summary.id)), ...summary, ...changeStamp() };
}

/** Its digest entry. */
export function digestOf(summary: SummaryRecord, excerpt: string): SummaryDigest {
  return {
    id: summary.id,
    template_id: summary.template_id,
    template_name: summary.template_name,
    status: summary.status,
    model: summary.model,
    excerpt,
    error: summary.error,
    created_at: summary.created_at,
    updated_at: summary.updated_at,
  };
}

/** Maps one digest entry of a recording item. */
export function digestFromMap(owner: Item, value: unknown): SummaryDigest {
  const fields = nestedItemFields(owner, value, 'summary digest');
  return {
    id: fields.string('id'),
    template_id: fields.nullableString('template_id'),
    template_name: fields.string('template_name'),
    status: fields.oneOf('status', SUMMARY_STATUSES),
    model: fields.nullableString('model'),
    excerpt: fields.string('excerpt'),
    error: fields.nullableString('error'),
    created_at: fields.string('created_at'),
    updated_at: fields.string('updated_at'),
  };
}

/** Maps a stored summary item (StoredItemError when it lacks a field it needs). */
export function summaryRecordFromItem(item: Item): SummaryRecord {
  const fields = itemFields(item, 'summary');
  const usage = nestedItemFields(item, item.usage ?? {}, 'summary usage');
  return {
    id: fields.string('id'),
    org_id: fields.string('org_id'),
    recording_id: fields.string('recording_id'),
    template_id: fields.nullableString('template_id'),
    template_name: fields.string('template_name'),
    template_sections: fields.list('template_sections').map((entry) => {
      const section = nestedItemFields(item, entry, 'summary template section');
      return { title: section.string('title'), prompt: section.string('prompt') };
    }),
    status: fields.oneOf('status', SUMMARY_STATUSES),
    error: fields.nullableString('error'),
    model: fields.nullableString('model'),
    language: fields.nullableString('language'),
    markdown: fields.string('markdown'),
    sections: fields.list('sections').map((entry) => {
      const section = nestedItemFields(item, entry, 'summary section');
      return { title: section.string('title'), markdown: section.string('markdown') };
    }),
    action_items: fields.list('action_items').map((entry) => {
      const action = nestedItemFields(item, entry, 'summary action item');
      return {
        id: action.string('id'),
        text: action.string('text'),
        assignee: action.nullableString('assignee'),
        assignee_user_id: action.nullableString('assignee_user_id'),
        due_date: action.nullableString('due_date'),
        completed: action.boolean('completed'),
        timestamp: (entry as Item).timestamp === null ? null : (action.optionalNumber('timestamp') ?? null),
      };
    }),
    preferences_applied: fields.optionalNumber('preferences_applied') ?? 0,
    usage: { input_tokens: usage.optionalNumber('input_tokens') ?? 0, output_tokens: usage.optionalNumber('output_tokens') ?? 0 },
    announce_action_items: fields.optionalBoolean('announce_action_items') ?? false,
    created_at: fields.string('created_at'),
    updated_at: fields.string('updated_at'),
  };
}
