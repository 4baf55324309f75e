import type { TableContext } from '../../storage/dynamo';
import { getVocabulary, recordVocabularyState } from '../../storage/transcript-settings';
import type { VocabularyFiles } from '../../storage/vocabulary-files';
import { vocabularyNameOf, type CustomVocabularies } from '../../transcription/custom-vocabularies';
import { vocabularyTable } from '../../transcription/vocabulary-terms';

/**
 * The vocabulary consumer (`organization.vocabulary_updated`): makes the organization's Amazon
 * Transcribe vocabulary (`voice-org-<org>`) hold its latest terms, and records Transcribe's
 * answer on the vocabulary item: `ready`, or `failed` with the reason (the account's quota of
 * vocabularies included). Transcribe prepares a vocabulary in minutes: while it is PENDING the
 * consumer gives its message back to the queue for POLL_SECONDS and looks again. Idempotent: a
 * version already answered, or replaced by a newer one (whose own event takes over), is left.
 */
export interface VocabularySyncDeps {
  db: TableContext;
  now: () => Date;
  vocabularies: CustomVocabularies;
  files: VocabularyFiles;
}

/** How long a PENDING vocabulary waits before the consumer asks Transcribe again. */
export const POLL_SECONDS = 30;

export const QUOTA_REASON =
  'The AWS account has as many custom vocabularies as Amazon Transcribe allows (100 by default, adjustable in Service Quotas): transcriptions run without this one. docs/transcript-controls.md, "Vocabulary".';

export type SyncOutcome = 'ready' | 'failed' | 'removed' | 'superseded' | 'already' | { retryAfterSeconds: number };

/** The reason a vocabulary Transcribe kept PENDING through every delivery is recorded as failed. */
export const TIMEOUT_REASON =
  'Amazon Transcribe did not finish preparing the vocabulary in time; set the terms again to retry. Transcriptions run without it.';

export async function syncVocabulary(
  deps: VocabularySyncDeps,
  orgId: string,
  delivery: { last: boolean } = { last: false },
): Promise<SyncOutcome> {
  const vocabulary = await getVocabulary(deps.db, orgId, { consistent: true });
  if (!vocabulary) return 'already';
  const { version } = vocabulary;
  const name = vocabularyNameOf(orgId);
  const record = async (status: 'ready' | 'failed', failureReason?: string) =>
    (await recordVocabularyState(deps.db, orgId, version, { status, failureReason, at: deps.now().toISOString() })) ? status : 'superseded';
  const answered = vocabulary.status_version === version && vocabulary.status !== 'pending';

  // No terms: stored `ready` at once (nothing to prepare), so it is always answered; the Transcribe vocabulary is removed here.
  if (!vocabulary.terms.length) {
    await deps.vocabularies.remove(name);
    if (answered) return 'removed';
    return (await record('ready')) === 'superseded' ? 'superseded' : 'removed';
  }
  if (answered) return 'already';
  if (vocabulary.submitted_version !== version) {
    const fileUri = await deps.files.write(orgId, version, vocabularyTable(vocabulary.terms));
    let put;
    try {
      put = await deps.vocabularies.put({ name, languageCode: vocabulary.language_code, fileUri });
    } catch (error) {
      // Transcribe is still preparing the previous version: it takes no update until it is done.
      if ((error as Error).name === 'ConflictException')
        return delivery.last ? record('failed', TIMEOUT_REASON) : { retryAfterSeconds: POLL_SECONDS };
      if ((error as Error).name === 'BadRequestException')
        return record('failed', `Amazon Transcribe refused the vocabulary: ${(error as Error).message}`.slice(0, 500));
      throw error;
    }
    if (put === 'quota_exceeded') return record('failed', QUOTA_REASON);
    if (!(await recordVocabularyState(deps.db, orgId, version, { submitted: true, at: deps.now().toISOString() }))) return 'superseded';
  }
  const state = await deps.vocabularies.get(name);
  if (state?.state === 'READY') {
    const outcome = await record('ready');
    await deps.files.remove(orgId, version);
    return outcome;
  }
  if (state?.state === 'FAILED') {
    const outcome = await record('failed', state.failureReason ?? 'Amazon Transcribe could not prepare the vocabulary.');
    await deps.files.remove(orgId, version);
    return outcome;
  }
  if (delivery.last) return record('failed', TIMEOUT_REASON);
  return { retryAfterSeconds: POLL_SECONDS };
}
