import * as v from 'valibot';
import { ValidationError } from './errors';

/**
 * Validates input against a valibot schema, or throws a 400 whose message names each
 * offending field. Schemas are the single source of rules, types and docs.
 */
export function parseInput<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  errorCode = 'VALIDATION_ERROR',
): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const problems = result.issues.map((issue) => {
    const field = v.getDotPath(issue);
    if (issue.type === 'strict_object' && field) return `${field}: unknown parameter`;
    return field ? `${field}: ${issue.message}` : issue.message;
  });
  throw new ValidationError(problems.join('; '), errorCode);
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
