import { abaRoutingValid, cardNumberValid, ibanValid, nanpPhoneValid, ssnValid } from './checksums';
import { numberRunsOf, type NumberRun } from './number-runs';
import type { PiiEntityType } from '../core/pii-entity-types';
import type { ScoredSpan } from './scored-span';
import { folded, type LanguageFamily, type Token } from './text-tokens';

/**
 * The numeric entities: card numbers, CVVs, expiry dates, PINs, bank account and routing
 * numbers, SSNs and phone numbers, read from the runs of digits (number-runs.ts). Checksums
 * decide where they exist (Luhn, ABA, SSN rules); a number with no checksum is taken only with a
 * context word before it (or, failing that, just after it): "security code", "pin", "expires",
 * "account number". Context words are English and Spanish, whatever the language.
 */

const CONTEXT: Record<string, RegExp> = {
  expiry: /\b(expir\w*|exp|valid (thru|through|until)|good (thru|through)|vence|vencimiento|caduca\w*|caducidad)\b/,
  cvv: /\b(cvv2?|cvc2?|cid|c v v|c v c|security code|verification (code|number|value)|digit code|codigo de seguridad)\b/,
  pin: /\b(pin|p i n|passcode|pass code|nip|clave)\b/,
  routing: /\b(routing|aba|transit|rtn|ruta|enrutamiento)\b/,
  ssn: /\b(social|ssn|s s n|seguro social)\b/,
  card: /\b(card|credit|debit|visa|mastercard|master card|amex|american express|discover|tarjeta|credito|debito)\b/,
  account: /\b(account|acct|cuenta|checking|savings)\b/,
  phone:
    /\b(phone|telephone|cell|cellphone|mobile|call|calling|reach|text|fax|extension|contact|telefono|movil|celular|llamar|llamame|llama|whatsapp)\b/,
};

const MONTHS = new Set(
  'january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre'.split(
    ' ',
  ),
);

/** How far back (in words) a context word may be. */
const CONTEXT_WORDS_BEFORE = 8;
const CONTEXT_WORDS_AFTER = 4;

export function findNumericPii(text: string, tokens: readonly Token[], family: LanguageFamily): ScoredSpan[] {
  const spans: ScoredSpan[] = [...findIbans(text)];
  const norms = tokens.map((token) => folded(token.norm));
  const runs = numberRunsOf(tokens, family);
  const spanOf = (type: PiiEntityType, firstToken: number, lastToken: number, score: number) =>
    spans.push({ type, start: tokens[firstToken].start, end: tokens[lastToken].end, score });

  runs.forEach((run, index) => {
    const previousEnd = index > 0 ? runs[index - 1].lastToken : -1;
    const nextStart = index + 1 < runs.length ? runs[index + 1].firstToken : tokens.length;
    const monthAt = monthBefore(norms, run.firstToken, previousEnd);
    const contextStart = Math.max(previousEnd + 1, (monthAt ?? run.firstToken) - CONTEXT_WORDS_BEFORE);
    const before = norms.slice(contextStart, monthAt ?? run.firstToken).join(' ');
    const after = norms.slice(run.lastToken + 1, Math.min(nextStart, run.lastToken + 1 + CONTEXT_WORDS_AFTER)).join(' ');

    if (monthAt !== undefined && CONTEXT.expiry.test(before) && /^(\d{2}|20\d{2})$/.test(run.digits)) {
      spanOf('CREDIT_DEBIT_EXPIRY', monthAt, run.lastToken, 0.9);
      return;
    }
    const found = classify(run, before, family) ?? classify(run, after, family) ?? withoutContext(run, family);
    if (found) {
      spanOf(found.type, run.firstToken, run.lastToken, found.score);
      return;
    }
    // A card number said without a pause before or after other numbers ("… one one twelve twenty seven").
    const card = cardWithin(run);
    if (card) spanOf('CREDIT_DEBIT_NUMBER', card.firstToken, card.lastToken, 0.95);
  });
  return spans;
}

