import { principalFromContext } from '../../auth/principal';
import { UnauthorizedError } from '../../core/errors';
import type { HttpMiddleware } from '../http-context';

/**
 * Reads who the caller is from the authorizer's context (requestContext.authorizer) onto
 * `context.principal`. API Gateway only invokes an authorized route after the authorizer
 * allowed it, so an absent or malformed principal is a misconfiguration: 401, never a guess.
 */
export function authorizationContext(): HttpMiddleware {
  return {
    before: ({ event, context }) => {
      const principal = principalFromContext(event.requestContext?.authorizer);
      if (!principal) throw new UnauthorizedError();
      context.principal = principal;
    },
  };
}
