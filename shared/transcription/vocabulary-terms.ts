/**
 * An organization's custom vocabulary as Amazon Transcribe takes it: the rules a term must meet
 * (checked here, so a request gets a clear 400 rather than a vocabulary that Transcribe fails
 * minutes later) and the table file Transcribe reads from S3. Pure: no AWS client.
 *
 * Transcribe's rules (its developer guide, "Creating a custom vocabulary using a table" and
 * "Character sets for custom vocabularies"): a Phrase uses only its language's characters, holds
 * no digits (numbers are spelled out) and no spaces (words are joined by hyphens; a term here
 * may be written with spaces, the table joins them), a period only ends a spoken letter of an
 * acronym (C.L.I., Dynamo-D.B.); SoundsLike is hyphen-separated syllables in the same characters;
 * DisplayAs is free text; each entry is at most 256 characters and the file at most 50 KB.
 * Transcribe now ignores SoundsLike (it accepts the column): the local stand-in still uses it
 * to match near-misses (docs/vocabulary-engine.md).
 */
export interface VocabularyTerm {
  phrase: string;
  sounds_like?: string[];
  display_as?: string;
}

/** One broken rule. `index` is the term's place in the list; -1 is the vocabulary as a whole (its size, its count). */
export interface TermProblem {
  index: number;
  field: 'phrase' | 'sounds_like' | 'display_as';
  message: string;
}

/** Transcribe's limit on one vocabulary file (50 KB), checked on the table's UTF-8 bytes. */
export const VOCABULARY_MAX_BYTES = 50_000;
/** Transcribe's limit on one entry (a Phrase, a SoundsLike, a DisplayAs). */
export const VOCABULARY_MAX_ENTRY_CHARS = 256;
/** Ours: terms per organization. */
export const VOCABULARY_MAX_TERMS = 500;

const LATIN = 'a-zA-Z';
/**
 * The characters Transcribe lists per language for Phrase and SoundsLike, beyond a–z, A–Z,
 * hyphen and period, as code points (Transcribe accepts only these precomposed forms; text is
 * NFC-normalized first). Keyed by language code prefix, or the whole code where only one variant
 * is listed (nl-NL). The guide's Spanish table misprints two codes (0XF3, 0XF1): read as ó, ñ.
 */
const CHARACTER_SETS: Record<string, { extra: string; apostrophe: boolean; name: string; latin: boolean }> = {
  en: { name: 'English', latin: true, apostrophe: true, extra: '' },
  es: { name: 'Spanish', latin: true, apostrophe: true, extra: 'ÁÉÍÓÚÑáéíóúñü' },
  fr: { name: 'French', latin: true, apostrophe: true, extra: 'ÀÂÇÈÉÊËÎÏÔÖÙÛÜàâçèéêëîïôöùûü' },
  de: { name: 'German', latin: true, apostrophe: true, extra: 'ÄÖÜäöüß' },
  it: { name: 'Italian', latin: true, apostrophe: true, extra: 'ÀÄÇÈÉÊËÌÒÙÜàäçèéêëìòùü' },
  pt: { name: 'Portuguese', latin: true, apostrophe: true, extra: 'ÀÁÂÃÄÇÈÉÊËÍÑÓÔÕÖÚÜàáâãäçèéêëíñóôõöúü' },
  'nl-NL': { name: 'Dutch', latin: true, apostrophe: true, extra: 'àáâäçèéêëìíîïñòóôöùúûü' },
  id: { name: 'Indonesian', latin: true, apostrophe: true, extra: '' },
  ru: { name: 'Russian', latin: false, apostrophe: true, extra: 'абвгдежзийклмнопрстуфхцчшщъыьэюяё' },
};

const setOf = (languageCode: string) => CHARACTER_SETS[languageCode] ?? CHARACTER_SETS[languageCode.split('-')[0]];