function classify(run: NumberRun, context: string, family: LanguageFamily): { type: PiiEntityType; score: number } | undefined {
  if (!context) return undefined;
  const { digits } = run;
  const n = digits.length;
  const has = (name: keyof typeof CONTEXT) => CONTEXT[name].test(context);
  if (has('expiry') && expiryDigits(digits)) return { type: 'CREDIT_DEBIT_EXPIRY', score: 0.9 };
  if (has('cvv') && (n === 3 || n === 4)) return { type: 'CREDIT_DEBIT_CVV', score: 0.9 };
  if (has('pin') && n >= 4 && n <= 6) return { type: 'PIN', score: 0.9 };
  if (has('routing') && n === 9 && abaRoutingValid(digits)) return { type: 'BANK_ROUTING', score: 0.99 };
  if (has('ssn') && n === 9 && ssnValid(digits)) return { type: 'SSN', score: 0.99 };
  if (has('card') && cardNumberValid(digits)) return { type: 'CREDIT_DEBIT_NUMBER', score: 0.99 };
  if (has('account') && n >= 5 && n <= 17 && !cardNumberValid(digits)) return { type: 'BANK_ACCOUNT_NUMBER', score: 0.9 };
  if (has('phone') && n >= 7 && n <= 15 && phoneLike(run, family)) return { type: 'PHONE', score: 0.9 };
  return undefined;
}

/** What a number's own shape says, with no context word near it. */
function withoutContext(run: NumberRun, family: LanguageFamily): { type: PiiEntityType; score: number } | undefined {
  const { digits, groups } = run;
  const n = digits.length;
  if (cardNumberValid(digits)) return { type: 'CREDIT_DEBIT_NUMBER', score: 0.95 };
  if (run.plus && n >= 8 && n <= 15) return { type: 'PHONE', score: 0.9 };
  if ((n === 10 || (n === 11 && digits[0] === '1')) && nanpPhoneValid(digits) && !run.slash) return { type: 'PHONE', score: 0.85 };
  if (family === 'es' && n === 9 && /^[6789]/.test(digits) && !run.slash) return { type: 'PHONE', score: 0.8 };
  if (run.written && groups.join('-') === '3-2-4' && ssnValid(digits)) return { type: 'SSN', score: 0.9 };
  if (run.written && groups.join('-') === '3-4' && /^[2-9]/.test(digits)) return { type: 'PHONE', score: 0.8 };
  return undefined;
}

/** A number dialled: not a date ("12/27") and not a price with decimals. */
function phoneLike(run: NumberRun, family: LanguageFamily): boolean {
  return !run.slash && (family !== 'en' || !run.written || run.groups.every((group) => group >= 2));
}

/** MMYY, MYY, MMYYYY or MYYYY with a real month: "12/27", "twelve twenty seven", "oh one twenty thirty". */
function expiryDigits(digits: string): boolean {
  return /^(0?[1-9]|1[0-2])(\d{2}|20\d{2})$/.test(digits);
}

/** The month word just before a run ("december twenty twenty seven", "diciembre de 2027"), not before the previous run. */
function monthBefore(norms: readonly string[], first: number, previousEnd: number): number | undefined {
  for (const at of [first - 1, first - 2]) {
    if (at <= previousEnd || at < 0) return undefined;
    if (MONTHS.has(norms[at])) return at;
    if (!['of', 'de', 'del'].includes(norms[at])) return undefined;
  }
  return undefined;
}

/** The longest run of whole pieces inside a longer run that is a valid card number. */
function cardWithin(run: NumberRun): { firstToken: number; lastToken: number } | undefined {
  if (run.digits.length < 14) return undefined;
  let best: { firstToken: number; lastToken: number; length: number } | undefined;
  for (let from = 0; from < run.pieces.length; from++) {
    let digits = '';
    for (let to = from; to < run.pieces.length && digits.length < 19; to++) {
      digits += run.pieces[to].digits;
      if (cardNumberValid(digits) && (!best || digits.length > best.length))
        best = { firstToken: run.pieces[from].firstToken, lastToken: run.pieces[to].lastToken, length: digits.length };
    }
  }
  return best;
}

/** IBANs (a bank code of letters, then digits), written in groups of four or not ("ES91 2100 0418 4502 0005 1332"), with their mod-97 check. */
function findIbans(text: string): ScoredSpan[] {
  const spans: ScoredSpan[] = [];
  for (const match of text.matchAll(/\b[a-z]{2}\d{2} ?[a-z0-9]{4}(?: ?\d{4}){1,6}(?: ?\d{1,4})?\b/gi)) {
    if (ibanValid(match[0]))
      spans.push({ type: 'BANK_ACCOUNT_NUMBER', start: match.index, end: match.index + match[0].length, score: 0.99 });
  }
  return spans;
}
