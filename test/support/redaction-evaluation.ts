import { readFileSync } from 'node:fs';
import path from 'node:path';
import { findPii, PII_ENTITY_TYPES, type PiiEntityType, type PiiSpan } from '../../shared/redaction/redactor';

/**
 * Recall and precision of the local redactor, per entity type, on the labelled sentences of
 * test/fixtures/redaction/pii-test-set.json (speech-engine style: lower case, numbers said).
 * A labelled entity is found when a span of its type covers at least half of it; a span is
 * right when it overlaps a labelled entity of its type. Every type is searched in every sentence,
 * so a span on a sentence without PII (or of the wrong type) counts against precision.
 */

export interface LabelledExample {
  text: string;
  language: string;
  entities: { type: PiiEntityType; text: string }[];
}

export interface TypeFigures {
  type: PiiEntityType;
  labelled: number;
  found: number;
  predicted: number;
  correct: number;
  recall: number;
  precision: number;
}

export interface EvaluationMiss {
  kind: 'missed' | 'false positive';
  type: PiiEntityType;
  text: string;
  example: string;
}

export const PII_TEST_SET = path.join(__dirname, '../fixtures/redaction/pii-test-set.json');

export function loadPiiTestSet(file = PII_TEST_SET): LabelledExample[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { examples: LabelledExample[] }).examples;
}

const overlap = (a: { start: number; end: number }, b: { start: number; end: number }) =>
  Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));

export function evaluateRedaction(examples: readonly LabelledExample[]): { figures: TypeFigures[]; misses: EvaluationMiss[] } {
  const counts = new Map(PII_ENTITY_TYPES.map((type) => [type, { labelled: 0, found: 0, predicted: 0, correct: 0 }]));
  const misses: EvaluationMiss[] = [];
  for (const example of examples) {
    const gold = example.entities.map((entity) => {
      const start = example.text.indexOf(entity.text);
      if (start < 0) throw new Error(`"${entity.text}" is not in "${example.text}"`);
      return { type: entity.type, start, end: start + entity.text.length };
    });
    const spans: PiiSpan[] = findPii(example.text, PII_ENTITY_TYPES, { language: example.language });
    for (const entity of gold) {
      const figures = counts.get(entity.type)!;
      figures.labelled++;
      const covered = spans.filter((span) => span.type === entity.type).reduce((sum, span) => sum + overlap(span, entity), 0);
      if (covered * 2 >= entity.end - entity.start) figures.found++;
      else misses.push({ kind: 'missed', type: entity.type, text: example.text.slice(entity.start, entity.end), example: example.text });
    }
    for (const span of spans) {
      const figures = counts.get(span.type)!;
      figures.predicted++;
      if (gold.some((entity) => entity.type === span.type && overlap(span, entity) > 0)) figures.correct++;
      else misses.push({ kind: 'false positive', type: span.type, text: example.text.slice(span.start, span.end), example: example.text });
    }
  }
  const figures = [...counts].map(([type, c]) => ({
    type,
    ...c,
    recall: c.labelled ? c.found / c.labelled : 1,
    precision: c.predicted ? c.correct / c.predicted : 1,
  }));
  return { figures, misses };
}

/** The figures as a Markdown table. */
export function figuresTable(figures: readonly TypeFigures[]): string {
  const rows = figures.map(
    (f) =>
      `| ${f.type} | ${f.labelled} | ${f.found} | ${f.recall.toFixed(2)} | ${f.predicted} | ${f.correct} | ${f.precision.toFixed(2)} |`,
  );
  return ['| type | labelled | found | recall | predicted | correct | precision |', '|---|---:|---:|---:|---:|---:|---:|', ...rows].join(
    '\n',
  );
}
