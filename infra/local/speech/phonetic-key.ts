/**
 * A small English sound key for matching words the engine misheard against vocabulary terms,
 * in the spirit of Metaphone: spellings of one sound fold together (ph → F, ck → K, soft c → S,
 * th → 0, sh/ch → X), vowels after the first letter drop out, and voiced and voiceless pairs
 * (b/p, d/t, g/k, v/f, z/s) share a letter, since an engine's near-misses swap exactly those
 * ("clubs" heard as "gloves"). Not Double Metaphone: the npm package of it is ESM-only, which
 * jest here cannot load without changing its configuration (docs/vocabulary-engine.md).
 */

/** Lower-case letters only, accents taken off (é → e). */
export const lettersOf = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

const VOWEL = /[aeiou]/;

/** The sound key of a word or of words run together. */
export function phoneticKey(text: string): string {
  let word = lettersOf(text);
  if (!word) return '';
  word = word
    .replace(/^(kn|gn|pn)/, 'n')
    .replace(/^wr/, 'r')
    .replace(/^ps/, 's')
    .replace(/^x/, 's')
    .replace(/^wh/, 'w');
  word = word
    .replace(/mb$/, 'm')
    .replace(/ph/g, 'f')
    .replace(/tch/g, 'ch')
    .replace(/sch/g, 'sk')
    .replace(/ck/g, 'k')
    .replace(/(sh|ch|ti(?=[ao]))/g, 'X')
    .replace(/th/g, '0')
    .replace(/dg(?=[eiy])/g, 'j')
    .replace(/gh(?![aeiou])/g, '')
    .replace(/c(?=[eiy])/g, 's')
    .replace(/g(?=[eiy])/g, 'j')
    .replace(/q/g, 'k')
    .replace(/x/g, 'ks');
  let key = '';
  for (let i = 0; i < word.length; i++) {
    const char = word[i];
    let sound: string;
    if (VOWEL.test(char)) sound = i === 0 ? 'A' : '';
    else if ((char === 'h' || char === 'w' || char === 'y') && i > 0) sound = '';
    else sound = FOLD[char] ?? char.toUpperCase();
    if (sound && sound !== key.at(-1)) key += sound;
  }
  return key;
}

/** Voiced and voiceless pairs share one letter; the other letters stand for themselves. */
const FOLD: Record<string, string> = {
  b: 'P',
  p: 'P',
  d: 'T',
  t: 'T',
  g: 'K',
  k: 'K',
  c: 'K',
  v: 'F',
  f: 'F',
  z: 'S',
  s: 'S',
  j: 'J',
  y: 'Y',
  w: 'W',
  h: 'H',
};

/** Sounds an engine confuses most (lips, tongue tip, hisses, liquids, nasals): swapping within one costs half. */
const NEAR = ['PF', 'T0S', 'SXJ', 'LR', 'MN'];
const near = (a: string, b: string) => NEAR.some((group) => group.includes(a) && group.includes(b));

/** Levenshtein distance between two strings; with `keys`, a swap of near sounds costs half. */
export function editDistance(a: string, b: string, keys = false): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const swap = a[i - 1] === b[j - 1] ? 0 : keys && near(a[i - 1], b[j - 1]) ? 0.5 : 1;
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + swap);
    }
    previous = row;
  }
  return previous[b.length];
}

/** 1 for equal strings, 0 for nothing in common: one minus the edit distance over the longer length. */
export function similarity(a: string, b: string, keys = false): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : 1 - editDistance(a, b, keys) / longest;
}
