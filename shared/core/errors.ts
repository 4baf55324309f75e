import type { ErrorCode } from './error-codes';

/**
 * Every failure the API reports is one of these classes. They are mapped to HTTP
 * once, in the error middleware, into the envelope
 * `{success: false, data: null, error: CODE, message}`.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** Response headers the refusal adds to the envelope (Retry-After on a 429). */
  get headers(): Record<string, string> {
    return {};
  }
}

/** The kinds of problem a 400's `details` report, one phrasing each in the message. */
export const PROBLEM_KINDS = [
  'missing',
  'unknown',
  'type',
  'too_long',
  'too_short',
  'out_of_range',
  'format',
  'invalid_value',
  'read_only',
  'repeated',
  'invalid_text',
  'invalid',
] as const;
export type ProblemKind = (typeof PROBLEM_KINDS)[number];

/** One offending field of a request: `field` is the query or path parameter, or the body path (`sections[2].title`). */
export interface FieldProblem {
  field: string;
  issue: ProblemKind;
  message: string;
}

/** 400: the query, path or body does not satisfy the route's schema; `details` names each problem. */
export class ValidationError extends ApiError {
  constructor(
    message: string,
    code: ErrorCode = 'VALIDATION_ERROR',
    readonly details: FieldProblem[] = [],
  ) {
    super(400, code, message);
  }

  /** The 400 for a list of problems: one sentence per problem ("filename is required"), and the same problems as details. */
  static of(problems: FieldProblem[], code: ErrorCode = 'VALIDATION_ERROR'): ValidationError {
    const sentence = (p: FieldProblem) => (p.field ? `${p.field} ${p.message}` : p.message.charAt(0).toUpperCase() + p.message.slice(1));
    return new ValidationError(`${problems.map(sentence).join('; ')}.`, code, problems);
  }

  /** The 400 for one field, phrased like the schema problems: `ValidationError.field('page', 'invalid', 'cannot be combined with cursor')`. */
  static field(field: string, issue: ProblemKind, message: string, code?: ErrorCode): ValidationError {
    return ValidationError.of([{ field, issue, message }], code);
  }
}

/** 400: the body is not valid JSON (or not the JSON type the route takes). */
export class InvalidJsonError extends ApiError {
  constructor(message = 'The request body is not valid JSON.') {
    super(400, 'INVALID_JSON', message);
  }
}

/** 415: a request body in a media type other than JSON. */
export class UnsupportedMediaTypeError extends ApiError {
  constructor(contentType: string) {
    super(415, 'UNSUPPORTED_MEDIA_TYPE', `The body must be JSON (Content-Type: application/json), not ${contentType.slice(0, 100)}.`);
  }
}

/** 401: no usable credential. Normally raised by the authorizer, never by handlers. */
export class UnauthorizedError extends ApiError {
  constructor(message = 'A valid bearer token is required.') {
    super(401, 'UNAUTHORIZED', message);
  }
}

/** 403: authenticated, but not allowed; `code` says why (INSUFFICIENT_ROLE, ...). */
export class ForbiddenError extends ApiError {
  constructor(code: ErrorCode, message: string) {
    super(403, code, message);
  }
}

/** 404: `code` names the missing thing (MEMBER_NOT_FOUND, ROUTE_NOT_FOUND, ...). */
export class NotFoundError extends ApiError {
  constructor(code: ErrorCode, message: string) {
    super(404, code, message);
  }
}

/** 409: the request conflicts with the current state. */
export class ConflictError extends ApiError {
  constructor(code: ErrorCode, message: string) {
    super(409, code, message);
  }
}

/** 422: well-formed, but not processable as sent; `code` says why (IDEMPOTENCY_KEY_REUSED). */
export class UnprocessableContentError extends ApiError {
  constructor(code: ErrorCode, message: string) {
    super(422, code, message);
  }
}

/**
 * 429: a limit of the organization or of the API key refused the request (RATE_LIMITED for a
 * rate limit, QUOTA_EXCEEDED for the daily quota): Retry-After says when to come back, and the
 * RateLimit-* headers describe the limit that refused it (docs/rate-limits.md).
 */
export class RateLimitedError extends ApiError {
  constructor(
    code: 'RATE_LIMITED' | 'QUOTA_EXCEEDED',
    message: string,
    readonly retryAfterSeconds: number,
    readonly limit: number,
  ) {
    super(429, code, message);
  }

  override get headers(): Record<string, string> {
    return {
      'retry-after': String(this.retryAfterSeconds),
      ...rateLimitHeaders({ limit: this.limit, remaining: 0, resetSeconds: this.retryAfterSeconds }),
    };
  }
}

/** The RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset response headers (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(status: { limit: number; remaining: number; resetSeconds: number }): Record<string, string> {
  return {
    'ratelimit-limit': String(status.limit),
    'ratelimit-remaining': String(status.remaining),
    'ratelimit-reset': String(status.resetSeconds),
  };
}
