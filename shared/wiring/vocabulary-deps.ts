import type { VocabularySyncDeps } from '../domain/transcript-settings/sync-vocabulary';
import { table } from '../storage/dynamo';
import { vocabularyFiles } from '../storage/vocabulary-files';
import { customVocabularies } from '../transcription/custom-vocabularies';

let sync: VocabularySyncDeps | undefined;

/** The vocabulary consumer's table, Transcribe's vocabularies and the bucket's vocabulary files, built once per module. */
export function vocabularySyncDeps(): VocabularySyncDeps {
  return (sync ??= { db: table(), now: () => new Date(), vocabularies: customVocabularies(), files: vocabularyFiles() });
}
