import type { FieldProblem } from '../core/errors';

/** How deep a JSON body may nest: deeper than any schema of the API, shallow enough to walk safely. */
export const MAX_JSON_DEPTH = 32;

/** A UTF-16 surrogate without its pair, or NUL: text that cannot be stored and read back as sent. */
const UNSTORABLE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/;

/**
 * The problems of request text that no schema should have to think about: strings (values and
 * keys) holding lone surrogates or NUL, which DynamoDB and UTF-8 would silently alter, and
 * bodies nested deeper than MAX_JSON_DEPTH. Walks without recursion, so any depth is safe.
 */
export function unstorableText(value: unknown, root = ''): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const pending: { value: unknown; field: string; depth: number }[] = [{ value, field: root, depth: 0 }];
  for (let next = pending.pop(); next && problems.length < 10; next = pending.pop()) {
    const { value: current, field, depth } = next;
    if (typeof current === 'string') {
      if (UNSTORABLE.test(current))
        problems.push({ field, issue: 'invalid_text', message: 'must be valid Unicode text without NUL characters' });
    } else if (typeof current === 'object' && current !== null) {
      if (depth >= MAX_JSON_DEPTH) {
        problems.push({ field, issue: 'too_long', message: `nests deeper than ${MAX_JSON_DEPTH} levels` });
        continue;
      }
      const entries = Array.isArray(current)
        ? current.map((item, i) => [`[${i}]`, item] as const)
        : Object.entries(current).map(([k, item]) => [k, item] as const);
      for (const [key, item] of entries) {
        const child = key.startsWith('[') ? `${field}${key}` : field ? `${field}.${key}` : key;
        if (!key.startsWith('[') && UNSTORABLE.test(key))
          problems.push({ field: child, issue: 'invalid_text', message: 'is not a valid Unicode field name' });
        else pending.push({ value: item, field: child, depth: depth + 1 });
      }
    }
  }
  return problems;
}
