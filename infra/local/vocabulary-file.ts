import { vocabularyProblems, type VocabularyTerm } from '../../shared/transcription/vocabulary-terms';
import type { CorrectionTerm } from './speech/vocabulary-correction';

/**
 * Reads a custom vocabulary's table file as Transcribe does, for the local stand-in: a header
 * naming the four columns (in any order), then tab-separated rows with LF line ends; a phrase
 * with several rows has one SoundsLike per row. A file Transcribe would refuse gives the
 * vocabulary's FailureReason; a good one, the terms the correction applies.
 */
const COLUMNS = ['Phrase', 'SoundsLike', 'IPA', 'DisplayAs'] as const;

export type ParsedVocabulary = { terms: CorrectionTerm[] } | { failureReason: string };

const failed = (why: string): ParsedVocabulary => ({ failureReason: `Invalid vocabulary file: ${why}` });

export function parseVocabularyFile(text: string, languageCode: string): ParsedVocabulary {
  if (text.includes('\r')) return failed('the file must use LF line endings, not CRLF.');
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const header = (lines.shift() ?? '').split('\t').map((name) => name.trim());
  if (header.length !== COLUMNS.length || !COLUMNS.every((name) => header.includes(name)))
    return failed(`the first line must name the columns ${COLUMNS.join(', ')}, separated by tabs.`);
  const column = (cells: string[], name: (typeof COLUMNS)[number]) => (cells[header.indexOf(name)] ?? '').trim();
  const byPhrase = new Map<string, VocabularyTerm>();
  for (const [index, line] of lines.entries()) {
    const cells = line.split('\t');
    if (cells.length !== COLUMNS.length) return failed(`row ${index + 2} has ${cells.length} columns; every row has 4, separated by tabs.`);
    const phrase = column(cells, 'Phrase');
    if (!phrase) return failed(`row ${index + 2} has no Phrase.`);
    if (/\s/.test(phrase)) return failed(`row ${index + 2}: a Phrase has no spaces; join its words with hyphens.`);
    const sounds = column(cells, 'SoundsLike');
    if (sounds && column(cells, 'IPA')) return failed(`row ${index + 2} has both SoundsLike and IPA; give one of them.`);
    const display = column(cells, 'DisplayAs');
    const term = byPhrase.get(phrase) ?? { phrase, ...(display ? { display_as: display } : {}) };
    if (sounds) term.sounds_like = [...(term.sounds_like ?? []), sounds];
    byPhrase.set(phrase, term);
  }
  const terms = [...byPhrase.values()];
  const problem = vocabularyProblems(terms, languageCode)[0];
  if (problem) return failed(problem.index < 0 ? problem.message : `term ${problem.index + 1}: ${problem.message}`);
  return {
    terms: terms.map((term) => ({
      phrase: term.phrase.split('-').join(' '),
      ...(term.sounds_like ? { soundsLike: term.sounds_like } : {}),
      ...(term.display_as ? { displayAs: term.display_as } : {}),
    })),
  };
}
