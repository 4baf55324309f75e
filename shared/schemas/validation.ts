import * as v from 'valibot';
import type { ErrorCode } from '../core/error-codes';
import { ValidationError, type FieldProblem, type ProblemKind } from '../core/errors';

export interface ParseOptions {
  /** The error code of the 400 (default VALIDATION_ERROR), or one chosen from the first problem's field. */
  code?: ErrorCode | ((problem: FieldProblem) => ErrorCode);
  /** Where the input sits in the request, prefixed to each field name (e.g. "settings"). */
  at?: string;
  /** How to call a key the schema does not know: query or path parameters, or body fields. */
  unknownKey?: 'parameter' | 'field';
}

/**
 * Validates input against a valibot schema, or throws a 400 whose message names each
 * offending field with one phrasing per kind of problem ("filename is required",
 * "emial is not a known field", "email must be a string") and whose `details` list them
 * for machines. Schemas are the single source of rules, types and docs.
 */
export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown, options: ParseOptions | ErrorCode = {}): v.InferOutput<S> {
  const { code = 'VALIDATION_ERROR', at, unknownKey = 'parameter' } = typeof options === 'string' ? { code: options } : options;
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const problems = result.issues.map((issue) => describeIssue(issue, at, unknownKey));
  throw ValidationError.of(problems, codeFor(code, problems[0]));
}

/**
 * parseInput for a JSON body whose schema is an object: an array or a scalar is refused as
 * such first (valibot's object schemas would take an array for an object with no keys).
 */
export function parseBody<S extends v.GenericSchema>(schema: S, body: unknown, code?: ParseOptions['code']): v.InferOutput<S> {
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    const problem: FieldProblem = { field: '', issue: 'type', message: 'the body must be a JSON object' };
    throw ValidationError.of([problem], codeFor(code, problem));
  }
  return parseInput(schema, body, { unknownKey: 'field', code });
}

/** The 400's code: the one given, or the one chosen for the first problem. */
function codeFor(code: ParseOptions['code'], problem: FieldProblem): ErrorCode | undefined {
  return typeof code === 'function' ? code(problem) : code;
}

/** valibot issue types by the kind of problem they report. */
const KIND_BY_TYPE: Record<string, ProblemKind> = {
  max_length: 'too_long',
  max_bytes: 'too_long',
  max_size: 'too_long',
  max_graphemes: 'too_long',
  min_length: 'too_short',
  min_bytes: 'too_short',
  non_empty: 'too_short',
  min_value: 'out_of_range',
  max_value: 'out_of_range',
  integer: 'type',
  regex: 'format',
  email: 'format',
  iso_timestamp: 'format',
  hex_color: 'format',
  picklist: 'invalid_value',
  literal: 'invalid_value',
  enum: 'invalid_value',
  never: 'read_only',
};

/** What a value of a base schema type is called in a message. */
const TYPE_NOUNS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  strict_object: 'an object',
  loose_object: 'an object',
  record: 'an object',
  null: 'null',
};

function describeIssue(issue: v.BaseIssue<unknown>, at: string | undefined, unknownKey: 'parameter' | 'field'): FieldProblem {
  const field = fieldPath(at, issue.path ?? []);
  const isObjectSchema = issue.type === 'strict_object' || issue.type === 'object' || issue.type === 'loose_object';
  if (isObjectSchema && issue.path?.length && issue.expected === 'never') {
    return { field, issue: 'unknown', message: `is not a known ${unknownKey}` };
  }
  if (isObjectSchema && issue.path?.length && issue.input === undefined) {
    return { field, issue: 'missing', message: 'is required' };
  }
  if (issue.kind === 'schema' && issue.input === undefined && !issue.path?.length) {
    return { field, issue: 'missing', message: field ? 'is required' : 'a JSON body is required' };
  }
  const kind: ProblemKind = KIND_BY_TYPE[issue.type] ?? (issue.kind === 'schema' ? 'type' : 'invalid');
  // Our schemas phrase their own messages ("must be at most 200 characters"); valibot's
  // defaults ("Invalid type: Expected string but received null") are rephrased.
  const ours = !issue.message.startsWith('Invalid ');
  const noun = TYPE_NOUNS[issue.type];
  const message = ours ? issue.message : noun ? `must be ${noun}` : 'is not valid';
  return { field, issue: kind, message: field || ours ? message : `the body ${message}` };
}

/** `sections[2].title` style paths: what a client would write to reach the value. */
function fieldPath(at: string | undefined, path: readonly v.IssuePathItem[]): string {
  let text = at ?? '';
  for (const item of path) {
    if (item.type === 'array') text += `[${String(item.key)}]`;
    else text += text ? `.${String(item.key)}` : String(item.key);
  }
  return text;
}

export interface IntegerParamOptions {
  defaultValue: number;
  min: number;
  max?: number;
  /** What the parameter means, for the OpenAPI document (its range and default are added). */
  description?: string;
}

/** The most digits an integer parameter may have: beyond, it is refused as any other text. */
const MAX_INTEGER_DIGITS = 9;

/**
 * The JSON Schema of each integer query parameter (integerParam, optionalIntegerParam): the
 * OpenAPI document shows an integer with its range and default (shared/openapi/document.ts),
 * while validation takes the query string's text, exactly as integerText reads it.
 */
export const INTEGER_PARAMETERS = new WeakMap<v.GenericSchema, { type: 'integer'; minimum: number; maximum: number; default: number }>();

/**
 * A query parameter holding an integer within [min, max]. Out-of-range values are
 * rejected, never clamped, so a client learns of its mistake.
 */
export function integerParam(options: IntegerParamOptions) {
  return documented(v.optional(integerText(options), String(options.defaultValue)), options);
}

/**
 * integerParam whose parsed value is undefined when the client left it out (so a route can
 * tell "not given" from the default); the default is documented, and applied by the domain.
 */
export function optionalIntegerParam(options: IntegerParamOptions) {
  return documented(v.optional(integerText(options)), options);
}

function documented<S extends v.GenericSchema>(schema: S, options: IntegerParamOptions) {
  const maximum = Math.min(options.max ?? Number.MAX_SAFE_INTEGER, 10 ** MAX_INTEGER_DIGITS - 1);
  INTEGER_PARAMETERS.set(schema, { type: 'integer', minimum: options.min, maximum, default: options.defaultValue });
  return options.description ? v.pipe(schema, v.description(options.description)) : schema;
}

function integerText(options: { min: number; max?: number }) {
  const range = options.max === undefined ? `${options.min} or more` : `between ${options.min} and ${options.max}`;
  const message = `must be an integer ${range}`;
  return v.pipe(
    v.string(),
    v.regex(new RegExp(`^\\d{1,${MAX_INTEGER_DIGITS}}$`), message),
    v.transform(Number),
    v.minValue(options.min, message),
    v.maxValue(options.max ?? Number.MAX_SAFE_INTEGER, message),
  );
}