/**
 * The languages whose character set is encoded: en-*, es-*, fr-*, de-*, it-*, pt-*, id-*, ru-*
 * and nl-NL. Any other language is refused with a clear message rather than checked by a looser
 * rule (any Unicode letter): a character Transcribe does not list makes it fail the vocabulary
 * asynchronously, which the organization would learn only as FAILED, long after its request.
 */
export function vocabularyLanguages(): readonly string[] {
  return ['en-*', 'es-*', 'fr-*', 'de-*', 'it-*', 'pt-*', 'id-*', 'ru-*', 'nl-NL'];
}

/** Words of a phrase as the table writes them: NFC, spaces and hyphens between words become one hyphen. */
const tablePhrase = (phrase: string) =>
  phrase
    .normalize('NFC')
    .trim()
    .split(/[\s-]+/)
    .join('-');
const tableSoundsLike = (sounds: string) =>
  sounds
    .normalize('NFC')
    .trim()
    .split(/[\s-]+/)
    .join('-');
const tableDisplay = (display: string | undefined) => (display ?? '').normalize('NFC').trim();

const describe = (char: string) => `"${char}" (U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`;

/** The first character of `text` outside the language's set (letters, hyphen, and period / apostrophe when allowed). */
function outsideSet(text: string, set: NonNullable<ReturnType<typeof setOf>>, allowPeriod: boolean): string | undefined {
  const allowed = new RegExp(`^[${set.latin ? LATIN : ''}${set.extra}\\-${allowPeriod ? '.' : ''}${set.apostrophe ? "'" : ''}]$`, 'u');
  return [...text].find((char) => !allowed.test(char));
}

