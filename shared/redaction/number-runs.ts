import { folded, type LanguageFamily, type Token } from './text-tokens';

/**
 * Numbers as a speech engine writes them: digits ("4111 1111"), digits grouped by signs
 * ("123-45-6789", "(555) 123-4567", "12/27"), number words ("four one one one", "oh", "double
 * five", "forty one", "twelve twenty seven"; Spanish "cuatro", "treinta y dos") and mixes of
 * both. Consecutive ones make one run of digits, which the numeric detectors read; each piece
 * remembers the words it came from, so a match maps back to character offsets.
 */
export interface DigitPiece {
  digits: string;
  firstToken: number;
  lastToken: number;
}

export interface NumberRun {
  digits: string;
  pieces: DigitPiece[];
  firstToken: number;
  lastToken: number;
  /** Every piece was written in digits (not words): then `groups` is how the writer grouped them. */
  written: boolean;
  groups: number[];
  /** Written with a leading + (an international phone number). */
  plus: boolean;
  /** Written or spoken with a slash ("12/27", "twelve slash twenty seven"). */
  slash: boolean;
}

interface NumberWords {
  units: Record<string, number>;
  /** Words for 10–99 on their own. */
  whole: Record<string, number>;
  /** Words for 20, 30, …, 90 that a unit may follow ("forty one"; Spanish "treinta y dos"). */
  tens: Record<string, number>;
  tensJoin?: string;
  /** Said before a digit to repeat it: "double five" is 55. */
  repeat: Record<string, number>;
  hundred?: string;
  /** Spoken separators between groups, like a written dash or slash. */
  dash: string[];
  slash: string[];
  /** Words for zero only next to other numbers ("oh"): alone they are interjections. */
  zeroNearNumbers: string[];
}

const words = (list: string, from = 0) => Object.fromEntries(list.split(' ').map((word, index) => [word, from + index]));
const tensOf = (list: string) => Object.fromEntries(list.split(' ').map((word, index) => [word, 20 + 10 * index]));

const ENGLISH: NumberWords = {
  units: words('zero one two three four five six seven eight nine'),
  whole: words('ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen', 10),
  tens: tensOf('twenty thirty forty fifty sixty seventy eighty ninety'),
  repeat: { double: 2, triple: 3 },
  hundred: 'hundred',
  dash: ['dash', 'hyphen'],
  slash: ['slash'],
  zeroNearNumbers: ['oh', 'o'],
};

const SPANISH: NumberWords = {
  units: words('cero uno dos tres cuatro cinco seis siete ocho nueve'),
  whole: {
    ...words('diez once doce trece catorce quince dieciseis diecisiete dieciocho diecinueve', 10),
    ...words('veinte veintiuno veintidos veintitres veinticuatro veinticinco veintiseis veintisiete veintiocho veintinueve', 20),
  },
  tens: { ...tensOf('veinte treinta cuarenta cincuenta sesenta setenta ochenta noventa'), veinte: 20 },
  tensJoin: 'y',
  repeat: { doble: 2, triple: 3 },
  dash: ['guion'],
  slash: ['barra'],
  zeroNearNumbers: [],
};

const WORDS_OF: Record<LanguageFamily, NumberWords | undefined> = { en: ENGLISH, es: SPANISH, other: undefined };

const WRITTEN = /^\+?\(?\d+\)?(?:[-./]\(?\d+\)?)*$/;

/** The number a single word stands for (0–99), or undefined. */
function valueOfWord(word: string, lexicon: NumberWords): number | undefined {
  return lexicon.units[word] ?? lexicon.whole[word] ?? lexicon.tens[word];
}

