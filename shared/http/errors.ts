/**
 * Every failure the API reports is one of these classes. They are mapped to HTTP
 * once, in the error middleware, into the envelope
 * `{success: false, data: null, error: CODE, message}`.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the query, path or body does not satisfy the route's schema. */
export class ValidationError extends ApiError {
  constructor(message: string, code = 'VALIDATION_ERROR') {
    super(400, code, message);
  }
}

/** 400: the body is not valid JSON (or not the JSON type the route takes). */
export class InvalidJsonError extends ApiError {
  constructor(message = 'The request body is not valid JSON.') {
    super(400, 'INVALID_JSON', message);
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
  constructor(code: string, message: string) {
    super(403, code, message);
  }
}

/** 404: `code` names the missing thing (MEMBER_NOT_FOUND, ROUTE_NOT_FOUND, ...). */
export class NotFoundError extends ApiError {
  constructor(code: string, message: string) {
    super(404, code, message);
  }
}

/** 409: the request conflicts with the current state. */
export class ConflictError extends ApiError {
  constructor(code: string, message: string) {
    super(409, code, message);
  }
}
