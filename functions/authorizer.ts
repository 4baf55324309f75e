import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { authenticate } from '../shared/auth/authenticate';
import { principalIdOf, principalToContext } from '../shared/auth/principal';
import { AUTHENTICATION_FAILURE_MESSAGES } from '../shared/auth/bearer-credentials';
import { instrumented } from '../shared/observability/instrumentation';
import { logger } from '../shared/observability/logger';
import { authenticationDeps } from '../shared/wiring/authorizer-deps';

/**
 * The Lambda TOKEN authorizer of every non-public route. It says who the caller is;
 * each handler's route policy says what they may do. A refused credential gets a Deny
 * policy whose context carries the reason and message: API Gateway then answers with the
 * ACCESS_DENIED gateway response (configured as a 401 that reads the message), which a
 * thrown "Unauthorized" could not do (that response never sees the authorizer's context).
 */
export const handler = instrumented(
  async (event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const result = await authenticate(event.authorizationToken, authenticationDeps());
    if (!result.ok) {
      logger.info('credential refused', { reason: result.reason });
      // Cached per token like an Allow; every reason is a property of the token itself
      // (an expired token stays expired), so replaying the Deny is right.
      return {
        principalId: 'anonymous',
        policyDocument: apiWidePolicy('Deny', event.methodArn),
        context: { reason: result.reason, message: AUTHENTICATION_FAILURE_MESSAGES[result.reason] },
      };
    }
    const principal = result.principal;
    logger.info('credential accepted', {
      kind: principal.kind,
      key_id: principal.kind === 'id_token' ? undefined : principal.keyId,
      user_id: principal.kind === 'org_key' ? undefined : principal.userId,
    });
    return {
      principalId: principalIdOf(principal),
      // The result is cached per token and reused on every route, so it covers the whole API;
      // the per-route policy runs in each handler.
      policyDocument: apiWidePolicy('Allow', event.methodArn),
      context: principalToContext(principal),
    };
  },
  { function: 'authorizer' },
);

function apiWidePolicy(effect: 'Allow' | 'Deny', methodArn: string): APIGatewayAuthorizerResult['policyDocument'] {
  return { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: apiWideArn(methodArn) }] };
}

/** arn:aws:execute-api:region:account:api/stage/METHOD/path -> arn:...:api/stage/* */
function apiWideArn(methodArn: string): string {
  const [prefix, stage] = methodArn.split('/');
  return `${prefix}/${stage}/*`;
}
