import * as v from 'valibot';

/** Template limits (docs/decisions.md). */
export const TEMPLATE_LIMITS = { name: 200, description: 2_000, sections: 50, sectionTitle: 200, prompt: 10_000 } as const;

const text = (max: number, allowEmpty = false) =>
  v.pipe(
    v.string('must be a string'),
    v.check((value) => allowEmpty || value.trim().length > 0, 'must not be empty'),
    v.maxLength(max, `must be at most ${max.toLocaleString('en-US')} characters`),
  );

const Section = v.strictObject({
  title: text(TEMPLATE_LIMITS.sectionTitle),
  prompt: text(TEMPLATE_LIMITS.prompt),
});

const Sections = v.pipe(
  v.array(Section, 'must be an array of {title, prompt}'),
  v.minLength(1, 'must hold at least one section'),
  v.maxLength(TEMPLATE_LIMITS.sections, `must hold at most ${TEMPLATE_LIMITS.sections} sections`),
);

export const CreateTemplateBody = v.strictObject({
  name: text(TEMPLATE_LIMITS.name),
  description: v.optional(text(TEMPLATE_LIMITS.description, true), ''),
  sections: Sections,
});
export type CreateTemplateBody = v.InferOutput<typeof CreateTemplateBody>;

/** PATCH: every field optional, at least one; sections replaces the whole array. */
export const UpdateTemplateBody = v.pipe(
  v.strictObject({
    name: v.optional(text(TEMPLATE_LIMITS.name)),
    description: v.optional(text(TEMPLATE_LIMITS.description, true)),
    sections: v.optional(Sections),
  }),
  v.check((body) => Object.keys(body).length > 0, 'give at least one of name, description, sections'),
);
export type UpdateTemplateBody = v.InferOutput<typeof UpdateTemplateBody>;
