import { itemFields, nestedItemFields } from './item-fields';
import { keys } from './keys';

/**
 * The organization's controls over its transcripts (docs/transcript-controls.md): its PII redaction
 * setting (on the organization item) and its custom vocabulary (an item of its own, up to 50 KB
 * of terms, so reads of the organization never carry it). Types and mappers only, no DynamoDB
 * client: the event processor maps these.
 */

export const REDACTION_MODES = ['off', 'redact'] as const;
export type RedactionMode = (typeof REDACTION_MODES)[number];

/** Redaction as set: the mode, the entity types (Transcribe's names, `ALL` kept as given), who set it when. */
export interface RedactionSetting {
  pii: RedactionMode;
  entity_types: string[];
  updated_at: string;
  updated_by: string;
}

export function redactionFromMap(item: Record<string, unknown>): RedactionSetting {
  const fields = nestedItemFields(item, item.redaction, 'organization redaction');
  return {
    pii: fields.oneOf('pii', REDACTION_MODES),
    entity_types: fields.stringList('entity_types'),
    updated_at: fields.string('updated_at'),
    updated_by: fields.string('updated_by'),
  };
}

export const VOCABULARY_STATUSES = ['pending', 'ready', 'failed'] as const;
export type VocabularyStatus = (typeof VOCABULARY_STATUSES)[number];

export interface StoredTerm {
  phrase: string;
  sounds_like?: string[];
  display_as?: string;
}

/**
 * The organization's vocabulary. `version` counts its writes; `status` is the state of that
 * version in Transcribe (`status_version` says which version the status is of, so a status
 * written late for an older version never passes for the newer one's).
 */
export interface OrgVocabulary {
  org_id: string;
  language_code: string;
  terms: StoredTerm[];
  /** How many terms (read without the terms themselves by a job's start). */
  term_count?: number;
  version: number;
  status: VocabularyStatus;
  status_version: number;
  /** Why it failed (Transcribe's reason, or the account's vocabulary quota). */
  failure_reason?: string;
  /** The version Transcribe was last given (created or updated), while it works on it. */
  submitted_version?: number;
  updated_at: string;
  updated_by: string;
  /** When the status last changed. */
  status_at: string;
}

export function vocabularyItem(vocabulary: OrgVocabulary) {
  return { ...keys.vocabulary(vocabulary.org_id), ...vocabulary, term_count: vocabulary.terms.length };
}

export function vocabularyFromItem(item: Record<string, unknown>): OrgVocabulary {
  const fields = itemFields(item, 'vocabulary');
  const vocabulary: OrgVocabulary = {
    org_id: fields.string('org_id'),
    language_code: fields.string('language_code'),
    terms: fields.list('terms').map((entry) => {
      const term = nestedItemFields(item, entry, 'vocabulary term');
      const soundsLike = (entry as Record<string, unknown>).sounds_like === undefined ? undefined : term.stringList('sounds_like');
      const displayAs = term.optionalString('display_as');
      return {
        phrase: term.string('phrase'),
        ...(soundsLike !== undefined ? { sounds_like: soundsLike } : {}),
        ...(displayAs !== undefined ? { display_as: displayAs } : {}),
      };
    }),
    term_count: fields.optionalNumber('term_count'),
    version: fields.number('version'),
    status: fields.oneOf('status', VOCABULARY_STATUSES),
    status_version: fields.number('status_version'),
    updated_at: fields.string('updated_at'),
    updated_by: fields.string('updated_by'),
    status_at: fields.string('status_at'),
  };
  const failureReason = fields.optionalString('failure_reason');
  if (failureReason !== undefined) vocabulary.failure_reason = failureReason;
  const submitted = fields.optionalNumber('submitted_version');
  if (submitted !== undefined) vocabulary.submitted_version = submitted;
  return vocabulary;
}
