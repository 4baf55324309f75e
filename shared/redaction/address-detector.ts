import { numberRunsOf, type NumberRun } from './number-runs';
import type { ScoredSpan } from './scored-span';
import { folded, type LanguageFamily, type Token } from './text-tokens';

/**
 * Street addresses, English and Spanish. English: a house number, one to four words of the
 * street's name and a street type ("twelve main street", "4200 north lake shore drive"), then
 * optionally a unit ("apartment 4b"), a city with a state and ZIP code; or a PO box. Spanish: a
 * street type, its name and a number ("calle mayor número doce", "avenida de la constitución
 * 45"), then optionally the floor and door ("piso tres puerta b") and a postal code. Without the
 * number there is no address: "the main street" or "la calle mayor" is left alone.
 */

const EN_STREET_TYPES = new Set(
  'street st avenue ave road rd boulevard blvd lane ln drive dr court ct way place pl terrace parkway pkwy circle cir highway hwy square sq trail plaza alley crescent close'.split(
    ' ',
  ),
);
const EN_UNITS = new Set('apartment apt suite ste unit floor room flat #'.split(' '));
const EN_DIRECTIONS = new Set('north south east west northeast northwest southeast southwest n s e w ne nw se sw'.split(' '));
const US_STATES = new Set(
  'alabama alaska arizona arkansas california colorado connecticut delaware florida georgia hawaii idaho illinois indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan minnesota mississippi missouri montana nebraska nevada hampshire jersey mexico york carolina dakota ohio oklahoma oregon pennsylvania rhode tennessee texas utah vermont virginia washington wisconsin wyoming ak az ar ca ct fl ga il ia ks ky md mi mn ms mt nv nh nj nm ny nc nd ri sc sd tn tx ut vt va wv wi wy dc'.split(
    ' ',
  ),
);
/** Words that end a street's name rather than belong to it. */
const EN_NOT_NAME = new Set(
  'the a an and or of to at in on is was i you we he she they it my your our their his her this that for with from by about on off my me us live lives living moved send ship mail'.split(
    ' ',
  ),
);

const ES_STREET_TYPES = new Set(
  'calle c/ avenida avda av plaza paseo camino carretera ronda travesia carrer calzada bulevar pasaje glorieta'.split(' '),
);
const ES_NAME_JOINERS = new Set('de del la las los el san santa y'.split(' '));
const ES_NUMBER_WORDS = new Set(['numero', 'no', 'nº', 'num', 'n']);
const ES_AFTER = new Set(
  'piso planta puerta portal escalera bloque letra izquierda derecha izq dcha bajo primero segundo tercero cuarto quinto sexto'.split(' '),
);

