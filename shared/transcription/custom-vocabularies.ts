import {
  CreateVocabularyCommand,
  DeleteVocabularyCommand,
  GetVocabularyCommand,
  UpdateVocabularyCommand,
  type LanguageCode,
  type TranscribeClient,
} from '@aws-sdk/client-transcribe';
import { config } from '../config';
import { createTranscribeClient } from './transcribe-jobs';

/**
 * Amazon Transcribe custom vocabularies behind a small interface: one per organization, named
 * vocabularyNameOf(orgId), made from the table file (vocabulary-terms.ts) the caller put in S3.
 * Transcribe builds a vocabulary asynchronously (PENDING, then READY or FAILED): the caller polls
 * get(). Locally the client points at the stand-in (infra/local/transcribe-emulator.ts).
 *
 * Transcribe's errors, as its API reference lists them: CreateVocabulary answers
 * ConflictException when the name exists; UpdateVocabulary and GetVocabulary and DeleteVocabulary
 * answer NotFoundException for a name it does not know (some answers word it as a
 * BadRequestException "couldn't be found", read the same); UpdateVocabulary answers
 * ConflictException while an earlier change of the vocabulary is still being processed;
 * LimitExceededException is the account's quota of vocabularies (100) or too many requests.
 */
export type VocabularyState = 'PENDING' | 'READY' | 'FAILED';

export interface VocabularyStatus {
  state: VocabularyState;
  failureReason?: string;
  languageCode?: string;
  lastModified?: Date;
}

export interface CustomVocabularies {
  /**
   * Create, or update when it exists (ConflictException on create). 'quota_exceeded' when the
   * account is at its vocabulary quota (LimitExceededException on create). Throws others, among
   * them ConflictException from an update while the vocabulary is still PENDING: retry later.
   */
  put(input: { name: string; languageCode: string; fileUri: string }): Promise<'created' | 'updated' | 'quota_exceeded'>;
  /** undefined when Transcribe has no vocabulary of that name. */
  get(name: string): Promise<VocabularyStatus | undefined>;
  /** Idempotent: a vocabulary that is already gone is fine. */
  remove(name: string): Promise<void>;
}

export const vocabularyNameOf = (orgId: string) => `voice-org-${orgId}`;

const nameOf = (error: unknown) => (error as Error | undefined)?.name ?? '';
const messageOf = (error: unknown) => String((error as Error | undefined)?.message ?? '');

/** A name Transcribe does not know: NotFoundException, or a BadRequestException worded so. */
const isNotFound = (error: unknown) =>
  nameOf(error) === 'NotFoundException' ||
  (nameOf(error) === 'BadRequestException' && /couldn.?t be found|not found|does not exist/i.test(messageOf(error)));

/** The account's quota of vocabularies: LimitExceededException, or a BadRequestException that names the quota. */
const isQuota = (error: unknown) =>
  nameOf(error) === 'LimitExceededException' ||
  (nameOf(error) === 'BadRequestException' && /maximum number of vocabular|vocabular(?:y|ies) quota|quota/i.test(messageOf(error)));

export function createCustomVocabularies(client: TranscribeClient): CustomVocabularies {
  const update = async (input: { name: string; languageCode: string; fileUri: string }) => {
    await client.send(
      new UpdateVocabularyCommand({
        VocabularyName: input.name,
        LanguageCode: input.languageCode as LanguageCode,
        VocabularyFileUri: input.fileUri,
      }),
    );
    return 'updated' as const;
  };
  const create = async (input: { name: string; languageCode: string; fileUri: string }) => {
    await client.send(
      new CreateVocabularyCommand({
        VocabularyName: input.name,
        LanguageCode: input.languageCode as LanguageCode,
        VocabularyFileUri: input.fileUri,
      }),
    );
    return 'created' as const;
  };

  return {
    async put(input) {
      try {
        return await create(input);
      } catch (error) {
        if (isQuota(error)) return 'quota_exceeded';
        if (nameOf(error) !== 'ConflictException') throw error;
      }
      try {
        return await update(input);
      } catch (error) {
        // Deleted between the two calls: create it once more.
        if (!isNotFound(error)) throw error;
      }
      try {
        return await create(input);
      } catch (error) {
        if (isQuota(error)) return 'quota_exceeded';
        throw error;
      }
    },

    async get(name) {
      try {
        const answer = await client.send(new GetVocabularyCommand({ VocabularyName: name }));
        if (!answer.VocabularyState) return undefined;
        return {
          state: answer.VocabularyState,
          ...(answer.FailureReason ? { failureReason: answer.FailureReason } : {}),
          ...(answer.LanguageCode ? { languageCode: answer.LanguageCode } : {}),
          ...(answer.LastModifiedTime ? { lastModified: answer.LastModifiedTime } : {}),
        };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },

    async remove(name) {
      try {
        await client.send(new DeleteVocabularyCommand({ VocabularyName: name }));
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    },
  };
}

let shared: CustomVocabularies | undefined;

/** The function's custom vocabularies, from config, created once per module (cold start). */
export function customVocabularies(): CustomVocabularies {
  if (!shared) {
    const { region, transcription } = config();
    shared = createCustomVocabularies(createTranscribeClient({ region, endpoint: transcription.endpoint }));
  }
  return shared;
}
