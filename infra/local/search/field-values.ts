import type { AnalyzerName } from './analyzer';

/**
 * Reading a mapped field's values out of a document's _source, each turned into what OpenSearch
 * compares (a string for keyword, a number for numbers, epoch milliseconds for dates), and the
 * same conversions for the values of a query.
 */
export type FieldType =
  | 'text'
  | 'keyword'
  | 'date'
  | 'long'
  | 'integer'
  | 'short'
  | 'byte'
  | 'double'
  | 'float'
  | 'half_float'
  | 'scaled_float'
  | 'boolean'
  | 'object';

export const NUMBER_TYPES: readonly FieldType[] = ['long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float'];

/** A searchable field: `path` is its name in queries, `sourcePath` where its values are in _source (a multi-field reads its parent's). */
export interface FieldSpec {
  path: string;
  type: FieldType;
  sourcePath: string;
  analyzer: AnalyzerName;
  ignoreAbove?: number;
}

export type Comparable = string | number | boolean;

/**
 * The values at a dotted path, arrays flattened. A key may itself hold dots ("speaker.name" as one
 * key), which OpenSearch reads as the same path, so each split of the path is tried.
 */
export function valuesAt(source: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  const walk = (value: unknown, segments: string[]) => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) return value.forEach((item) => walk(item, segments));
    if (!segments.length) return void out.push(value);
    if (typeof value !== 'object') return;
    const object = value as Record<string, unknown>;
    for (let i = 1; i <= segments.length; i++) {
      const key = segments.slice(0, i).join('.');
      if (Object.hasOwn(object, key)) walk(object[key], segments.slice(i));
    }
  };
  walk(source, path.split('.'));
  return out;
}

/** OpenSearch's default date format, strict_date_optional_time||epoch_millis. */
const ISO_DATE = /^\d{4}(-\d{2}(-\d{2}([T ]\d{2}(:\d{2}(:\d{2}([.,]\d{1,9})?)?)?)?)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;

export function parseDate(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : undefined;
  if (typeof value !== 'string') return undefined;
  if (/^-?\d+$/.test(value) && value.length !== 4) return Number(value);
  if (!ISO_DATE.test(value)) return undefined;
  // Without a zone OpenSearch reads UTC, where JavaScript would read a date-time as local time.
  let text = value.replace(' ', 'T').replace(',', '.');
  if (/T/.test(text) && !/(Z|[+-]\d{2}(:?\d{2})?)$/.test(text)) text += 'Z';
  text = text.replace(/\.(\d{3})\d+/, '.$1');
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : time;
}

export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

export function toBoolean(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false' || value === '') return false;
  return undefined;
}

/** One value converted for comparison, or undefined when it does not fit the field's type. */
export function comparable(spec: FieldSpec, value: unknown): Comparable | undefined {
  if (spec.type === 'date') return parseDate(value);
  if (spec.type === 'boolean') return toBoolean(value);
  if (NUMBER_TYPES.includes(spec.type)) return toNumber(value);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** A document's indexed values of a field (a keyword longer than ignore_above is not indexed, as on a cluster). */
export function docValues(source: unknown, spec: FieldSpec): Comparable[] {
  const out: Comparable[] = [];
  for (const value of valuesAt(source, spec.sourcePath)) {
    const converted = comparable(spec, value);
    if (converted === undefined) continue;
    if (spec.type === 'keyword' && spec.ignoreAbove !== undefined && String(converted).length > spec.ignoreAbove) continue;
    out.push(converted);
  }
  return out;
}

/** The original strings of a text field, one per value. */
export function textValues(source: unknown, spec: FieldSpec): string[] {
  return valuesAt(source, spec.sourcePath).flatMap((value) =>
    typeof value === 'string' ? [value] : typeof value === 'number' || typeof value === 'boolean' ? [String(value)] : [],
  );
}
