import * as v from 'valibot';
import { Id } from './common';

// Local, as recordings.ts has it: a route's bundle carries its request schemas' module alone, not the envelopes.
const described = <S extends v.GenericSchema>(schema: S, description: string) => v.pipe(schema, v.description(description));

/* The summary routes' requests (docs/summaries.md). */

/** Body of Create summary (both hosts): optional, and so is its one field. */
export const CreateSummaryBody = v.optional(
  v.strictObject({
    template_id: described(
      v.optional(Id),
      "The template to summarize with (`tpl_…`); absent: the organization's default template, else the built-in one (Overview, Key points, Decisions, Action items).",
    ),
  }),
  {},
);
export type CreateSummaryBody = v.InferOutput<typeof CreateSummaryBody>;

/** Body of Update action item. */
export const UpdateActionItemBody = v.strictObject({
  completed: described(v.boolean(), 'Whether the action item is done.'),
});
export type UpdateActionItemBody = v.InferOutput<typeof UpdateActionItemBody>;
