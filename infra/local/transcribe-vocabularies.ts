import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { CorrectionTerm } from './speech/vocabulary-correction';
import { RESOURCE_NAME, S3_URI, ServiceError } from './transcribe-service-error';
import type { StoredVocabulary, VocabularyStore } from './transcribe-job-store';
import { parseVocabularyFile } from './vocabulary-file';

/**
 * Custom vocabularies of the local Transcribe stand-in: CreateVocabulary, UpdateVocabulary,
 * GetVocabulary, DeleteVocabulary and ListVocabularies, as Transcribe answers them. A vocabulary
 * is PENDING when created or updated, then READY (or FAILED with a reason worded like
 * Transcribe's) once its table file, read from the S3 emulator, has been checked: `readyAfterMs`
 * later, so callers see PENDING as they do in AWS. The engine cannot be biased: a job naming a
 * READY vocabulary gets its terms applied to the words it heard (speech/vocabulary-correction.ts).
 */
export interface VocabularyOptions {
  s3: S3Client;
  store: VocabularyStore;
  /** The account quota of vocabularies (Transcribe's default: 100): one more is LimitExceededException. */
  maxVocabularies?: number;
  /** How long a vocabulary stays PENDING before it is checked (default 20 ms). */
  readyAfterMs?: number;
}

const NOT_FOUND = "The requested vocabulary couldn't be found. Check the vocabulary name and try your request again.";

