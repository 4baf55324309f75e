import type { RecognizedWord } from './piece-words';
import { lettersOf, phoneticKey, similarity } from './phonetic-key';

/**
 * A custom vocabulary applied after recognition: the local engine (Moonshine) cannot be biased
 * towards words as Transcribe is, so the stand-in replaces near-misses of each term in the words
 * it heard. Every window of words as long as a term's phrase, one word shorter or longer
 * (engines split and merge words: "ill disposed" comes out as "ill-sposed"), is compared with
 * the phrase and each sounds_like, by sound key and by spelling; a window scoring at least
 * MATCH_THRESHOLD becomes the term's written form (display_as, else the phrase), its words'
 * confidence the score, its times spanning the window. Exact matches win over near ones, and
 * windows never overlap. To leave right words alone: a term shorter than MIN_FUZZY_LETTERS
 * letters only matches exactly, a window of common words only is never changed, and a window
 * never runs across a sentence's end. docs/vocabulary-engine.md has the measured effect.
 */
export interface CorrectionTerm {
  phrase: string;
  soundsLike?: string[];
  displayAs?: string;
}

export interface Correction {
  /** The words heard, as the engine wrote them. */
  from: string;
  /** The written form put in their place. */
  to: string;
  start: number;
  end: number;
  score: number;
}

/** Weighted sound-key and spelling similarity a window needs to become a term. */
export const MATCH_THRESHOLD = 0.65;
/** Terms with fewer letters match only exactly: short words have too many sound-alikes. */
export const MIN_FUZZY_LETTERS = 5;
const SOUND_WEIGHT = 0.6;
const MAX_WINDOW = 8;

/** Words too common to be a misheard term: a window of these alone is left as heard. */
const COMMON = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her him his how i if in is it its ' +
    'me my no not now of on one or our out she so than that the their them then there these they this to too two up us ' +
    'was we were what when where which who why will with would you your yes all any some just like more most very'
  ).split(' '),
);

interface Form {
  letters: string;
  key: string;
}

interface Prepared {
  words: number;
  letters: number;
  forms: Form[];
  display: string[];
  exact: string;
}

const formOf = (text: string): Form => ({ letters: lettersOf(text), key: phoneticKey(text) });

function prepare(term: CorrectionTerm): Prepared {
  const words = term.phrase.split(/[\s-]+/).filter(Boolean);
  const spoken = words.join(' ');
  const display = (term.displayAs?.trim() || spoken).split(/\s+/).filter(Boolean);
  return {
    words: words.length,
    letters: lettersOf(spoken).length,
    forms: [formOf(spoken), ...(term.soundsLike ?? []).map(formOf)],
    display,
    exact: lettersOf(spoken),
  };
}

/** How well heard letters match a term: the best of its forms, sound key and spelling weighed. */
function scoreOf(heard: Form, term: Prepared): number {
  let best = 0;
  for (const form of term.forms) {
    const score = SOUND_WEIGHT * similarity(heard.key, form.key, true) + (1 - SOUND_WEIGHT) * similarity(heard.letters, form.letters);
    best = Math.max(best, score);
  }
  return best;
}

interface Candidate {
  start: number;
  size: number;
  term: Prepared;
  score: number;
  exact: boolean;
}