const WORD = /^[a-zà-ÿñ][a-zà-ÿñ'.-]*$/i;
const ORDINAL = /^\d+(st|nd|rd|th)$|^(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)$/;

export function findAddresses(tokens: readonly Token[], family: LanguageFamily): ScoredSpan[] {
  if (family === 'other') return [];
  const norms = tokens.map((token) => folded(token.norm));
  const runs = numberRunsOf(tokens, family);
  const runEndingAt = new Map(runs.map((run) => [run.lastToken, run]));
  const runStartingAt = new Map(runs.map((run) => [run.firstToken, run]));
  const found = family === 'en' ? english(norms, tokens, runEndingAt, runStartingAt) : spanish(norms, tokens, runStartingAt);
  return found.map(([first, last]) => ({ type: 'ADDRESS', start: tokens[first].start, end: tokens[last].end, score: 0.85 }));
}

type Range = [first: number, last: number];

function english(
  norms: string[],
  tokens: readonly Token[],
  runEndingAt: Map<number, NumberRun>,
  runStartingAt: Map<number, NumberRun>,
): Range[] {
  const ranges: Range[] = [];
  const isNameWord = (i: number) =>
    (WORD.test(norms[i]) || ORDINAL.test(norms[i])) && !EN_NOT_NAME.has(norms[i]) && !EN_STREET_TYPES.has(norms[i]) && !runEndingAt.has(i);
  norms.forEach((norm, typeAt) => {
    if (!EN_STREET_TYPES.has(norm.replace(/\.$/, ''))) return;
    let nameStart = typeAt;
    while (nameStart - 1 >= 0 && typeAt - nameStart < 4 && isNameWord(nameStart - 1) && !tokens[nameStart - 1].endsSentence) nameStart--;
    const house = runEndingAt.get(nameStart - 1);
    if (nameStart === typeAt || !house || house.digits.length > 6 || tokens[house.lastToken].endsSentence) return;
    ranges.push([house.firstToken, extendEnglish(norms, tokens, typeAt, runStartingAt)]);
  });
  // "PO box 1234", "post office box twelve"
  norms.forEach((norm, at) => {
    if (norm !== 'box' || at < 1 || !/^(p\.?o\.?|po|post)$/.test(norms[at - 1].replace(/\s/g, ''))) return;
    const box = runStartingAt.get(at + 1);
    if (box) ranges.push([norms[at - 1] === 'post' || norms[at - 2] === 'p' ? at - 2 : at - 1, box.lastToken]);
  });
  return ranges.filter(([first]) => first >= 0);
}

/** After the street type: a direction, a unit and its number, a city, a state, a ZIP code. */
function extendEnglish(norms: string[], tokens: readonly Token[], typeAt: number, runStartingAt: Map<number, NumberRun>): number {
  let end = typeAt;
  const next = () => end + 1 < norms.length && !tokens[end].endsSentence;
  if (next() && EN_DIRECTIONS.has(norms[end + 1])) end++;
  if (next() && EN_UNITS.has(norms[end + 1])) {
    const unitNumber = runStartingAt.get(end + 2);
    if (unitNumber) end = unitNumber.lastToken;
    else if (end + 2 < norms.length && /^[a-z]?\d+[a-z]?$|^[a-z]$/.test(norms[end + 2])) end += 2;
    if (next() && end + 1 < norms.length && /^[a-z]$/.test(norms[end + 1]) && unitNumber) end++;
  }
  // A city and state ("springfield illinois", "austin texas 78701"): up to three words, then a state.
  for (let words = 1; words <= 4; words++) {
    const at = end + words;
    if (at >= norms.length || tokens[at - 1].endsSentence) break;
    if (words >= 2 && US_STATES.has(norms[at])) {
      end = at;
      break;
    }
    if (!WORD.test(norms[at]) || EN_NOT_NAME.has(norms[at])) break;
  }
  const zip = runStartingAt.get(end + 1);
  if (zip && (zip.digits.length === 5 || zip.digits.length === 9) && !tokens[end].endsSentence) end = zip.lastToken;
  return end;
}

function spanish(norms: string[], tokens: readonly Token[], runStartingAt: Map<number, NumberRun>): Range[] {
  const ranges: Range[] = [];
  norms.forEach((norm, typeAt) => {
    if (!ES_STREET_TYPES.has(norm.replace(/\.$/, ''))) return;
    let at = typeAt + 1;
    let nameWords = 0;
    while (at < norms.length && nameWords < 6 && !runStartingAt.has(at) && WORD.test(norms[at]) && !ES_NUMBER_WORDS.has(norms[at])) {
      if (!ES_NAME_JOINERS.has(norms[at])) nameWords++;
      if (tokens[at].endsSentence) return;
      at++;
    }
    if (nameWords === 0) return;
    if (ES_NUMBER_WORDS.has(norms[at])) at++;
    const number = runStartingAt.get(at);
    if (!number || number.digits.length > 5) return;
    let end = number.lastToken;
    // The floor and door: "piso tres puerta b", "tercero izquierda", "2º B".
    while (end + 1 < norms.length && !tokens[end].endsSentence) {
      const word = norms[end + 1];
      const run = runStartingAt.get(end + 1);
      if (ES_AFTER.has(word) || /^\d+º?[a-z]?$|^[a-z]$/.test(word)) end++;
      else if (run && ES_AFTER.has(norms[end])) end = run.lastToken;
      else if (word === 'codigo' && norms[end + 2] === 'postal' && runStartingAt.get(end + 3)) end = runStartingAt.get(end + 3)!.lastToken;
      else break;
    }
    ranges.push([typeAt, end]);
  });
  return ranges;
}