export function localVocabularies(options: VocabularyOptions) {
  const maxVocabularies = options.maxVocabularies ?? 100;
  const readyAfterMs = options.readyAfterMs ?? 20;
  const vocabularies = new Map<string, StoredVocabulary>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;

  const now = () => Date.now() / 1000;
  const save = (vocabulary: StoredVocabulary) => options.store.save(vocabulary);
  const describe = (vocabulary: StoredVocabulary) => ({
    VocabularyName: vocabulary.name,
    LanguageCode: vocabulary.languageCode,
    VocabularyState: vocabulary.state,
    LastModifiedTime: vocabulary.lastModified,
  });

  /** Reads and checks the file, then READY or FAILED; a newer update or a delete meanwhile wins. */
  const build = async (vocabulary: StoredVocabulary) => {
    const [, bucket, key] = S3_URI.exec(vocabulary.fileUri)!;
    let text: string;
    try {
      const object = await options.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      text = await object.Body!.transformToString('utf8');
    } catch (error) {
      const name = (error as Error).name;
      if (name !== 'NoSuchKey' && name !== 'NoSuchBucket') console.error(`local Transcribe: vocabulary ${vocabulary.name}`, error);
      text = '';
      Object.assign(vocabulary, {
        failureReason: "The URI that you provided doesn't point to an S3 object. Make sure that the object exists.",
      });
    }
    if (stopped || vocabularies.get(vocabulary.name) !== vocabulary || vocabulary.state !== 'PENDING') return;
    const parsed = vocabulary.failureReason
      ? { failureReason: vocabulary.failureReason }
      : parseVocabularyFile(text, vocabulary.languageCode);
    Object.assign(
      vocabulary,
      { lastModified: now() },
      'terms' in parsed ? { state: 'READY', terms: parsed.terms } : { state: 'FAILED', ...parsed },
    );
    save(vocabulary);
  };
  const schedule = (vocabulary: StoredVocabulary) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      void build(vocabulary);
    }, readyAfterMs);
    timers.add(timer);
  };

  // Vocabularies of an earlier run: those that were PENDING are checked again.
  for (const vocabulary of options.store.load()) {
    vocabularies.set(vocabulary.name, vocabulary);
    if (vocabulary.state === 'PENDING') schedule(vocabulary);
  }

  const fileOf = (input: Record<string, unknown>) => {
    if (input.Phrases !== undefined)
      throw new ServiceError('BadRequestException', 'The local Transcribe stand-in reads vocabularies from VocabularyFileUri only.');
    const uri = typeof input.VocabularyFileUri === 'string' ? input.VocabularyFileUri : '';
    if (!S3_URI.test(uri)) throw new ServiceError('BadRequestException', "The URI that you provided doesn't point to an S3 object.");
    const languageCode = typeof input.LanguageCode === 'string' ? input.LanguageCode : '';
    if (!languageCode) throw new ServiceError('BadRequestException', 'LanguageCode is required.');
    return { uri, languageCode };
  };
  const existing = (input: Record<string, unknown>) => {
    const vocabulary = vocabularies.get(typeof input.VocabularyName === 'string' ? input.VocabularyName : '');
    if (!vocabulary) throw new ServiceError('NotFoundException', NOT_FOUND);
    return vocabulary;
  };
  const begin = (vocabulary: StoredVocabulary) => {
    vocabularies.set(vocabulary.name, vocabulary);
    save(vocabulary);
    schedule(vocabulary);
    return describe(vocabulary);
  };

  const operations: Record<string, (input: Record<string, unknown>) => unknown> = {
    'Transcribe.CreateVocabulary': (input) => {
      const name = typeof input.VocabularyName === 'string' ? input.VocabularyName : '';
      if (!RESOURCE_NAME.test(name))
        throw new ServiceError(
          'BadRequestException',
          'VocabularyName must be 1 to 200 characters of letters, digits, dots, dashes and underscores.',
        );
      if (vocabularies.has(name))
        throw new ServiceError('ConflictException', 'The requested vocabulary name already exists. Use a different vocabulary name.');
      if (vocabularies.size >= maxVocabularies)
        throw new ServiceError(
          'LimitExceededException',
          `You have reached the maximum number of vocabularies (${maxVocabularies}) for this account.`,
        );
      const { uri, languageCode } = fileOf(input);
      return begin({ name, languageCode, fileUri: uri, state: 'PENDING', lastModified: now() });
    },
    'Transcribe.UpdateVocabulary': (input) => {
      const vocabulary = existing(input);
      if (vocabulary.state === 'PENDING')
        throw new ServiceError(
          'ConflictException',
          'The vocabulary is being processed. Wait until its state is READY or FAILED and try again.',
        );
      const { uri, languageCode } = fileOf(input);
      return begin({ name: vocabulary.name, languageCode, fileUri: uri, state: 'PENDING', lastModified: now() });
    },
    'Transcribe.GetVocabulary': (input) => {
      const vocabulary = existing(input);
      return { ...describe(vocabulary), ...(vocabulary.failureReason ? { FailureReason: vocabulary.failureReason } : {}) };
    },
    'Transcribe.DeleteVocabulary': (input) => {
      const vocabulary = existing(input);
      vocabularies.delete(vocabulary.name);
      options.store.remove(vocabulary.name);
      return {};
    },
    'Transcribe.ListVocabularies': (input) => {
      const state = typeof input.StateEquals === 'string' ? input.StateEquals : undefined;
      const contains = typeof input.NameContains === 'string' ? input.NameContains.toLowerCase() : '';
      const listed = [...vocabularies.values()]
        .filter((vocabulary) => (!state || vocabulary.state === state) && vocabulary.name.toLowerCase().includes(contains))
        .sort((a, b) => a.name.localeCompare(b.name));
      return { Vocabularies: listed.map(describe), ...(state ? { Status: state } : {}) };
    },
  };

  return {
    operations,
    /**
     * The terms a job naming `name` in Settings.VocabularyName gets, checked when it starts:
     * Transcribe refuses a vocabulary it does not have, one that is not READY, or one of another language.
     */
    termsForJob(name: string, languageCode: string | undefined): CorrectionTerm[] {
      const vocabulary = vocabularies.get(name);
      if (!vocabulary) throw new ServiceError('BadRequestException', NOT_FOUND);
      if (vocabulary.state !== 'READY')
        throw new ServiceError(
          'BadRequestException',
          `The vocabulary ${name} is not ready: its state is ${vocabulary.state}. Use a vocabulary in the READY state.`,
        );
      if (languageCode && vocabulary.languageCode !== languageCode)
        throw new ServiceError(
          'BadRequestException',
          `The vocabulary's language (${vocabulary.languageCode}) doesn't match the job's language (${languageCode}).`,
        );
      return vocabulary.terms ?? [];
    },
    /** The terms of a vocabulary as it is now, for a job that runs later (restarted jobs included). */
    termsOf: (name: string): CorrectionTerm[] => vocabularies.get(name)?.terms ?? [],
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
    },
  };
}
