import type { WinkMethods } from 'wink-nlp';
import { AMBIGUOUS_NAMES, GIVEN_NAMES, STRONG_CUES, SURNAMES, WEAK_CUES } from './name-lists';
import type { ScoredSpan } from './scored-span';
import type { Token } from './text-tokens';

/**
 * Personal names in English text, with wink-nlp's English model (wink-eng-lite-web-model). That
 * model has no PERSON entity (its entities are dates, times, numbers, money, emails, URLs…), so
 * names come from its part-of-speech tags and lexicon together with word lists (name-lists.ts):
 * - a capitalised run of proper nouns holding a known name, or of words the model does not know ("Sarah Johnson", "Siobhan Nakamura");
 * - a known given name, lower case as speech engines write it ("john smith"), with the surname after it;
 * - the words after "my name is", "mister", "doctor"…, and an unknown word after "this is", "hi", "talk to"….
 * English only: other languages get no NAME detection (docs/redaction-engine.md).
 */

let nlp: WinkMethods | undefined;
/** Loaded on first use only, so a redaction without NAME (or a Lambda that never redacts) never pays for the model. */
function wink(): WinkMethods {
  if (!nlp) {
    // Both packages are CommonJS (module.exports is the function, the model): their typings say `default`.
    const interop = <T extends { default: unknown }>(module: T): T['default'] => module.default ?? module;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- required lazily: the model takes a quarter of a second to load.
    const winkNLP = interop(require('wink-nlp') as typeof import('wink-nlp'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above.
    const model = interop(require('wink-eng-lite-web-model') as typeof import('wink-eng-lite-web-model'));
    nlp = winkNLP(model);
  }
  return nlp;
}

/** Surnames that are also everyday words: after a lower-case given name they are more often the next word than a surname. */
const WORD_SURNAMES = new Set(
  'young green white black brown bell hill king wood price day love good best house small strong short rich stone snow moon glass english french church branch case rush cross wise hunt lane banks fields parks mills waters rivers grant frank sharp gross golden person little west walls cherry summers winters powers sparks flowers bond noble long may rose ray page hall ball bass mark will james paul david michael joseph george henry charles lee'.split(
    ' ',
  ),
);
const NOT_NAME_POS = new Set(['VERB', 'AUX', 'ADP', 'DET', 'PRON', 'CCONJ', 'SCONJ', 'PART', 'NUM', 'PUNCT', 'SYM', 'ADV', 'INTJ']);
const ALPHA = /^[a-zà-ÿñ][a-zà-ÿñ'-]*$/i;

interface Word {
  token: Token;
  /** Lower case, without a possessive 's. */
  key: string;
  pos: string;
  capitalised: boolean;
  oov: boolean;
}

export function findNames(text: string, tokens: readonly Token[]): ScoredSpan[] {
  if (tokens.length === 0) return [];
  const words = tagged(text, tokens);
  const spans: ScoredSpan[] = [];
  const taken = new Set<number>();
  const add = (first: number, last: number, score: number) => {
    for (let i = first; i <= last; i++) taken.add(i);
    spans.push({ type: 'NAME', start: tokens[first].start, end: tokens[last].end, score });
  };

  const isGiven = (i: number) => {
    const word = words[i];
    if (!word || !ALPHA.test(word.key) || !GIVEN_NAMES.has(word.key)) return false;
    return !AMBIGUOUS_NAMES.has(word.key) || (word.capitalised && word.pos === 'PROPN');
  };
  const isSurname = (i: number) => {
    const word = words[i];
    if (!word || !ALPHA.test(word.key) || NOT_NAME_POS.has(word.pos) || tokens[i - 1]?.endsSentence) return false;
    if (word.capitalised) return word.pos === 'PROPN' || word.oov;
    return (SURNAMES.has(word.key) && !WORD_SURNAMES.has(word.key)) || (word.oov && word.key.length > 1);
  };
  /** The last word of a name from `first`: up to two surnames, or a middle initial and one. */
  const nameEnd = (first: number) => {
    let last = first;
    for (let n = 0; n < 2; n++) {
      const initial = words[last + 1]?.key.length === 1 && /^[a-z]$/.test(words[last + 1].key) && isSurname(last + 2);
      if (initial) last += 2;
      else if (isSurname(last + 1) && !tokens[last].endsSentence) last++;
      else break;
    }
    return last;
  };

  // After a cue: "my name is …", "mister …" (strong), "this is …", "hi …" (weak).
  const keys = words.map((word) => word.token.norm);
  for (let i = 0; i < words.length; i++) {
    const strong = cueEndingAt(keys, i, STRONG_CUES);
    const weak = strong ? undefined : cueEndingAt(keys, i, WEAK_CUES);
    const first = i + 1;
    const next = words[first];
    if ((!strong && !weak) || !next || taken.has(first) || tokens[i].endsSentence || !ALPHA.test(next.key)) continue;
    const nameLike = strong
      ? !NOT_NAME_POS.has(next.pos)
      : isGiven(first) || (next.oov && next.key.length > 2 && !NOT_NAME_POS.has(next.pos));
    if (!nameLike) continue;
    const last = strong ? Math.min(first + 2, strongEnd(first)) : nameEnd(first);
    add(first, last, strong ? 0.9 : 0.8);
    i = last;
  }
  function strongEnd(first: number): number {
    let last = first;
    while (last + 1 < words.length && last - first < 2 && !tokens[last].endsSentence && isSurname(last + 1)) last++;
    return last;
  }

  // A known given name anywhere, with its surname; one that is also a word ("mark") only with a known surname after it.
  const wordNameWithSurname = (i: number) => AMBIGUOUS_NAMES.has(words[i].key) && SURNAMES.has(words[i + 1]?.key ?? '') && isSurname(i + 1);
  for (let i = 0; i < words.length; i++) {
    if (taken.has(i) || !(isGiven(i) || wordNameWithSurname(i))) continue;
    const last = nameEnd(i);
    add(i, last, 0.8);
    i = last;
  }

  // Capitalised proper nouns the lists do not know: two or more together, all unknown to the model or known surnames.
  for (let i = 0; i < words.length; i++) {
    if (taken.has(i) || !words[i].capitalised || words[i].pos !== 'PROPN') continue;
    let last = i;
    while (
      last + 1 < words.length &&
      !taken.has(last + 1) &&
      words[last + 1].capitalised &&
      words[last + 1].pos === 'PROPN' &&
      !tokens[last].endsSentence
    )
      last++;
    const run = words.slice(i, last + 1);
    if (run.length >= 2 && run.every((word) => word.oov || SURNAMES.has(word.key))) add(i, last, 0.7);
    i = last;
  }
  return spans;
}

/** Whether the words ending at `at` are one of the cues. */
function cueEndingAt(keys: readonly string[], at: number, cues: readonly string[]): boolean {
  return cues.some((cue) => {
    const parts = cue.split(' ');
    const from = at - parts.length + 1;
    return from >= 0 && parts.every((part, index) => keys[from + index].replace(/[.,]$/, '') === part);
  });
}

/** Each token with wink's part-of-speech tag (of the wink token that starts it) and whether the model's lexicon knows it. */
function tagged(text: string, tokens: readonly Token[]): Word[] {
  const doc = wink().readDoc(text);
  const its = wink().its;
  const values: string[] = doc.tokens().out();
  // eslint-disable-next-line @typescript-eslint/unbound-method -- wink's `its` helpers are plain functions, made to be passed as they are.
  const tags: string[] = doc.tokens().out(its.pos);
  const posAt = new Map<number, string>();
  let cursor = 0;
  values.forEach((value, index) => {
    const at = text.indexOf(value, cursor);
    if (at < 0) return;
    posAt.set(at, tags[index]);
    cursor = at + value.length;
  });
  return tokens.map((token) => {
    const key = token.norm.replace(/['’]s$/, '');
    return { token, key, pos: posAt.get(token.start) ?? 'X', capitalised: /^[A-ZÀ-ÝÑ]/.test(token.text), oov: doc.isOOV(key) };
  });
}
