import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { authenticate } from '../shared/auth/authenticate';
import { createIdTokenVerifier } from '../shared/auth/id-tokens';
import { principalToContext } from '../shared/auth/principal';
import { config } from '../shared/config';
import { logger } from '../shared/observability/logger';
import { table } from '../shared/storage/dynamo';

const idTokenSettings = config().idToken;
const verifyIdToken = idTokenSettings ? createIdTokenVerifier(idTokenSettings) : undefined;

/**
 * The Lambda TOKEN authorizer of every non-public route. It says who the caller is;
 * each handler's route policy says what they may do. Throwing "Unauthorized" is how a
 * TOKEN authorizer makes API Gateway answer 401 (the UNAUTHORIZED gateway response).
 */
export async function handler(event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const principal = await authenticate(event.authorizationToken, { db: table(), verifyIdToken, now: () => new Date() });
  if (!principal) {
    logger.info('credential refused');
    throw new Error('Unauthorized');
  }
  logger.info('credential accepted', { kind: principal.kind, key_id: principal.keyId, user_id: principal.userId });
  return {
    principalId: principal.userId ?? principal.keyId ?? principal.subject ?? 'anonymous',
    // The result is cached per token and reused on every route, so it allows the whole API;
    // the per-route policy runs in each handler.
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: apiWideArn(event.methodArn) }],
    },
    context: principalToContext(principal),
  };
}

/** arn:aws:execute-api:region:account:api/stage/METHOD/path -> arn:...:api/stage/* */
function apiWideArn(methodArn: string): string {
  const [prefix, stage] = methodArn.split('/');
  return `${prefix}/${stage}/*`;
}
