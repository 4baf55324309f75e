import type { ErrorCode } from '../core/error-codes';
import { ROUTE_DOCS, type OperationEndpoint } from '../routes/manifest';
import { countsAgainstRateLimits, type RouteAccess } from '../routes/route-definition';
import type { ErrorStatus } from '../routes/route-docs';

/**
 * The refusals of every operation, for the OpenAPI document (shared/openapi/document.ts) and the
 * integration tests' contract check: those of every route of its kind, then its own (the
 * `errors` of its route module).
 */

/**
 * The codes answered before the rate limiter counts the request: API Gateway's (its limits,
 * routing and the stage's throttling), the authorizer's, the JSON body parser's, and the policy's
 * ORG_ID_REQUIRED (an ID token is counted once the policy found its organization). Such a refusal
 * never carries RateLimit-* (shared/http/middlewares/tenant-rate-limit.ts); any other of a counted route may.
 */
export const ANSWERED_UNCOUNTED: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'REQUEST_TOO_LARGE',
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'ROUTE_NOT_FOUND',
  'INVALID_JSON',
  'UNSUPPORTED_MEDIA_TYPE',
  'TOO_MANY_REQUESTS',
  'ORG_ID_REQUIRED',
]);

/**
 * The codes no Idempotency-Key replay answers with: those answered before the key is reserved
 * (the gateway, the rate limiter) or by the key's own checks, and a 5xx, which is never stored
 * (shared/http/middlewares/idempotency.ts). Any other refusal of a keyed route may be a replay.
 */
export const NEVER_REPLAYED: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  ...ANSWERED_UNCOUNTED,
  'RATE_LIMITED',
  'QUOTA_EXCEEDED',
  'INVALID_IDEMPOTENCY_KEY',
  'IDEMPOTENCY_KEY_IN_PROGRESS',
  'IDEMPOTENCY_KEY_REUSED',
  'INTERNAL_ERROR',
]);

/** The 403 codes of a route's access policy (shared/auth/policy.ts): a credential kind it refuses, then what each allowed kind must have. */
function policyRefusals(access: RouteAccess, orgless: boolean): ErrorCode[] {
  const codes: ErrorCode[] = [];
  const takesKeys = Boolean(access.orgKey || access.userKey);
  if (!access.idToken) codes.push('API_KEY_REQUIRED');
  if (!takesKeys) codes.push('API_KEY_NOT_ALLOWED');
  else if (!access.orgKey) codes.push('ORG_KEY_NOT_ALLOWED');
  else if (!access.userKey) codes.push('USER_KEY_NOT_ALLOWED');
  if (orgless) return codes;
  if (access.orgKey) codes.push('ORG_KEY_ORG_MISMATCH');
  if (access.userKey) codes.push('USER_KEY_ORG_MISMATCH');
  if (takesKeys) codes.push('INSUFFICIENT_SCOPES');
  if (access.idToken || access.userKey) codes.push('INSUFFICIENT_ROLE');
  return codes;
}

/**
 * Every refusal an endpoint can answer, by status, with each code: those of every route of
 * its kind (API Gateway's limits and routing, the credential, the access policy, request
 * validation, JSON bodies, Idempotency-Key, the stage's throttling and the organization's rate limits, failures), then the route's own
 * (its route module's `errors`). The OpenAPI document lists exactly these, and the integration tests refuse any
 * other (test/support/contract.ts).
 */
export function refusalsOf(endpoint: OperationEndpoint, takes: { body: boolean; idempotencyKey: boolean }): Map<ErrorStatus, ErrorCode[]> {
  const refusals = new Map<ErrorStatus, ErrorCode[]>();
  const add = (status: ErrorStatus, ...codes: ErrorCode[]) => {
    const listed = refusals.get(status) ?? [];
    refusals.set(status, [...listed, ...codes.filter((code) => !listed.includes(code))]);
  };
  const { route } = endpoint;
  // API Gateway, before anything runs: requests over its size limits.
  add(413, 'REQUEST_TOO_LARGE');
  add(414, 'BAD_REQUEST');
  add(431, 'BAD_REQUEST');
  if (route.access !== 'public') {
    add(400, 'VALIDATION_ERROR');
    add(401, 'UNAUTHORIZED');
    add(403, ...policyRefusals(route.access, Boolean(route.orgless)));
    if (endpoint.orgSource === 'credential' && route.access.idToken) add(400, 'ORG_ID_REQUIRED');
  }
  // A path id API Gateway cannot read (broken percent-encoding) or route (an encoded slash).
  if (endpoint.path.includes('{')) {
    add(400, 'BAD_REQUEST');
    add(404, 'ROUTE_NOT_FOUND');
  }
  if (takes.body) {
    add(400, 'INVALID_JSON');
    add(415, 'UNSUPPORTED_MEDIA_TYPE');
  }
  if (takes.idempotencyKey) {
    add(400, 'INVALID_IDEMPOTENCY_KEY');
    add(409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
    add(422, 'IDEMPOTENCY_KEY_REUSED');
  }
  for (const [status, codes] of Object.entries(ROUTE_DOCS[endpoint.routeName].errors) as [`${ErrorStatus}`, ErrorCode[]][])
    add(Number(status) as ErrorStatus, ...codes);
  add(429, 'TOO_MANY_REQUESTS');
  if (countsAgainstRateLimits(route)) add(429, 'RATE_LIMITED', 'QUOTA_EXCEEDED');
  add(500, 'INTERNAL_ERROR');
  return new Map([...refusals].sort(([a], [b]) => a - b));
}
