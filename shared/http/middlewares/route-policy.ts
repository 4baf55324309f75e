import { authorizeCaller, requireCredentialKind } from '../../auth/policy';
import type { TableContext } from '../../storage/dynamo';
import type { HttpMiddleware } from '../http-context';

/**
 * The route policy of the manifest, after the request is known to be valid: who may call
 * the route, in which organization (shared/auth/policy.ts), onto `context.caller`. An
 * orgless route (accepting an invitation) only checks the credential kind.
 */
export function routePolicy(db: () => TableContext): HttpMiddleware {
  return {
    before: async ({ context }) => {
      const { principal, input } = context;
      if (!principal || !input) throw new Error('routePolicy() runs after authorizationContext() and routeRequest()');
      if (input.endpoint.orgSource === 'none') requireCredentialKind(input.endpoint, principal);
      else context.caller = await authorizeCaller(input.endpoint, principal, input.requestedOrgId, db());
    },
  };
}
