/**
 * The text as words with their character offsets, the unit every detector works on. A word
 * keeps its inner punctuation ("john.smith@example.com", "123-45-6789", "12/27") and loses the
 * punctuation around it, so a span ends before a sentence's full stop and "[PII]." reads well.
 */
export interface Token {
  /** As written, without the punctuation around it. */
  text: string;
  /** Lower case, for the word lists. */
  norm: string;
  start: number;
  end: number;
  /** A full stop, question mark, semicolon or exclamation mark follows: numbers do not run on across it. */
  endsSentence: boolean;
}

const LEADING = /^["'¿¡[{«“‘(]+/;
const TRAILING = /["'.,;:!?\]}»”’)]+$/;
/** Their full stop does not end a sentence: "Dr. Smith", "Main St. apartment 4". */
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'st',
  'ave',
  'rd',
  'blvd',
  'apt',
  'no',
  'sr',
  'jr',
  'prof',
  'av',
  'avda',
  'sra',
  'srta',
]);

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(/\S+/g)) {
    let raw = match[0];
    let start = match.index;
    // A parenthesis that opens inside the word belongs to it: "(555)" keeps both, "555)" loses one.
    const lead = LEADING.exec(raw)?.[0] ?? '';
    const keepOpen = lead.endsWith('(') && raw.includes(')');
    const stripLead = keepOpen ? lead.slice(0, -1) : lead;
    raw = raw.slice(stripLead.length);
    start += stripLead.length;
    const trail = TRAILING.exec(raw)?.[0] ?? '';
    const keepClose = trail.startsWith(')') && raw.slice(0, raw.length - trail.length).includes('(');
    const stripTrail = keepClose ? trail.slice(1) : trail;
    raw = raw.slice(0, raw.length - stripTrail.length);
    if (!raw) continue;
    const abbreviation = stripTrail === '.' && ABBREVIATIONS.has(raw.toLowerCase());
    tokens.push({
      text: raw,
      norm: raw.toLowerCase(),
      start,
      end: start + raw.length,
      endsSentence: !abbreviation && /[.;!?]/.test(stripTrail),
    });
  }
  return tokens;
}

/** The language families the spoken forms and word lists know; any other language gets digits and symbols only. */
export type LanguageFamily = 'en' | 'es' | 'other';

/** From a BCP-47 code (en-US, es-ES, fr-FR); none given is English, the local speech engine's language. */
export function languageFamilyOf(language: string | undefined): LanguageFamily {
  const primary = (language ?? 'en').toLowerCase().split(/[-_]/)[0];
  return primary === 'en' ? 'en' : primary === 'es' ? 'es' : 'other';
}

/** Lower case without accents, so "teléfono" and "telefono" (as engines write either) match one list. */
export function folded(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
}
