import type { ScoredSpan } from './scored-span';
import { folded, type LanguageFamily, type Token } from './text-tokens';

/**
 * Email addresses, written ("john.smith@example.com") in every language, and in English and
 * Spanish also said: "john dot smith at example dot com", "maria punto lopez arroba gmail punto
 * com", or half and half ("john.smith at gmail dot com"). A said address needs a known top-level
 * domain at its end, so "meet at the office" is never one. Spelled-out letters ("j o h n") are not read.
 */

const WRITTEN = /[a-z0-9][a-z0-9._%+-]*@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/gi;

interface SpokenSymbols {
  at: string[];
  dot: string[];
  /** Words said between parts of the name before the at: dot, underscore, dash. */
  joiners: string[];
}

const SYMBOLS: Record<LanguageFamily, SpokenSymbols | undefined> = {
  en: { at: ['at'], dot: ['dot', 'period'], joiners: ['dot', 'period', 'underscore', 'dash', 'hyphen'] },
  es: { at: ['arroba'], dot: ['punto'], joiners: ['punto', 'guion', 'guion bajo', 'bajo'] },
  other: undefined,
};

const TOP_LEVEL = new Set(
  'com net org edu gov mil int io co uk us es mx ar cl pe fr de it pt br ca au eu info biz me ai app dev tv uy ve ec bo py cr gt'.split(
    ' ',
  ),
);
const LABEL = /^[a-z0-9](?:[a-z0-9._%+-]*[a-z0-9])?$/;

export function findEmails(text: string, tokens: readonly Token[], family: LanguageFamily): ScoredSpan[] {
  const spans: ScoredSpan[] = [];
  for (const match of text.matchAll(WRITTEN))
    spans.push({ type: 'EMAIL', start: match.index, end: match.index + match[0].length, score: 0.99 });
  const symbols = SYMBOLS[family];
  if (!symbols) return spans;
  const norms = tokens.map((token) => folded(token.norm));

  norms.forEach((norm, at) => {
    // "at" said, or an at sign written in a word whose domain is said ("john@gmail dot com").
    const saidAt = symbols.at.includes(norm);
    const writtenAt = !saidAt && /^[^@]+@[^@]+$/.test(norm) && !/\.[a-z]{2,}$/.test(norm);
    if (!saidAt && !writtenAt) return;
    const domainEnd = domainEndFrom(norms, saidAt ? at + 1 : at, saidAt ? undefined : norm.split('@')[1], symbols);
    if (domainEnd === undefined) return;
    let localStart = saidAt ? at - 1 : at;
    if (saidAt && (localStart < 0 || !LABEL.test(norms[localStart]) || tokens[localStart].endsSentence)) return;
    while (localStart >= 2 && symbols.joiners.includes(norms[localStart - 1]) && LABEL.test(norms[localStart - 2])) localStart -= 2;
    // A name spelled letter by letter ("j o h n at …").
    while (localStart >= 1 && norms[localStart].length === 1 && /^[a-z0-9]$/.test(norms[localStart - 1])) localStart--;
    spans.push({ type: 'EMAIL', start: tokens[localStart].start, end: tokens[domainEnd].end, score: 0.95 });
  });
  return spans;
}

/** The last word of a domain starting at `from` (`written`: the domain part already in that word), if it ends in a known top-level domain. */
function domainEndFrom(norms: readonly string[], from: number, written: string | undefined, symbols: SpokenSymbols): number | undefined {
  let labels: string[];
  let at = from;
  if (written !== undefined) labels = written.split('.');
  else {
    if (at >= norms.length || !LABEL.test(norms[at])) return undefined;
    labels = norms[at].split('.');
  }
  while (at + 2 < norms.length && symbols.dot.includes(norms[at + 1]) && LABEL.test(norms[at + 2]) && !norms[at + 2].includes('@')) {
    labels.push(...norms[at + 2].split('.'));
    at += 2;
  }
  return labels.length >= 2 && TOP_LEVEL.has(labels[labels.length - 1]) ? at : undefined;
}
