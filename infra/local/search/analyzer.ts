import { stemmer } from 'stemmer';

/**
 * Text analysis approximating OpenSearch's `english` analyzer (standard tokenizer, possessive
 * stemmer, lowercase, English stop words, Porter stemmer) and its `standard` analyzer (the first
 * two steps and lowercase only). Indexing and querying go through the same function, so a match
 * on "approve" finds "Approved" and "approval" as it does on a cluster.
 */
export type AnalyzerName = 'english' | 'standard';

export const ANALYZERS: readonly AnalyzerName[] = ['english', 'standard'];

/** Lucene's English stop set (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET), which the english analyzer drops. */
const ENGLISH_STOP_WORDS = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(
    ' ',
  ),
);

/**
 * A word: letters, marks and digits, joined by apostrophes inside words ("don't") and by points or
 * commas between digits ("3.5"), as the standard tokenizer keeps them together.
 */
const WORD = /[\p{L}\p{M}\p{N}]+(?:(?:['’]|(?<=\p{N})[.,](?=\p{N}))[\p{L}\p{M}\p{N}]+)*/gu;

/** A word of the original text: where it is, and its analyzed term (undefined for a stop word, which matches nothing). */
export interface Token {
  term: string | undefined;
  start: number;
  end: number;
}

/**
 * Stems already computed: a meeting's vocabulary is small and every passage repeats it, so
 * indexing and highlighting stem each word once rather than at every occurrence. Emptied when
 * it grows past STEMS_KEPT, so memory stays bounded whatever the text.
 */
const stems = new Map<string, string>();
const STEMS_KEPT = 50_000;

function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    if (stems.size >= STEMS_KEPT) stems.clear();
    stem = stemmer(word);
    stems.set(word, stem);
  }
  return stem;
}

export function tokenize(text: string, analyzer: AnalyzerName): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(WORD)) {
    const start = match.index;
    let word = match[0].toLowerCase();
    if (analyzer === 'standard') {
      tokens.push({ term: word, start, end: start + match[0].length });
      continue;
    }
    word = word.replace(/['’]s$/, '');
    tokens.push({ term: ENGLISH_STOP_WORDS.has(word) ? undefined : stemOf(word), start, end: start + match[0].length });
  }
  return tokens;
}

/** The terms of a text in order, stop words left out (phrases compare these sequences). */
export function analyze(text: string, analyzer: AnalyzerName): string[] {
  return tokenize(text, analyzer).flatMap((token) => (token.term === undefined ? [] : [token.term]));
}

/**
 * A phrase as OpenSearch's match_phrase sees it: its terms, each with its position relative to the
 * first. A stop word is not a term but keeps its position, so "approve the budget" matches
 * "approve this budget" and not "approve budget", as on a cluster.
 */
export interface PhraseTerm {
  term: string;
  offset: number;
}

export function phraseOf(text: string, analyzer: AnalyzerName): PhraseTerm[] {
  const tokens = tokenize(text, analyzer);
  const first = tokens.findIndex((token) => token.term !== undefined);
  return tokens.flatMap((token, i) => (token.term === undefined ? [] : [{ term: token.term, offset: i - first }]));
}

/** The positions (indexes into `tokens`) where the phrase starts. */
export function phraseStarts(tokens: readonly Token[], phrase: readonly PhraseTerm[]): number[] {
  const starts: number[] = [];
  if (!phrase.length) return starts;
  for (let i = 0; i < tokens.length; i++) if (phrase.every(({ term, offset }) => tokens[i + offset]?.term === term)) starts.push(i);
  return starts;
}
