import type { PiiEntityType } from '../core/pii-entity-types';

/** A detector's finding: the public PiiSpan and how sure the detector is (Transcribe's redactions[].confidence). */
export interface ScoredSpan {
  type: PiiEntityType;
  start: number;
  end: number;
  score: number;
}

/**
 * Overlapping findings keep the surest, then the longest: a card number's digits inside an
 * IBAN, or a name inside an email address, are one entity, not two.
 */
export function withoutOverlaps(spans: readonly ScoredSpan[]): ScoredSpan[] {
  const kept: ScoredSpan[] = [];
  const ranked = [...spans].sort((a, b) => b.score - a.score || b.end - b.start - (a.end - a.start) || a.start - b.start);
  for (const span of ranked) if (!kept.some((other) => span.start < other.end && other.start < span.end)) kept.push(span);
  return kept.sort((a, b) => a.start - b.start);
}
