import * as v from 'valibot';
import type { DraftActionItem, SummarySection } from './summary-engine';

/**
 * The model's answer (the input of the summary tool) as it must be before anything is stored:
 * checked with valibot, then against the request (the template's titles in order, the language
 * asked for). A transcript that talks the model into another shape, other sections or another
 * language produces an answer this refuses (docs/summaries.md, "Untrusted transcripts").
 */
const isCalendarDate = (text: string) => {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
};

/** Bounds keep a runaway answer from becoming an oversized item (the domain stores the draft). */
export const OUTPUT_LIMITS = { sectionCharacters: 20_000, actionItems: 100, actionItemCharacters: 500, nameCharacters: 200 } as const;

export const SummaryOutputSchema = v.object({
  language: v.string(),
  sections: v.array(v.object({ title: v.string(), markdown: v.pipe(v.string(), v.maxLength(OUTPUT_LIMITS.sectionCharacters)) })),
  action_items: v.pipe(
    v.array(
      v.object({
        text: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(OUTPUT_LIMITS.actionItemCharacters)),
        assignee: v.nullish(v.pipe(v.string(), v.trim(), v.maxLength(OUTPUT_LIMITS.nameCharacters)), null),
        due_date: v.nullish(v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/), v.check(isCalendarDate, 'must be a calendar date')), null),
        timestamp: v.nullish(v.pipe(v.number(), v.minValue(0), v.finite()), null),
      }),
    ),
    v.maxLength(OUTPUT_LIMITS.actionItems),
  ),
});

export interface SummaryOutput {
  language: string;
  sections: { title: string; markdown: string }[];
  action_items: DraftActionItem[];
}

/**
 * The answer, or why it is refused (a short reason for logs and the error; never its text).
 * `languages`: the languages accepted, the one asked for first.
 */
export function parseSummaryOutput(
  input: unknown,
  expected: { sections: SummarySection[]; languages: string[] },
): { output: SummaryOutput } | { problem: string } {
  const result = v.safeParse(SummaryOutputSchema, input);
  if (!result.success)
    return {
      problem: `the answer does not fit the schema (${result.issues
        .map((issue) => v.getDotPath(issue) ?? 'root')
        .slice(0, 3)
        .join(', ')})`,
    };
  const { language, sections, action_items } = result.output;
  const titles = expected.sections.map((section) => section.title);
  if (sections.length !== titles.length || sections.some((section, index) => section.title !== titles[index])) {
    return { problem: `the sections are not the template's (${sections.length} given, ${titles.length} expected, in order)` };
  }
  if (!expected.languages.includes(language)) return { problem: `the summary is not in ${expected.languages[0]}` };
  return {
    output: {
      language,
      sections: sections.map((section) => ({ title: section.title, markdown: withoutOwnHeading(section.markdown, section.title) })),
      action_items: action_items.map((item) => ({
        text: item.text,
        assignee: item.assignee || null,
        due_date: item.due_date,
        timestamp: item.timestamp,
      })),
    },
  };
}

/** Models sometimes start a section with its title as a heading: the summary adds its own. */
function withoutOwnHeading(markdown: string, title: string): string {
  const lines = markdown.trim().split('\n');
  const first = lines[0]
    ?.replace(/^#+\s*/, '')
    .replace(/[*_:]+/g, '')
    .trim();
  if (lines.length && /^#+\s/.test(lines[0]) && first?.toLowerCase() === title.toLowerCase()) return lines.slice(1).join('\n').trim();
  return markdown.trim();
}

/** The whole summary: each section under `## <title>`, in order. */
export function summaryMarkdownOf(sections: { title: string; markdown: string }[]): string {
  return sections.map((section) => `## ${section.title}\n\n${section.markdown.trim()}`).join('\n\n');
}
