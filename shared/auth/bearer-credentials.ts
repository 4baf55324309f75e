/**
 * The bearer credentials the authorizer accepts and how it words a refusal: the authorizer's
 * own vocabulary, which API Gateway's configuration (shared/http/gateway.ts) repeats.
 */

/**
 * A well-formed Authorization header: the scheme in any case (RFC 9110 §11.1), then one
 * token68-like credential. The authorizer parses with it; API Gateway does not validate with
 * it, so a malformed header reaches the authorizer and gets its own 401 message.
 */
export const AUTHORIZATION_PATTERN = '^[Bb][Ee][Aa][Rr][Ee][Rr] +([^\\s]+)$';

/** Why the authorizer refused a credential. It never says whether a key or user exists. */
export type AuthenticationFailure = 'missing' | 'malformed' | 'expired' | 'invalid';

/**
 * The message of each refusal. The authorizer passes it to API Gateway in its Deny result's
 * context and the ACCESS_DENIED template substitutes it unescaped: these fixed strings hold no
 * quote or backslash, and no request data may ever be put there.
 */
export const AUTHENTICATION_FAILURE_MESSAGES: Record<AuthenticationFailure, string> = {
  missing: 'A bearer token is required: send Authorization: Bearer <token>.',
  malformed: 'The Authorization header is malformed: send Authorization: Bearer <token>.',
  expired: 'The bearer token has expired.',
  invalid: 'The bearer token is not valid.',
};
