import * as v from 'valibot';
import { createdAt, described, PagePagination, updatedAt } from './envelopes';

/** Summarization templates as the API answers them, for the OpenAPI document and the contract check. */
export const Template = v.strictObject({
  id: described(v.string(), "The template's id."),
  name: described(v.string(), 'Its name, as members see it.'),
  description: described(v.string(), 'What it is for (may be empty).'),
  sections: described(
    v.array(
      v.strictObject({
        title: described(v.string(), 'The heading of this part of the summary.'),
        prompt: described(v.string(), 'What the AI writes under it.'),
      }),
    ),
    'The parts of a summary made with it, in order.',
  ),
  is_default: described(v.boolean(), "Whether it is the organization's default template (at most one is): automatic summaries use it."),
  created_at: createdAt('template'),
  updated_at: updatedAt('template'),
});
/** A page of templates (`pagination` added when the list became paged; `templates` unchanged). */
export const TemplateListResponse = v.strictObject({
  templates: described(v.array(Template), "This page of the organization's templates, by name (case-insensitive), then id."),
  pagination: described(PagePagination, 'Where this page is in the list.'),
});
