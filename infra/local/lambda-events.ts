import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { APIGatewayProxyEvent, APIGatewayTokenAuthorizerEvent, Context } from 'aws-lambda';
import type { Endpoint } from '../../shared/routes/route-definition';

// The events and context AWS passes the functions behind API Gateway: the local API Gateway
// emulator (api-gateway.ts) builds them for each request, the SAM sample events (infra/sam)
// and the tests build theirs with the same functions.

/** The ids in the ARNs and request contexts of the local API, as AWS would give them. */
const API_ID = 'local';
const ACCOUNT_ID = '000000000000';
const REGION = 'us-east-1';

/** The ARN API Gateway gives a TOKEN authorizer for a request: ...:{api}/{stage}/{METHOD}{path}. */
export function methodArnFor(stage: string, method: string, pathname: string): string {
  return `arn:aws:execute-api:${REGION}:${ACCOUNT_ID}:${API_ID}/${stage}/${method}${pathname}`;
}

/** The event API Gateway sends a TOKEN authorizer. */
export function tokenAuthorizerEvent(authorizationToken: string, methodArn: string): APIGatewayTokenAuthorizerEvent {
  return { type: 'TOKEN', authorizationToken, methodArn };
}

/** The Lambda proxy integration event of a matched request. */
export function proxyEvent(input: {
  request: Pick<http.IncomingMessage, 'httpVersion'> & { socket: { remoteAddress?: string } };
  url: URL;
  headers: Record<string, string>;
  body: string | null;
  endpoint: Endpoint;
  params: Record<string, string>;
  stage: string;
  authorizerContext: Record<string, unknown> | null;
  /**
   * The path as the client called it (requestContext.path): on API Gateway's default endpoint
   * the stage comes first, `/{stage}{path}` (the default); the local API is served at the root,
   * as on a custom domain without a base path.
   */
  calledPath?: string;
}): APIGatewayProxyEvent {
  const { request, url, headers, body, endpoint, params, stage, authorizerContext, calledPath = `/${stage}${url.pathname}` } = input;
  // A Map: names such as __proto__ or constructor are parameters like any other.
  const multiQuery = new Map<string, string[]>();
  for (const [name, value] of url.searchParams) multiQuery.set(name, [...(multiQuery.get(name) ?? []), value]);
  const now = new Date();
  return {
    resource: endpoint.path,
    path: url.pathname,
    httpMethod: endpoint.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([n, v]) => [n, [v]])),
    // As API Gateway does: the last value of a repeated parameter, null when there are none.
    queryStringParameters: multiQuery.size ? Object.fromEntries([...multiQuery].map(([n, v]) => [n, v.at(-1)!])) : null,
    multiValueQueryStringParameters: multiQuery.size ? Object.fromEntries(multiQuery) : null,
    pathParameters: Object.keys(params).length ? params : null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: {
      accountId: ACCOUNT_ID,
      apiId: API_ID,
      authorizer: authorizerContext,
      httpMethod: endpoint.method,
      identity: {
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? null,
      } as APIGatewayProxyEvent['requestContext']['identity'],
      path: calledPath,
      protocol: `HTTP/${request.httpVersion}`,
      requestId: randomUUID(),
      requestTime: now.toUTCString(),
      requestTimeEpoch: now.getTime(),
      resourceId: endpoint.routeName,
      resourcePath: endpoint.path,
      stage,
    },
  };
}

/** The context Lambda passes a function's handler, with a 30-second deadline. */
export function lambdaContext(functionName: string): Context {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${REGION}:${ACCOUNT_ID}:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
