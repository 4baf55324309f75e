import * as v from 'valibot';
import { SUMMARY_STATUSES } from '../core/summary-statuses';
import { createdAt, described, envelope, NullableString, updatedAt } from './envelopes';
import { ActionItem } from './recording-responses';

/* The summary routes' responses, for the OpenAPI document and the contract check. */
export const SummaryResponse = v.strictObject({
  id: described(v.string(), "The summary's id (`sum_…`)."),
  recording_id: described(v.string(), 'The recording summarized.'),
  template_id: described(NullableString, 'The template it is made with; null for the built-in template.'),
  template_name: described(
    v.string(),
    "That template's name when the summary was queued (kept when the template is deleted), or `Standard summary` for the built-in one.",
  ),
  status: described(v.picklist(SUMMARY_STATUSES), '`queued`, then `processing`, then `completed` or `failed` (see `error`).'),
  error: described(
    NullableString,
    'Why it failed, as `<CODE>: <reason>` (`MODEL_UNAVAILABLE`, `SUMMARY_OUTPUT_INVALID`, `SUMMARY_THROTTLED`, `TRANSCRIPT_NOT_READY`, `SUMMARY_FAILED`); null unless failed.',
  ),
  model: described(
    NullableString,
    'The model it is written with (a Amazon Bedrock model id or inference profile, or `local-extractive` locally); null while queued.',
  ),
  language: described(NullableString, 'The language it is written in (a display name such as `English`); null until completed.'),
  markdown: described(
    v.string(),
    'The whole summary, markdown (`## <section title>` then its text, for each section); empty until completed.',
  ),
  sections: described(
    v.array(
      v.strictObject({
        title: described(v.string(), "The template section's title."),
        markdown: described(v.string(), 'Its text, markdown.'),
      }),
    ),
    "One per template section, in the template's order; empty until completed.",
  ),
  action_items: described(v.array(ActionItem), 'The action items found, in the order said; empty until completed.'),
  preferences_applied: described(
    v.number(),
    "How many of the recorder's preferences (`summary_enhance` and `manual`) were given to the model as standing instructions.",
  ),
  usage: described(
    v.strictObject({
      input_tokens: described(v.number(), 'Model input tokens, every call summed.'),
      output_tokens: described(v.number(), 'Model output tokens.'),
    }),
    "The model's token usage.",
  ),
  created_at: createdAt('summary'),
  updated_at: updatedAt('summary'),
});

export const SummaryListResponse = v.strictObject({
  summaries: described(v.array(SummaryResponse), "The recording's summaries (at most 20), newest first."),
});
export const PublicSummaryResponse = envelope(described(SummaryResponse, 'The summary.'));
export const PublicSummaryListResponse = envelope(described(SummaryListResponse, "The recording's summaries."));
