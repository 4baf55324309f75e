import type { Caller } from '../../auth/policy';
import { ConflictError, ValidationError } from '../../core/errors';
import type { UpdateVocabularyBody } from '../../schemas/transcript-controls';
import type { TableContext } from '../../storage/dynamo';
import type { OrgVocabulary, StoredTerm } from '../../storage/transcript-setting-items';
import { getVocabulary, putVocabulary } from '../../storage/transcript-settings';
import { vocabularyProblems } from '../../transcription/vocabulary-terms';

/**
 * The organization's custom vocabulary (docs/transcript-controls.md, "Vocabulary"): its terms here, one
 * Amazon Transcribe vocabulary (`voice-org-<org>`) made from them by the sync consumer
 * (sync-vocabulary.ts), and the state that consumer records.
 */
export interface VocabularyDeps {
  db: TableContext;
  now: () => Date;
}

export interface VocabularyView {
  language_code: string;
  terms: StoredTerm[];
  term_count: number;
  status: 'ready' | 'pending' | 'failed';
  reason: string | null;
  version: number;
  updated_at: string | null;
  updated_by: string | null;
}

/** The default language of a vocabulary (most organizations' recordings). */
export const DEFAULT_VOCABULARY_LANGUAGE = 'en-US';

export function vocabularyView(vocabulary: OrgVocabulary | undefined): VocabularyView {
  if (!vocabulary)
    return {
      language_code: DEFAULT_VOCABULARY_LANGUAGE,
      terms: [],
      term_count: 0,
      status: 'ready',
      reason: null,
      version: 0,
      updated_at: null,
      updated_by: null,
    };
  // A status recorded for an older version does not speak for this one: it is still being prepared.
  const current = vocabulary.status_version === vocabulary.version;
  const status = current ? vocabulary.status : 'pending';
  return {
    language_code: vocabulary.language_code,
    terms: vocabulary.terms,
    term_count: vocabulary.terms.length,
    status,
    reason: status === 'failed' ? (vocabulary.failure_reason ?? 'Amazon Transcribe could not prepare the vocabulary.') : null,
    version: vocabulary.version,
    updated_at: vocabulary.updated_at,
    updated_by: vocabulary.updated_by,
  };
}

export async function getOrgVocabulary(deps: VocabularyDeps, orgId: string): Promise<VocabularyView> {
  return vocabularyView(await getVocabulary(deps.db, orgId));
}

/** The terms as stored: trimmed by the schema, optional parts only when given. */
const storedTerms = (terms: UpdateVocabularyBody['terms']): StoredTerm[] =>
  terms.map((term) => ({
    phrase: term.phrase,
    ...(term.sounds_like?.length ? { sounds_like: term.sounds_like } : {}),
    ...(term.display_as !== undefined ? { display_as: term.display_as } : {}),
  }));

/**
 * Update vocabulary: checks Transcribe's rules (each broken one a 400 naming its term), stores the
 * terms as a new version, `pending` until the sync consumer records Transcribe's answer (with no
 * terms, `ready` at once: there is nothing to prepare). One read, one conditional write.
 */
export async function updateOrgVocabulary(deps: VocabularyDeps, caller: Caller, body: UpdateVocabularyBody): Promise<VocabularyView> {
  const terms = storedTerms(body.terms);
  const problems = vocabularyProblems(terms, body.language_code);
  if (problems.length)
    throw new ValidationError(
      problems
        .slice(0, 5)
        .map((problem) => (problem.index < 0 ? problem.message : `Term ${problem.index}: ${problem.message}`))
        .join(' ') + (problems.length > 5 ? ` (${problems.length - 5} more in details)` : ''),
      'VALIDATION_ERROR',
      problems.map((problem) => ({
        field: problem.index < 0 ? 'terms' : `terms[${problem.index}].${problem.field}`,
        issue: 'invalid' as const,
        message: problem.message,
      })),
    );
  // A PUT replaces the terms: the last one wins. Two at once each take the next version, one after the other.
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const current = await getVocabulary(deps.db, caller.orgId, { consistent: true, withTerms: false });
    const at = deps.now().toISOString();
    const version = (current?.version ?? 0) + 1;
    const next: OrgVocabulary = {
      org_id: caller.orgId,
      language_code: body.language_code,
      terms,
      version,
      status: terms.length ? 'pending' : 'ready',
      status_version: version,
      updated_at: at,
      updated_by: caller.actor,
      status_at: at,
    };
    if (await putVocabulary(deps.db, next, current?.version)) return vocabularyView(next);
  }
  throw new ConflictError('CONCURRENT_UPDATE', 'The vocabulary kept changing under this request; try again.');
}

/** Writes tried before a PUT that keeps losing races to others gives up with 409. */
const WRITE_ATTEMPTS = 10;
