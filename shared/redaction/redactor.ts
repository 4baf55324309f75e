import type { PiiEntityType } from '../core/pii-entity-types';
import { findScoredPii, replaceSpans, type RedactionOptions } from './pii-search';

/**
 * The local PII redactor: what the service runs on a transcript when Amazon Transcribe's own
 * ContentRedaction cannot (languages other than en-US/es-US, language identification, the
 * local speech engine). Pure and synchronous; wink's English model loads on the first search
 * for NAME. What each language gets: docs/redaction-engine.md.
 */

export { PII_ENTITY_TYPES, expandEntityTypes, type PiiEntityType } from '../core/pii-entity-types';
export { PII_MARK, type RedactionOptions } from './pii-search';
export { redactTranscribeOutput } from './transcribe-redaction';

export interface PiiSpan {
  type: PiiEntityType;
  /** Character offsets in the text searched, end exclusive. */
  start: number;
  end: number;
}

/** The entities of the types asked for, in text order, none overlapping another. */
export function findPii(text: string, types: readonly PiiEntityType[], options: RedactionOptions = {}): PiiSpan[] {
  return findScoredPii(text, types, options).map(({ type, start, end }) => ({ type, start, end }));
}

/** The text with each entity replaced by [PII], as Transcribe writes it. */
export function redactText(text: string, types: readonly PiiEntityType[], options: RedactionOptions = {}): string {
  return replaceSpans(text, findScoredPii(text, types, options));
}

/** Speaker turns ({ speaker, text, start, end }) with their text redacted, and how many entities of each type were. */
export function redactSegments<T extends { text: string }>(
  segments: readonly T[],
  types: readonly PiiEntityType[],
  options: RedactionOptions = {},
): { segments: T[]; counts: Partial<Record<PiiEntityType, number>> } {
  const counts: Partial<Record<PiiEntityType, number>> = {};
  const redacted = segments.map((segment) => {
    const spans = findScoredPii(segment.text, types, options);
    for (const span of spans) counts[span.type] = (counts[span.type] ?? 0) + 1;
    return { ...segment, text: replaceSpans(segment.text, spans) };
  });
  return { segments: redacted, counts };
}
