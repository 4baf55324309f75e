import * as v from 'valibot';
import { ValidationError } from './errors';

export interface ParseOptions {
  /** The error code of the 400 (default VALIDATION_ERROR). */
  code?: string;
  /** Where the input sits in the request, prefixed to each field name (e.g. "settings", "preferences[2]"). */
  at?: string;
  /** How to call a key the schema does not know: query parameters, or body fields. */
  unknownKey?: 'parameter' | 'field';
}

/**
 * Validates input against a valibot schema, or throws a 400 whose message names each
 * offending field. Schemas are the single source of rules, types and docs.
 */
export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown, options: ParseOptions | string = {}): v.InferOutput<S> {
  const { code = 'VALIDATION_ERROR', at, unknownKey = 'parameter' } = typeof options === 'string' ? { code: options } : options;
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const problems = result.issues.map((issue) => {
    const path = v.getDotPath(issue);
    const field = [at, path].filter(Boolean).join(path && !path.startsWith('[') ? '.' : '');
    if (issue.type === 'strict_object' && path) return `${field}: unknown ${unknownKey}`;
    return field ? `${field}: ${issue.message}` : issue.message;
  });
  throw new ValidationError(problems.join('; '), code);
}

/**
 * A query parameter holding an integer within [min, max]. Out-of-range values are
 * rejected, never clamped, so a client learns of its mistake.
 */
export function integerParam(options: { defaultValue: number; min: number; max?: number }) {
  const range = options.max === undefined ? `${options.min} or more` : `between ${options.min} and ${options.max}`;
  const message = `must be an integer ${range}`;
  return v.pipe(
    v.optional(v.string(), String(options.defaultValue)),
    v.regex(/^\d{1,9}$/, message),
    v.transform(Number),
    v.minValue(options.min, message),
    v.maxValue(options.max ?? Number.MAX_SAFE_INTEGER, message),
  );
}
