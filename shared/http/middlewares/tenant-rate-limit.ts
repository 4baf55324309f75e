import type { TenantLimiter } from '../../domain/rate-limits/tenant-limiter';
import { logger } from '../../observability/logger';
import { countMetric as publishedCount } from '../../observability/metrics';
import type { CountMetric } from '../../observability/metric-names';
import { RateLimitedError, rateLimitHeaders } from '../../core/errors';
import type { HttpContext, HttpMiddleware } from '../http-context';

/**
 * The per-organization rate limit of an organization route (docs/rate-limits.md), in two
 * places of the middleware chain, so that a request is counted as soon as its organization is
 * known for sure:
 *
 * - `forKey`, right after the authorizer's context: an API key belongs to one organization, so
 *   its requests count before anything else runs, malformed or refused ones included;
 * - `forMember`, after the route policy: an ID token's organization is the one the policy found
 *   the user an active member of (a user cannot spend another organization's budget).
 *
 * The limit is counted in the handler, not in the authorizer, so API Gateway's cache of
 * authorizer results cannot let a request past it. Counted responses, errors included, carry
 * RateLimit-Limit, -Remaining and -Reset. When the counters cannot be reached the request goes
 * through (logged, counted in RateLimiterUnavailable, which has an alarm): the stage's throttling
 * stays the last line of defence.
 */
export function tenantRateLimit(
  limiter: () => TenantLimiter,
  countMetric: CountMetric = publishedCount,
): { forKey: HttpMiddleware; forMember: HttpMiddleware } {
  const admit = async (context: HttpContext, subject: Parameters<TenantLimiter['admit']>[0]) => {
    try {
      context.rateLimit = await limiter().admit(subject);
    } catch (error) {
      if (error instanceof RateLimitedError) {
        countMetric('RequestsRateLimited');
        throw error;
      }
      countMetric('RateLimiterUnavailable');
      logger.error('rate limiter unavailable: request let through', { error: error as Error, org_id: subject.orgId });
    }
  };
  const addHeaders: NonNullable<HttpMiddleware['after']> = (request) => {
    const status = request.context.rateLimit;
    if (status && request.response) request.response.headers = { ...request.response.headers, ...rateLimitHeaders(status) };
  };
  return {
    forKey: {
      before: async ({ context }) => {
        const { principal } = context;
        if (principal && principal.kind !== 'id_token') {
          await admit(context, { orgId: principal.orgId, key: { id: principal.keyId, limit: principal.rateLimit } });
        }
      },
      after: addHeaders,
      onError: addHeaders,
    },
    forMember: {
      before: async ({ context }) => {
        const { principal, caller } = context;
        if (principal?.kind === 'id_token' && caller) await admit(context, { orgId: caller.orgId });
      },
    },
  };
}