/** Problems of one term's Phrase (as the table writes it). */
function phraseProblems(phrase: string, set: NonNullable<ReturnType<typeof setOf>>): string[] {
  const written = tablePhrase(phrase);
  if (!written || written === '-') return ['Phrase is empty: every term needs a phrase.'];
  if (written.length > VOCABULARY_MAX_ENTRY_CHARS)
    return [`Phrase is ${written.length} characters; Transcribe allows at most ${VOCABULARY_MAX_ENTRY_CHARS}.`];
  if (/\p{Nd}/u.test(written)) return [`Phrase "${phrase}" contains a digit: spell numbers out ("two", not "2").`];
  const bad = outsideSet(written, set, true);
  if (bad) return [`Phrase "${phrase}" contains ${describe(bad)}, which is not in Transcribe's ${set.name} character set.`];
  if (/^-|-$|--/.test(written)) return [`Phrase "${phrase}" has a hyphen that joins no two words.`];
  // A period ends a spoken letter of an acronym: one letter after the start, a hyphen or another letter's period.
  if (/\./.test(written) && !written.split('-').every((word) => !word.includes('.') || /^(?:[^.\-']\.)+$/u.test(word)))
    return [`Phrase "${phrase}" has a period that does not end a spoken letter: write acronyms as C.L.I., and "dot" for a written dot.`];
  return [];
}

function soundsLikeProblems(sounds: string, phrase: string, set: NonNullable<ReturnType<typeof setOf>>): string[] {
  const written = tableSoundsLike(sounds);
  if (!written || written === '-') return [`A sounds_like of "${phrase}" is empty.`];
  if (written.length > VOCABULARY_MAX_ENTRY_CHARS)
    return [`A sounds_like of "${phrase}" is ${written.length} characters; Transcribe allows at most ${VOCABULARY_MAX_ENTRY_CHARS}.`];
  if (/\p{Nd}/u.test(written)) return [`A sounds_like of "${phrase}" contains a digit: spell the sounds out.`];
  const bad = outsideSet(written, set, false);
  if (bad)
    return [
      `A sounds_like of "${phrase}" contains ${describe(bad)}: its pieces are syllables of Transcribe's ${set.name} letters, joined by hyphens.`,
    ];
  if (/^-|-$|--/.test(written)) return [`A sounds_like of "${phrase}" has an empty syllable between hyphens.`];
  return [];
}

function displayProblems(display: string, phrase: string): string[] {
  const written = tableDisplay(display);
  if (!written) return [`display_as of "${phrase}" is empty: leave it out to show the phrase.`];
  if (written.length > VOCABULARY_MAX_ENTRY_CHARS)
    return [`display_as of "${phrase}" is ${written.length} characters; Transcribe allows at most ${VOCABULARY_MAX_ENTRY_CHARS}.`];
  // The table is tab-separated, one row per line.
  if (/\p{Cc}/u.test(written)) return [`display_as of "${phrase}" contains a tab, line break or other control character.`];
  return [];
}

/** Every rule the terms break for `languageCode`, in term order; none for a vocabulary Transcribe accepts. */
export function vocabularyProblems(terms: readonly VocabularyTerm[], languageCode: string): TermProblem[] {
  const set = setOf(languageCode);
  if (!set)
    return [
      {
        index: -1,
        field: 'phrase',
        message: `Custom vocabularies are not available for ${languageCode.slice(0, 20)}: supported are ${vocabularyLanguages().join(', ')}.`,
      },
    ];
  const problems: TermProblem[] = [];
  if (terms.length > VOCABULARY_MAX_TERMS)
    problems.push({ index: -1, field: 'phrase', message: `${terms.length} terms; a vocabulary holds at most ${VOCABULARY_MAX_TERMS}.` });
  const seen = new Map<string, number>();
  terms.forEach((term, index) => {
    const phrase = String(term.phrase ?? '');
    for (const message of phraseProblems(phrase, set)) problems.push({ index, field: 'phrase', message });
    const key = tablePhrase(phrase).toLowerCase();
    const first = seen.get(key);
    if (key && first !== undefined)
      problems.push({ index, field: 'phrase', message: `Phrase "${phrase}" repeats term ${first}: each phrase once.` });
    else seen.set(key, index);
    const sounds = term.sounds_like ?? [];
    const heard = new Set<string>();
    for (const entry of sounds) {
      for (const message of soundsLikeProblems(String(entry), phrase, set)) problems.push({ index, field: 'sounds_like', message });
      const written = tableSoundsLike(String(entry)).toLowerCase();
      if (heard.has(written)) problems.push({ index, field: 'sounds_like', message: `A sounds_like of "${phrase}" is given twice.` });
      heard.add(written);
    }
    if (term.display_as !== undefined)
      for (const message of displayProblems(String(term.display_as), phrase)) problems.push({ index, field: 'display_as', message });
  });
  const bytes = Buffer.byteLength(vocabularyTable(terms), 'utf8');
  if (bytes > VOCABULARY_MAX_BYTES)
    problems.push({
      index: -1,
      field: 'phrase',
      message: `The vocabulary file would be ${bytes} bytes; Transcribe allows at most ${VOCABULARY_MAX_BYTES}: remove terms or sounds_like.`,
    });
  return problems;
}

/**
 * Transcribe's table file: a header, then one row per term, or one per sounds_like entry of a
 * term that has them (Phrase repeated), tab-separated, LF line ends. IPA is left empty (a row
 * cannot have both IPA and SoundsLike, and Transcribe ignores IPA now too).
 */
export function vocabularyTable(terms: readonly VocabularyTerm[]): string {
  const rows = ['Phrase\tSoundsLike\tIPA\tDisplayAs'];
  for (const term of terms) {
    const phrase = tablePhrase(String(term.phrase ?? ''));
    const display = tableDisplay(term.display_as);
    const sounds = term.sounds_like?.length ? term.sounds_like.map((entry) => tableSoundsLike(String(entry))) : [''];
    for (const entry of sounds) rows.push(`${phrase}\t${entry}\t\t${display}`);
  }
  return `${rows.join('\n')}\n`;
}
