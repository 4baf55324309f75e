import { Duration, RemovalPolicy, Size, type Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { METRICS_NAMESPACE, THROTTLED_REQUESTS_METRIC } from '../../shared/observability/metric-names';
import {
  CORS_RESPONSE_HEADERS,
  GATEWAY,
  GATEWAY_RESPONSE_HEADERS,
  GATEWAY_RESPONSES,
  gatewayResponseTemplate,
  type GatewayResponseType,
} from '../../shared/http/gateway';
import { listEndpoints, type RouteName } from '../../shared/routes/manifest';
import type { Endpoint, HttpMethod } from '../../shared/routes/route-definition';
import { acknowledge } from './acknowledge';

/**
 * One JSON object per request in the API's access log. REST API access logs can only hold
 * $context variables, not request headers: requestId is also logged by the function (as
 * api_request_id, next to its correlation_id), which joins the two.
 */
export const ACCESS_LOG_FORMAT = {
  requestId: apigateway.AccessLogField.contextRequestId(),
  extendedRequestId: apigateway.AccessLogField.contextExtendedRequestId(),
  requestTime: apigateway.AccessLogField.contextRequestTime(),
  ip: apigateway.AccessLogField.contextIdentitySourceIp(),
  userAgent: apigateway.AccessLogField.contextIdentityUserAgent(),
  method: apigateway.AccessLogField.contextHttpMethod(),
  resource: apigateway.AccessLogField.contextResourcePath(),
  path: apigateway.AccessLogField.contextPath(),
  protocol: apigateway.AccessLogField.contextProtocol(),
  status: apigateway.AccessLogField.contextStatus(),
  responseLength: apigateway.AccessLogField.contextResponseLength(),
  latency: apigateway.AccessLogField.contextResponseLatency(),
  integrationLatency: apigateway.AccessLogField.contextIntegrationLatency(),
  integrationStatus: apigateway.AccessLogField.contextIntegrationStatus(),
  principal: apigateway.AccessLogField.contextAuthorizerPrincipalId(),
  authorizerError: apigateway.AccessLogField.contextAuthorizerError(),
  errorType: apigateway.AccessLogField.contextErrorResponseType(),
  error: apigateway.AccessLogField.contextErrorMessage(),
  /** The stage: the dimension of the throttled requests metric (below). */
  stage: apigateway.AccessLogField.contextStage(),
} as const;

/** The smallest response API Gateway compresses (when the client sends Accept-Encoding), in KiB. */
export const API_MIN_COMPRESSION_KIB = 1;

export interface ApiProps {
  stage: string;
  throttle: { rateLimit: number; burstLimit: number };
  logRetention: logs.RetentionDays;
  /** Whether API Gateway traces the stage with X-Ray (every tracing mode but `off`). */
  tracing: boolean;
  /** The routes the root stack serves itself (the root areas of infra/route-areas.ts: /health), and where their functions are. */
  routes: RouteProps;
  /**
   * The path resources the root stack builds, whether or not a route of its own is served there:
   * the paths the route stacks share (/api, /api/v1/organization/{orgId}, …; placePaths).
   */
  rootPaths: readonly string[];
}

/** What the methods of one stack (the root or a route stack) need. */
export interface RouteProps {
  /** The endpoints whose methods this stack builds, in manifest order. */
  endpoints: readonly Endpoint<RouteName>[];
  /** Checks the credential of every route that is not public. */
  authorizer: apigateway.IAuthorizer;
  /** The function that serves a handler module of the route manifest. */
  functionFor: (handlerModule: string) => lambda.IFunction;
}

const TOKEN_AUTHORIZER_REASON =
  'The Lambda TOKEN authorizer checks both ID tokens (of the Cognito user pool or the external issuer) and API keys; a Cognito authorizer could not accept API keys or an external issuer.';

/**
 * The REST API in the root stack: the shared path resources, the root stack's own routes
 * (addRoutes: each endpoint at its path, with its function as a proxy integration, behind the
 * TOKEN authorizer unless the route is public, and the CORS preflights of the paths it builds);
 * the gateway responses of shared/http/gateway.ts; a throttled stage with JSON access logs. The
 * route stacks add the other routes' methods to it (infra/constructs/route-area.ts).
 */
export function addApi(stack: Stack, props: ApiProps): apigateway.RestApi {
  const accessLogs = new logs.LogGroup(stack, 'ApiAccessLogs', { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
  const api = new apigateway.RestApi(stack, 'Api', {
    restApiName: `voice-org-api-${props.stage}`,
    description: 'Voice Org API',
    // API Gateway writes access and execution logs through the account's CloudWatch role (one per account and region).
    cloudWatchRole: true,
    // Responses of 1 KiB or more are gzipped for clients that accept it: Scalar's bundle of the
    // API reference (4.4 MB, under Lambda's 6 MB response limit as plain text) travels as 1.3 MB,
    // and the JSON answers shrink too. The functions answer text; no binary media type is needed.
    minCompressionSize: Size.kibibytes(API_MIN_COMPRESSION_KIB),
    deployOptions: {
      stageName: props.stage,
      throttlingRateLimit: props.throttle.rateLimit,
      throttlingBurstLimit: props.throttle.burstLimit,
      accessLogDestination: new apigateway.LogGroupLogDestination(accessLogs),
      accessLogFormat: apigateway.AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FORMAT)),
      // Execution logs of failures only, never request or response bodies (they carry tokens and profiles).
      loggingLevel: apigateway.MethodLoggingLevel.ERROR,
      dataTraceEnabled: false,
      // X-Ray traces each request through the gateway, the authorizer and the handler (docs/observability.md), unless tracing is off.
      tracingEnabled: props.tracing,
    },
  });
  // API Gateway publishes no metric of its 429s (stage or account throttling): the access log counts them. Its own
  // THROTTLED answers only: a handler's 429 (an organization over its own limit, docs/rate-limits.md) is no operator's alarm.
  accessLogs.addMetricFilter('ThrottledRequests', {
    filterPattern: logs.FilterPattern.stringValue('$.errorType', '=', 'THROTTLED'),
    metricNamespace: METRICS_NAMESPACE,
    metricName: THROTTLED_REQUESTS_METRIC,
    metricValue: '1',
    dimensions: { stage: '$.stage' },
  });
  acknowledge(
    api,
    'AwsSolutions-APIG2',
    "Every handler validates its path, query and body against the route's valibot schema (shared/schemas) and answers 400 in the API's error envelope with field details; an API Gateway request validator would need the schemas duplicated as models and answer in another format.",
  );
  acknowledge(
    api,
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
    "API Gateway writes the stage's access and execution logs through the account's CloudWatch role (AWS::ApiGateway::Account); AmazonAPIGatewayPushToCloudWatchLogs is the AWS managed policy made for exactly that role.",
  );
  acknowledge(
    api.deploymentStage,
    'AwsSolutions-APIG3',
    'No WAF web ACL by default: the stage is throttled (throttleRateLimit/throttleBurstLimit) and every route but /health needs a credential the authorizer checks. A regional web ACL (billed per ACL, rule and request) can be associated with the stage where IP reputation or rate-based rules are required.',
  );

  addGatewayResponses(api);
  // The authorizer belongs to this RestApi even when every route of the root stack is public (/health): the route
  // stacks' methods name it by its id only (infra/constructs/route-area.ts). A method of the root stack attaches it too.
  if (apigateway.Authorizer.isAuthorizer(props.routes.authorizer)) props.routes.authorizer._attachToApi(api);
  // The shared path resources first: the route stacks attach their own below them.
  for (const rootPath of props.rootPaths) api.root.resourceForPath(rootPath);
  addRoutes(props.routes, (endpointPath) => api.root.resourceForPath(endpointPath), props.rootPaths);
  return api;
}

/** The answers API Gateway gives itself (refusals, limits, failures), in the API's error envelope. */
function addGatewayResponses(api: apigateway.RestApi): void {
  for (const type of Object.keys(GATEWAY_RESPONSES) as GatewayResponseType[]) {
    const { statusCode } = GATEWAY_RESPONSES[type];
    api.addGatewayResponse(`GatewayResponse${type}`, {
      type: apigateway.ResponseType.of(type),
      statusCode: statusCode === undefined ? undefined : String(statusCode),
      responseHeaders: {
        [GATEWAY.correlationHeader]: `method.request.header.${GATEWAY.correlationHeader}`,
        // Static header values are quoted; browsers can then read the error envelope too.
        ...Object.fromEntries(
          Object.entries({ ...CORS_RESPONSE_HEADERS, ...GATEWAY_RESPONSE_HEADERS[type] }).map(([name, value]) => [name, `'${value}'`]),
        ),
      },
      templates: { 'application/json': gatewayResponseTemplate(type) },
    });
  }
}

/**
 * Adds a method per endpoint, in manifest order, on the path resource `resourceFor` gives (built in
 * the calling stack, or imported from the root stack), and a CORS preflight on each of
 * `preflightPaths` that serves a route (of this stack or another): the stack that builds a path
 * resource answers its preflight, which lists every method the manifest serves there.
 */
export function addRoutes(
  props: RouteProps,
  resourceFor: (endpointPath: string) => apigateway.IResource,
  preflightPaths: readonly string[],
): void {
  for (const endpoint of props.endpoints) {
    const isPublic = endpoint.route.access === 'public';
    const method = resourceFor(endpoint.path).addMethod(
      endpoint.method,
      // No test-invoke permission (the console's Test button) per method: it would add one resource per method, and a stack holds 500.
      new apigateway.LambdaIntegration(props.functionFor(endpoint.route.handler), { allowTestInvoke: false }),
      isPublic
        ? { authorizationType: apigateway.AuthorizationType.NONE }
        : { authorizer: props.authorizer, authorizationType: apigateway.AuthorizationType.CUSTOM },
    );
    if (isPublic) {
      const reason = `${endpoint.method} ${endpoint.path} is public by the route manifest (access: 'public'): it carries no credential.`;
      acknowledge(method, 'AwsSolutions-APIG4', reason);
      acknowledge(method, 'AwsSolutions-COG4', reason);
    } else {
      acknowledge(method, 'AwsSolutions-COG4', TOKEN_AUTHORIZER_REASON);
    }
  }
  // CORS preflight on every path that serves a route, answered by API Gateway itself (a MOCK
  // integration): browsers send it without credentials, so it has no authorizer (cdk-nag
  // recognises such preflights and does not ask for one).
  for (const [endpointPath, methods] of methodsByPath()) {
    if (!preflightPaths.includes(endpointPath)) continue;
    resourceFor(endpointPath).addCorsPreflight({
      allowOrigins: [GATEWAY.cors.allowOrigin],
      allowMethods: methods,
      allowHeaders: [...GATEWAY.cors.allowHeaders],
      maxAge: Duration.seconds(GATEWAY.cors.maxAgeSeconds),
      statusCode: GATEWAY.cors.preflightStatusCode,
    });
  }
}

/** The methods the manifest serves on each path, paths and methods in manifest order. */
function methodsByPath(): Map<string, HttpMethod[]> {
  const byPath = new Map<string, HttpMethod[]>();
  for (const endpoint of listEndpoints()) byPath.set(endpoint.path, [...(byPath.get(endpoint.path) ?? []), endpoint.method]);
  return byPath;
}
