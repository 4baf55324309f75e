/**
 * A summary's markdown as translatable lines: each line's markdown prefix (a heading's `## `, a
 * list item's `- ` or `1. `, a task box, a quote's `> `) is kept as is and only its text is
 * translated, so the translated summary keeps its structure whatever the engine does to `#`.
 */
export interface MarkdownLine {
  prefix: string;
  text: string;
}

const PREFIX = /^(\s*(?:#{1,6}\s+|[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+|>\s*)?)(.*)$/;

export function markdownLinesOf(markdown: string): MarkdownLine[] {
  return markdown.split('\n').map((line) => {
    const [, prefix = '', text = ''] = PREFIX.exec(line) ?? [];
    return { prefix, text };
  });
}

/** The lines back together, with their translated texts in order. */
export function markdownOf(lines: MarkdownLine[], translated: string[]): string {
  return lines.map((line, index) => `${line.prefix}${translated[index] ?? ''}`).join('\n');
}
