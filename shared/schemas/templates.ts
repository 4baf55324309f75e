import * as v from 'valibot';
import { integerParam } from './validation';
import { formatCount } from './common';

/**
 * Template limits (docs/decisions.md, "Templates"; the byte arithmetic is in
 * docs/data-model.md, "Size budgets"). Lengths count UTF-16 units, as valibot's maxLength does.
 * `sectionsText` bounds the titles and prompts of all sections together: without it 50
 * sections of 10,200 characters make a template of about 1.5 MB, which no DynamoDB item
 * holds and few list pages could carry.
 */
export const TEMPLATE_LIMITS = {
  name: 200,
  description: 2_000,
  sections: 50,
  sectionTitle: 200,
  prompt: 10_000,
  /** One largest section's worth: a single prompt can still use the whole prompt limit. */
  sectionsText: 10_200,
} as const;

/**
 * List templates' page size. The default is the maximum, so a client that predates paging
 * still receives every template of an organization that keeps up to 100 of them.
 */
export const TEMPLATE_PAGE = { defaultLimit: 100, maxLimit: 100 } as const;

/**
 * C0 control characters other than tab, line feed and carriage return. Refused in template
 * text: they mean nothing in a prompt and cost 7 bytes each in a Lambda response (`\u0001`
 * escaped in the body, whose backslash is escaped again in the proxy result), where a `"`,
 * the next most expensive, costs 4. NUL never gets this far (refused at the request boundary).
 */
const CONTROL_CHARACTERS = /[\u0001-\u0008\u000B\u000C\u000E-\u001F]/;

const text = (max: number, allowEmpty = false) =>
  v.pipe(
    v.string('must be a string'),
    v.check((value) => allowEmpty || value.trim().length > 0, 'must not be empty'),
    v.maxLength(max, `must be at most ${formatCount(max)} characters`),
    v.check(
      (value) => !CONTROL_CHARACTERS.test(value),
      'must not contain control characters (tab, line feed and carriage return are allowed)',
    ),
  );

const described = <S extends v.GenericSchema>(schema: S, description: string) => v.pipe(schema, v.description(description));
const NO_CONTROL = 'no control characters but tab, line feed and carriage return';

const Section = v.strictObject({
  title: described(
    text(TEMPLATE_LIMITS.sectionTitle),
    `The heading of this part of the summary: 1 to ${TEMPLATE_LIMITS.sectionTitle} characters, ${NO_CONTROL}.`,
  ),
  prompt: described(
    text(TEMPLATE_LIMITS.prompt),
    `What the AI writes under it: 1 to ${formatCount(TEMPLATE_LIMITS.prompt)} characters, ${NO_CONTROL}.`,
  ),
});

/** The titles and prompts of a template's sections, in UTF-16 units (what sectionsText bounds). */
export function sectionsTextLength(sections: readonly { title: string; prompt: string }[]): number {
  return sections.reduce((total, section) => total + section.title.length + section.prompt.length, 0);
}

// The budget sits on `sections` rather than on the whole body, so fixtures (which reuse these
// entries) and PATCH (which replaces sections whole) are bounded by the same rule.
const Sections = v.pipe(
  v.array(Section, 'must be an array of {title, prompt}'),
  v.minLength(1, 'must hold at least one section'),
  v.maxLength(TEMPLATE_LIMITS.sections, `must hold at most ${TEMPLATE_LIMITS.sections} sections`),
  v.check(
    (sections) => sectionsTextLength(sections) <= TEMPLATE_LIMITS.sectionsText,
    `must hold at most ${formatCount(TEMPLATE_LIMITS.sectionsText)} characters of titles and prompts together`,
  ),
);

const SECTIONS_TEXT = `The parts of a summary made with it, in order: 1 to ${TEMPLATE_LIMITS.sections} sections, their titles and prompts at most ${formatCount(TEMPLATE_LIMITS.sectionsText)} characters together.`;
const NAME_TEXT = `Its name, as members see it: 1 to ${TEMPLATE_LIMITS.name} characters, ${NO_CONTROL}.`;
const DESCRIPTION_TEXT = `What it is for: at most ${formatCount(TEMPLATE_LIMITS.description)} characters, ${NO_CONTROL}.`;
const IS_DEFAULT_TEXT =
  "Whether it is the organization's default template, which automatic summaries (when a transcription completes) and summaries asked for without a template use. true makes it the default and the previous default stops being it, at once; false on the default leaves the organization without one (summaries then use the built-in template).";

export const CreateTemplateBody = v.strictObject({
  name: described(text(TEMPLATE_LIMITS.name), NAME_TEXT),
  description: described(v.optional(text(TEMPLATE_LIMITS.description, true), ''), `${DESCRIPTION_TEXT} Default empty.`),
  sections: described(Sections, SECTIONS_TEXT),
  is_default: described(v.optional(v.boolean('must be true or false'), false), `${IS_DEFAULT_TEXT} Default false.`),
});
export type CreateTemplateBody = v.InferOutput<typeof CreateTemplateBody>;

/** PATCH: every field optional, at least one; sections replaces the whole array. */
export const UpdateTemplateBody = v.pipe(
  v.strictObject({
    name: described(v.optional(text(TEMPLATE_LIMITS.name)), NAME_TEXT),
    description: described(v.optional(text(TEMPLATE_LIMITS.description, true)), DESCRIPTION_TEXT),
    sections: described(v.optional(Sections), `${SECTIONS_TEXT} Replaces the whole list.`),
    is_default: described(v.optional(v.boolean('must be true or false')), IS_DEFAULT_TEXT),
  }),
  v.check((body) => Object.keys(body).length > 0, 'give at least one of name, description, sections, is_default'),
);
export type UpdateTemplateBody = v.InferOutput<typeof UpdateTemplateBody>;

/** Query of List templates: page-based, like the other lists. */
export const ListTemplatesQuery = v.strictObject({
  page: integerParam({ defaultValue: 1, min: 1, description: 'The page to return, 1-based.' }),
  limit: integerParam({
    defaultValue: TEMPLATE_PAGE.defaultLimit,
    min: 1,
    max: TEMPLATE_PAGE.maxLimit,
    description: 'Templates per page.',
  }),
});
export type ListTemplatesQuery = v.InferOutput<typeof ListTemplatesQuery>;
