import { comparable, type Comparable } from './field-values';
import { textOf, unsupported } from './search-error';
import type { SearchIndex } from './search-index';

/**
 * What a required clause costs before the others narrow it: a text clause, nothing more than it
 * costs anyway; an exact clause on a field with a value index, the documents holding its values
 * (known at once); anything else, every document. The cheapest goes first and leaves the others
 * few documents to look at.
 */
export function costOf(query: unknown, index: SearchIndex): number {
  if (typeof query !== 'object' || query === null) return Infinity;
  const [name] = Object.keys(query);
  // A text clause costs the same wherever it runs (its engine finds every match in the index), so it runs first and narrows the rest.
  if (name === 'match' || name === 'match_phrase' || name === 'multi_match') return -1;
  if (name === 'ids') {
    const values = (query as { ids?: { values?: unknown } }).ids?.values;
    return Array.isArray(values) ? values.length : Infinity;
  }
  if (name !== 'term' && name !== 'terms') return Infinity;
  const [field, raw] = Object.entries((query as Record<string, Record<string, unknown>>)[name] ?? {})[0] ?? [];
  const spec = field === undefined ? undefined : index.fields.get(field);
  if (!spec || spec.type === 'text' || spec.type === 'object') return Infinity;
  const values = name === 'terms' ? raw : typeof raw === 'object' && raw !== null && 'value' in raw ? raw.value : raw;
  const converted = (Array.isArray(values) ? values : [values]).map((value: unknown) => comparable(spec, value));
  return converted.some((value) => value === undefined)
    ? Infinity
    : index.setsWithValue(spec, converted as Comparable[]).reduce((sum, set) => sum + set.size, 0);
}

/** minimum_should_match as a count of should clauses: a number, or a percentage, negative meaning "all but". */
export function minimumShould(raw: unknown, count: number): number | undefined {
  if (raw === undefined) return undefined;
  const text = textOf(raw).trim();
  const match = /^(-?\d+)(%?)$/.exec(text);
  if (!match) throw unsupported(`[minimum_should_match] of [${text}]`);
  const n = Number(match[1]);
  const wanted = match[2] ? Math.trunc((count * Math.abs(n)) / 100) * Math.sign(n) : n;
  return wanted < 0 ? Math.max(0, count + wanted) : wanted;
}