export function numberRunsOf(tokens: readonly Token[], family: LanguageFamily): NumberRun[] {
  const lexicon = WORDS_OF[family];
  const norms = tokens.map((token) => folded(token.norm));
  const isNumberWord = (i: number) =>
    i < tokens.length && (WRITTEN.test(norms[i]) || (lexicon !== undefined && valueOfWord(norms[i], lexicon) !== undefined));

  /** The piece that starts at token i, or undefined. */
  const pieceAt = (i: number, continuing = false): (DigitPiece & { written?: string }) | undefined => {
    const norm = norms[i];
    if (WRITTEN.test(norm)) return { digits: norm.replace(/\D/g, ''), firstToken: i, lastToken: i, written: norm };
    if (!lexicon) return undefined;
    if (lexicon.zeroNearNumbers.includes(norm)) {
      // "oh" continues a number, or starts one when other digits follow ("oh oh two one").
      let next = i + 1;
      while (next < norms.length && lexicon.zeroNearNumbers.includes(norms[next])) next++;
      return continuing || isNumberWord(next) ? piece('0', i, i) : undefined;
    }
    const hyphenated = norm.split('-');
    if (hyphenated.length === 2 && lexicon.tens[hyphenated[0]] !== undefined && (lexicon.units[hyphenated[1]] ?? 0) > 0)
      return piece(String(lexicon.tens[hyphenated[0]] + lexicon.units[hyphenated[1]]), i, i);
    const times = lexicon.repeat[norm];
    if (times !== undefined && i + 1 < tokens.length) {
      const next = lexicon.units[norms[i + 1]] ?? (/^\d$/.test(norms[i + 1]) ? Number(norms[i + 1]) : undefined);
      return next === undefined ? undefined : piece(String(next).repeat(times), i, i + 1);
    }
    const tens = lexicon.tens[norm];
    if (tens !== undefined) {
      const joined = lexicon.tensJoin !== undefined && norms[i + 1] === lexicon.tensJoin;
      const unit = lexicon.units[norms[joined ? i + 2 : i + 1]];
      if (unit !== undefined && unit > 0) return piece(String(tens + unit), i, joined ? i + 2 : i + 1);
      return piece(String(tens), i, i);
    }
    const value = lexicon.units[norm] ?? lexicon.whole[norm];
    return value === undefined ? undefined : piece(String(value), i, i);
  };

  const runs: NumberRun[] = [];
  let run: NumberRun | undefined;
  let i = 0;
  while (i < tokens.length) {
    const found = pieceAt(i, run !== undefined && run.lastToken === i - 1);
    if (found) {
      const { written, ...next } = found;
      if (!run) {
        run = { digits: '', pieces: [], firstToken: i, lastToken: i, written: true, groups: [], plus: false, slash: false };
        runs.push(run);
        run.plus = written?.startsWith('+') ?? false;
      }
      run.pieces.push(next);
      run.digits += next.digits;
      run.lastToken = next.lastToken;
      if (written) {
        run.groups.push(
          ...written
            .split(/\D+/)
            .filter(Boolean)
            .map((group) => group.length),
        );
        if (written.includes('/')) run.slash = true;
      } else run.written = false;
      i = next.lastToken + 1;
      if (lexicon?.hundred && norms[i] === lexicon.hundred && !written && next.digits.length === 1) i = sayHundreds(run, next, i);
      if (tokens[run.lastToken].endsSentence) run = undefined;
      continue;
    }
    // A dash or slash, written alone or said, joins two numbers into one run.
    const joiner = norms[i] === '-' || norms[i] === '/' || lexicon?.dash.includes(norms[i]) || lexicon?.slash.includes(norms[i]);
    if (run && joiner && run.lastToken === i - 1 && pieceAt(i + 1)) {
      if (norms[i] === '/' || lexicon?.slash.includes(norms[i])) run.slash = true;
      i++;
      continue;
    }
    run = undefined;
    i++;
  }
  return runs;

  /** "five hundred" is 500, "five hundred (and) twelve" 512: the hundred and what follows join the digit before. */
  function sayHundreds(current: NumberRun, last: DigitPiece, at: number): number {
    let next = at + 1;
    if (norms[next] === 'and') next++;
    const rest = pieceAt(next);
    // A lone digit after "hundred" that more digits follow is the next digit said, not the units: "one eight hundred five five five …".
    const digitSaid = rest?.digits.length === 1 && pieceAt(rest.lastToken + 1) !== undefined;
    const small = rest && !rest.written && !digitSaid && Number(rest.digits) < 100 && rest.digits.length <= 2 ? rest : undefined;
    const added = small ? small.digits.padStart(2, '0') : '00';
    last.digits += added;
    current.digits += added;
    last.lastToken = small ? small.lastToken : at;
    current.lastToken = last.lastToken;
    return last.lastToken + 1;
  }
}

function piece(digits: string, firstToken: number, lastToken: number): DigitPiece {
  return { digits, firstToken, lastToken };
}
