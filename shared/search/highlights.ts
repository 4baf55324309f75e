/**
 * Highlights travel from the index as marker characters around each matched word (the
 * highlighter's pre and post tags); the API answers plain text with character offsets.
 * Control characters are used as markers because stored text never holds them (it is
 * cleaned of control characters when written).
 */
export const HIGHLIGHT_START = '\u0001';
export const HIGHLIGHT_END = '\u0002';

/** Plain text and `[start, end)` offsets from a highlighted field. */
export function offsetsOf(highlighted: string): { text: string; highlights: [number, number][] } {
  let text = '';
  const highlights: [number, number][] = [];
  let start = -1;
  for (const char of highlighted) {
    if (char === HIGHLIGHT_START) start = text.length;
    else if (char === HIGHLIGHT_END) {
      if (start >= 0 && text.length > start) highlights.push([start, text.length]);
      start = -1;
    } else text += char;
  }
  return { text, highlights };
}

/** The longest text a match shows. */
export const MATCH_TEXT_MAX = 300;

/**
 * The passage cut around its first highlight to at most MATCH_TEXT_MAX characters, at word
 * boundaries where it can, with the highlights that fall inside moved to the cut's offsets.
 */
export function cutAround(
  text: string,
  highlights: [number, number][],
  max = MATCH_TEXT_MAX,
): { text: string; highlights: [number, number][] } {
  if (text.length <= max) return { text, highlights };
  const first = highlights[0] ?? [0, 0];
  // Start a third of the window before the first match, so some context comes before it.
  let from = Math.max(0, Math.min(first[0] - Math.floor(max / 3), text.length - max));
  if (from > 0) {
    const space = text.indexOf(' ', from);
    if (space >= 0 && space < first[0]) from = space + 1;
  }
  let to = Math.min(text.length, from + max);
  if (to < text.length) {
    const space = text.lastIndexOf(' ', to);
    if (space > first[1]) to = space;
  }
  const inside = highlights
    .filter(([start, end]) => start >= from && end <= to)
    .map(([start, end]): [number, number] => [start - from, end - from]);
  return { text: text.slice(from, to), highlights: inside };
}
