import { findAddresses } from './address-detector';
import { findEmails } from './email-detector';
import { findNames } from './name-detector';
import { findNumericPii } from './number-detectors';
import type { PiiEntityType } from '../core/pii-entity-types';
import { withoutOverlaps, type ScoredSpan } from './scored-span';
import { languageFamilyOf, tokenize } from './text-tokens';

/** What Transcribe writes in place of each entity. */
export const PII_MARK = '[PII]';

export interface RedactionOptions {
  /** BCP-47 (en-US, es-ES, fr-FR); none is English. */
  language?: string;
}

/** The entities of the types asked for, in text order, none overlapping another, each with the detector's confidence. */
export function findScoredPii(text: string, types: readonly PiiEntityType[], options: RedactionOptions = {}): ScoredSpan[] {
  if (types.length === 0 || !text.trim()) return [];
  const family = languageFamilyOf(options.language);
  const tokens = tokenize(text);
  const wanted = new Set(types);
  // Every numeric type is looked for even when one is asked for, so that a routing number is never taken for an SSN.
  const found: ScoredSpan[] = findNumericPii(text, tokens, family);
  if (wanted.has('EMAIL')) found.push(...findEmails(text, tokens, family));
  if (wanted.has('ADDRESS')) found.push(...findAddresses(tokens, family));
  if (wanted.has('NAME') && family === 'en') found.push(...findNames(text, tokens));
  return withoutOverlaps(found).filter((span) => wanted.has(span.type));
}

/** `text` with each span replaced by [PII]; spans in text order, not overlapping. */
export function replaceSpans(text: string, spans: readonly { start: number; end: number }[]): string {
  let result = '';
  let cursor = 0;
  for (const span of spans) {
    result += text.slice(cursor, span.start) + PII_MARK;
    cursor = span.end;
  }
  return result + text.slice(cursor);
}