/** Every window that matches a term well enough, exact ones marked. */
function candidatesOf(words: readonly RecognizedWord[], terms: Prepared[]): Candidate[] {
  const found: Candidate[] = [];
  for (let start = 0; start < words.length; start++) {
    for (let size = 1; size <= MAX_WINDOW && start + size <= words.length; size++) {
      const window = words.slice(start, start + size);
      // A window does not run across a sentence's end or a comma: a term is said in one breath.
      if (window.slice(0, -1).some((word) => word.punctuation)) break;
      const heard = formOf(window.map((word) => word.word).join(' '));
      const isCommon = window.map((word) => COMMON.has(lettersOf(word.word)));
      // All common words, or a common word at an edge ("he wants" is not "hearts"): not a term misheard.
      const common = isCommon.every(Boolean) || (size > 1 && (isCommon[0] || isCommon[size - 1]));
      for (const term of terms) {
        if (size < term.words - 1 || size > term.words + 1) continue;
        if (heard.letters === term.exact) {
          found.push({ start, size, term, score: 1, exact: true });
          continue;
        }
        if (common || term.letters < MIN_FUZZY_LETTERS) continue;
        // A window far longer or shorter than the term is another thing said.
        if (heard.letters.length < term.letters * 0.6 || heard.letters.length > term.letters * 1.6) continue;
        const score = scoreOf(heard, term);
        if (score >= MATCH_THRESHOLD) found.push({ start, size, term, score, exact: false });
      }
    }
  }
  return found;
}

/** Shares the span of a window among the words put in its place, in proportion to their letters. */
function timed(window: RecognizedWord[], display: string[], score: number): RecognizedWord[] {
  const first = window[0];
  const last = window.at(-1)!;
  const span = last.end - first.start;
  const weights = display.map((word) => lettersOf(word).length + 1);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let done = 0;
  const round = (seconds: number) => Math.round(seconds * 1000) / 1000;
  return display.map((word, index) => {
    const start = first.start + (done / total) * span;
    done += weights[index];
    return {
      word,
      start: round(start),
      end: round(first.start + (done / total) * span),
      confidence: Math.round(score * 1000) / 1000,
      ...(index === display.length - 1 && last.punctuation ? { punctuation: last.punctuation } : {}),
      ...(first.speaker !== undefined ? { speaker: first.speaker } : {}),
    };
  });
}

/** The first word keeps a capital it had at a sentence's start when the term is written in lower case. */
function cased(display: string[], heard: RecognizedWord): string[] {
  const capital = /^\p{Lu}/u.test(heard.word) && /^\p{Ll}/u.test(display[0]);
  return capital ? [display[0][0].toUpperCase() + display[0].slice(1), ...display.slice(1)] : display;
}

/** The words with the vocabulary applied, and each replacement made. */
export function correctWords(
  words: readonly RecognizedWord[],
  terms: readonly CorrectionTerm[],
): { words: RecognizedWord[]; corrections: Correction[] } {
  const prepared = terms.filter((term) => lettersOf(term.phrase)).map(prepare);
  const candidates = candidatesOf(words, prepared).sort(
    (a, b) => Number(b.exact) - Number(a.exact) || b.score - a.score || Math.abs(a.size - a.term.words) - Math.abs(b.size - b.term.words),
  );
  const taken = new Array<boolean>(words.length).fill(false);
  const chosen: Candidate[] = [];
  for (const candidate of candidates) {
    const span = taken.slice(candidate.start, candidate.start + candidate.size);
    if (span.some(Boolean)) continue;
    span.forEach((_, offset) => (taken[candidate.start + offset] = true));
    chosen.push(candidate);
  }
  chosen.sort((a, b) => a.start - b.start);
  const out: RecognizedWord[] = [];
  const corrections: Correction[] = [];
  let next = 0;
  for (const candidate of chosen) {
    out.push(...words.slice(next, candidate.start));
    const window = words.slice(candidate.start, candidate.start + candidate.size);
    const display = cased(candidate.term.display, window[0]);
    const from = window.map((word) => word.word).join(' ');
    // An exact match already written as the term stays as heard, confidence and all.
    if (from === display.join(' ')) out.push(...window);
    else {
      const replaced = timed(window, display, candidate.score);
      out.push(...replaced);
      corrections.push({ from, to: display.join(' '), start: window[0].start, end: window.at(-1)!.end, score: replaced[0].confidence });
    }
    next = candidate.start + candidate.size;
  }
  out.push(...words.slice(next));
  return { words: out, corrections };
}
