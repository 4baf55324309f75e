import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { stackPropsFromContext } from '../../infra/context';
import { ACCESS_LOG_FORMAT } from '../../infra/constructs/api';
import { STACK_DEFAULTS, VoiceOrgStack } from '../../infra/stack';
import { CONFIG_VARIABLES } from '../../shared/config';
import {
  CORS_RESPONSE_HEADERS,
  GATEWAY,
  GATEWAY_RESPONSE_HEADERS,
  GATEWAY_RESPONSES,
  type GatewayResponseType,
} from '../../shared/http/gateway';
import { countsAgainstRateLimits, type RouteDefinition } from '../../shared/routes/route-definition';
import { EVENT_CONSUMERS, EVENT_HANDLERS } from '../../shared/events/event-functions';
import { TRANSCRIPTION_SWEEPER } from '../../shared/events/scheduled-functions';
import { listEndpoints, ROUTES, type RouteName } from '../../shared/routes/manifest';
import { listFunctions, listHandlers } from '../../infra/function-list';
import { IDEMPOTENCY_TABLE } from '../../shared/storage/idempotency-table-definition';
import { RATE_LIMIT_TABLE } from '../../shared/storage/rate-limit-table-definition';
import { TABLE } from '../../shared/storage/table-definition';
import {
  actionsOf,
  functionLogicalId,
  functionStatements,
  idempotencyTableLogicalId,
  isDynamoStatement,
  isIdempotencyTableStatement,
  isRateLimitTableStatement,
  isTableStatement,
  onlyLogicalId,
  rateLimitTableLogicalId,
  synth,
  tableLogicalId,
  summaryModelIdsOf,
  textOfValue,
  wholeStack,
  type Json,
} from './template';
import { DEFAULT_MAP_REGIONS_DOCUMENTED, EACH_ENVIRONMENT, defaultProfilesIn, propsIn } from './environments';

/**
 * The synthesized CloudFormation template of VoiceOrgStack, checked against the route
 * manifest (shared/routes/manifest.ts), the gateway definition and the table definition: every
 * expectation is computed from them, so a route added later is covered without editing this file.
 */

type Resources = Record<string, Json>;

/** Synthesizes the stack the way infra/app.ts does: its props from the app's context. */
function synthFromContext(context: Record<string, unknown>): Template {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const { stackName, props } = stackPropsFromContext(app.node);
  return wholeStack(new VoiceOrgStack(app, stackName, props));
}

/** The Lambda function an integration or authorizer URI invokes: the Fn::GetAtt [id, 'Arn'] in its Fn::Join. */
function invokedFunction(uri: Json): string {
  const parts: Json[] = uri?.['Fn::Join']?.[1] ?? [];
  const arns = parts.filter((part) => Array.isArray(part?.['Fn::GetAtt']) && part['Fn::GetAtt'][1] === 'Arn');
  if (arns.length !== 1) throw new Error(`Expected one function ARN in ${JSON.stringify(uri)}`);
  return arns[0]['Fn::GetAtt'][0];
}

/** Full path of every AWS::ApiGateway::Resource, walking PathPart/ParentId up to the RestApi root. */
function resourcePaths(resources: Resources, restApiId: string): Map<string, string> {
  const paths = new Map<string, string>();
  const pathOf = (logicalId: string, seen: string[] = []): string => {
    const known = paths.get(logicalId);
    if (known !== undefined) return known;
    if (seen.includes(logicalId)) throw new Error(`Resource cycle at ${logicalId}`);
    const resource = resources[logicalId];
    if (resource?.Type !== 'AWS::ApiGateway::Resource') throw new Error(`${logicalId} is not an API Gateway resource`);
    const parentId = resource.Properties.ParentId;
    const parentPath = isRoot(parentId, restApiId) ? '' : pathOf(parentId.Ref, [...seen, logicalId]);
    const path = `${parentPath}/${resource.Properties.PathPart}`;
    paths.set(logicalId, path);
    return path;
  };
  for (const [id, resource] of Object.entries(resources)) if (resource.Type === 'AWS::ApiGateway::Resource') pathOf(id);
  return paths;
}

function isRoot(ref: Json, restApiId: string): boolean {
  const getAtt = ref?.['Fn::GetAtt'];
  return Array.isArray(getAtt) && getAtt[0] === restApiId && getAtt[1] === 'RootResourceId';
}

/** Every AWS::ApiGateway::Method keyed "METHOD /full/path". */
function methodsByEndpoint(template: Template): Map<string, Json> {
  const resources: Resources = template.toJSON().Resources;
  const restApiId = onlyLogicalId(template, 'AWS::ApiGateway::RestApi');
  const paths = resourcePaths(resources, restApiId);
  const methods = new Map<string, Json>();
  for (const [id, resource] of Object.entries(template.findResources('AWS::ApiGateway::Method'))) {
    const props = resource.Properties;
    expect(props.RestApiId).toEqual({ Ref: restApiId });
    const path = isRoot(props.ResourceId, restApiId) ? '/' : paths.get(props.ResourceId?.Ref);
    if (path === undefined) throw new Error(`Method ${id} is on an unknown resource ${JSON.stringify(props.ResourceId)}`);
    const key = `${props.HttpMethod} ${path}`;
    if (methods.has(key)) throw new Error(`Two methods for ${key}`);
    methods.set(key, props);
  }
  return methods;
}

/** The AWS::Lambda::Function the TOKEN authorizer invokes. */
function authorizerFunctionId(template: Template): string {
  const authorizer = Object.values(template.findResources('AWS::ApiGateway::Authorizer'))[0];
  return invokedFunction(authorizer.Properties.AuthorizerUri);
}

const entries = Object.entries(ROUTES) as [RouteName, RouteDefinition][];

describe.each(EACH_ENVIRONMENT)('VoiceOrgStack template (default: Cognito user pool; %s)', (_name, environment) => {
  let template: Template;
  let resources: Resources;
  let tableId: string;

  beforeAll(() => {
    template = synth(propsIn(environment));
    resources = template.toJSON().Resources;
    tableId = tableLogicalId(template);
  });

  const tableArn = () => ({ 'Fn::GetAtt': [tableId, 'Arn'] });
  const indexArns = () => ({ 'Fn::Join': ['', [tableArn(), '/index/*']] });

  describe('API Gateway methods', () => {
    it('serves exactly the endpoints of the manifest, each at its full path (plus CORS preflights)', () => {
      const expected = listEndpoints().map((e) => `${e.method} ${e.path}`);
      expect(new Set(expected).size).toBe(expected.length);
      const served = [...methodsByEndpoint(template).keys()].filter((key) => !key.startsWith('OPTIONS '));
      expect(served.sort()).toEqual([...expected].sort());
    });

    it('answers a CORS preflight on exactly the paths of the manifest, in API Gateway, without credentials', () => {
      const methodsByPath = new Map<string, string[]>();
      for (const e of listEndpoints()) methodsByPath.set(e.path, [...(methodsByPath.get(e.path) ?? []), e.method]);
      const preflights = [...methodsByEndpoint(template)].filter(([key]) => key.startsWith('OPTIONS '));
      expect(preflights.map(([key]) => key.slice('OPTIONS '.length)).sort()).toEqual([...methodsByPath.keys()].sort());
      for (const [key, method] of preflights) {
        const path = key.slice('OPTIONS '.length);
        expect({
          path,
          authorizationType: method.AuthorizationType,
          authorizerId: method.AuthorizerId,
          type: method.Integration.Type,
        }).toEqual({
          path,
          authorizationType: 'NONE',
          authorizerId: undefined,
          type: 'MOCK',
        });
        expect({ path, status: method.Integration.IntegrationResponses[0].StatusCode }).toEqual({
          path,
          status: String(GATEWAY.cors.preflightStatusCode),
        });
        expect({ path, headers: method.Integration.IntegrationResponses[0].ResponseParameters }).toEqual({
          path,
          headers: {
            'method.response.header.Access-Control-Allow-Origin': `'${GATEWAY.cors.allowOrigin}'`,
            'method.response.header.Access-Control-Allow-Methods': `'${methodsByPath.get(path)!.join(',')}'`,
            'method.response.header.Access-Control-Allow-Headers': `'${GATEWAY.cors.allowHeaders.join(',')}'`,
            'method.response.header.Access-Control-Max-Age': `'${GATEWAY.cors.maxAgeSeconds}'`,
          },
        });
      }
      expect(GATEWAY.cors.allowHeaders).toEqual(expect.arrayContaining(['authorization', 'content-type', GATEWAY.correlationHeader]));
    });

    it('integrates each endpoint (AWS_PROXY) with the function of its handler module', () => {
      const methods = methodsByEndpoint(template);
      for (const endpoint of listEndpoints()) {
        const integration = methods.get(`${endpoint.method} ${endpoint.path}`).Integration;
        expect({ endpoint: endpoint.path, type: integration.Type, httpMethod: integration.IntegrationHttpMethod }).toEqual({
          endpoint: endpoint.path,
          type: 'AWS_PROXY',
          httpMethod: 'POST',
        });
        expect({ endpoint: endpoint.path, fn: invokedFunction(integration.Uri) }).toEqual({
          endpoint: endpoint.path,
          fn: functionLogicalId(template, endpoint.route.handler),
        });
      }
    });

    it('serves a route and its public alias with the same function', () => {
      const methods = methodsByEndpoint(template);
      for (const [routeName, route] of entries) {
        const paths = [route.path, ...(route.publicAlias ? [route.publicAlias] : [])];
        const functions = new Set(paths.map((path) => invokedFunction(methods.get(`${route.method} ${path}`).Integration.Uri)));
        expect({ routeName, functions: functions.size }).toEqual({ routeName, functions: 1 });
      }
    });

    it('gives distinct handler modules distinct functions', () => {
      const methods = methodsByEndpoint(template);
      const byHandler = new Map<string, Set<string>>();
      for (const endpoint of listEndpoints()) {
        const fn = invokedFunction(methods.get(`${endpoint.method} ${endpoint.path}`).Integration.Uri);
        byHandler.set(endpoint.route.handler, (byHandler.get(endpoint.route.handler) ?? new Set()).add(fn));
      }
      const handlers = listHandlers().map((h) => h.handler);
      expect([...byHandler.keys()].sort()).toEqual([...handlers].sort());
      for (const functions of byHandler.values()) expect(functions.size).toBe(1);
      const allFunctions = [...byHandler.values()].map((fns) => [...fns][0]);
      expect(new Set(allFunctions).size).toBe(handlers.length);
    });

    it('protects non-public routes with the TOKEN authorizer and leaves public routes open', () => {
      const authorizerId = onlyLogicalId(template, 'AWS::ApiGateway::Authorizer');
      const methods = methodsByEndpoint(template);
      for (const endpoint of listEndpoints()) {
        const method = methods.get(`${endpoint.method} ${endpoint.path}`);
        const actual = { endpoint: endpoint.path, authorizationType: method.AuthorizationType, authorizerId: method.AuthorizerId };
        if (endpoint.route.access === 'public') {
          expect(actual).toEqual({ endpoint: endpoint.path, authorizationType: 'NONE', authorizerId: undefined });
        } else {
          expect(actual).toEqual({ endpoint: endpoint.path, authorizationType: 'CUSTOM', authorizerId: { Ref: authorizerId } });
        }
      }
    });

    it('configures the TOKEN authorizer from GATEWAY and points it at the authorizer function', () => {
      const restApiId = onlyLogicalId(template, 'AWS::ApiGateway::RestApi');
      const authorizerId = onlyLogicalId(template, 'AWS::ApiGateway::Authorizer');
      const props = resources[authorizerId].Properties;
      expect(props).toMatchObject({
        Type: 'TOKEN',
        RestApiId: { Ref: restApiId },
        IdentitySource: 'method.request.header.Authorization',
        AuthorizerResultTtlInSeconds: GATEWAY.authorizerCacheSeconds,
      });
      expect(invokedFunction(props.AuthorizerUri)).toBe(functionLogicalId(template, 'functions/authorizer'));
    });

    it('lets every present Authorization header reach the authorizer (no identity validation expression)', () => {
      // An expression would refuse `bearer <key>` or a malformed header with the context-less UNAUTHORIZED response.
      const props = resources[onlyLogicalId(template, 'AWS::ApiGateway::Authorizer')].Properties;
      expect(props.IdentityValidationExpression).toBeUndefined();
    });
  });

  describe('gateway responses', () => {
    it('has exactly one gateway response per GATEWAY_RESPONSES entry', () => {
      const types = Object.values(template.findResources('AWS::ApiGateway::GatewayResponse')).map((r) => r.Properties.ResponseType);
      expect([...types].sort()).toEqual(Object.keys(GATEWAY_RESPONSES).sort());
    });

    it('answers each with its status code and the error envelope in application/json', () => {
      const restApiId = onlyLogicalId(template, 'AWS::ApiGateway::RestApi');
      const byType = new Map(
        Object.values(template.findResources('AWS::ApiGateway::GatewayResponse')).map((r) => [r.Properties.ResponseType, r.Properties]),
      );
      for (const [type, { statusCode, ...body }] of Object.entries(GATEWAY_RESPONSES)) {
        const props = byType.get(type);
        expect(props).toBeDefined();
        expect({ type, restApiId: props.RestApiId, statusCode: props.StatusCode }).toEqual({
          type,
          restApiId: { Ref: restApiId },
          statusCode: statusCode === undefined ? undefined : String(statusCode),
        });
        const parsed = JSON.parse(props.ResponseTemplates['application/json']);
        expect(parsed).toEqual({ success: false, data: null, error: body.error, message: body.message });
        expect(parsed).toEqual(body);
        expect(props.ResponseParameters).toEqual({
          [`gatewayresponse.header.${GATEWAY.correlationHeader}`]: `method.request.header.${GATEWAY.correlationHeader}`,
          ...Object.fromEntries(
            Object.entries({ ...CORS_RESPONSE_HEADERS, ...GATEWAY_RESPONSE_HEADERS[type as GatewayResponseType] }).map(([name, value]) => [
              `gatewayresponse.header.${name}`,
              `'${value}'`,
            ]),
          ),
        });
      }
    });

    const gatewayResponse = (type: string) =>
      Object.values(template.findResources('AWS::ApiGateway::GatewayResponse')).find((r) => r.Properties.ResponseType === type)!.Properties;

    it('answers a missing credential with 401 and WWW-Authenticate without an error code (RFC 6750 §3)', () => {
      const props = gatewayResponse('UNAUTHORIZED');
      expect(props.StatusCode).toBe('401');
      expect(props.ResponseParameters['gatewayresponse.header.www-authenticate']).toBe(`'Bearer realm="${GATEWAY.realm}"'`);
      expect(JSON.parse(props.ResponseTemplates['application/json'])).toEqual({
        success: false,
        data: null,
        error: 'UNAUTHORIZED',
        message: expect.stringMatching(/required/),
      });
    });

    it("answers the authorizer's Deny with 401, invalid_token and the message from the authorizer's context", () => {
      const props = gatewayResponse('ACCESS_DENIED');
      expect(props.StatusCode).toBe('401');
      expect(props.ResponseParameters['gatewayresponse.header.www-authenticate']).toBe(
        `'Bearer realm="${GATEWAY.realm}", error="invalid_token"'`,
      );
      expect(JSON.parse(props.ResponseTemplates['application/json'])).toEqual({
        success: false,
        data: null,
        error: 'UNAUTHORIZED',
        message: '$context.authorizer.message',
      });
    });

    it('answers a body over the payload limit with 413 REQUEST_TOO_LARGE in the envelope', () => {
      const props = gatewayResponse('REQUEST_TOO_LARGE');
      expect(props.StatusCode).toBe('413');
      expect(JSON.parse(props.ResponseTemplates['application/json'])).toMatchObject({
        success: false,
        data: null,
        error: 'REQUEST_TOO_LARGE',
      });
    });
  });

  describe('Lambda functions', () => {
    // CDK's own function that configures the bucket's event notifications at deploy time.
    const isCdkNotificationsHandler = (id: string) => id.startsWith('BucketNotificationsHandler');
    const ownFunctions = () =>
      Object.entries(template.findResources('AWS::Lambda::Function')).filter(([id]) => !isCdkNotificationsHandler(id));

    it('has one function per function of the manifest: the authorizer, each handler module, the event handlers, the event processor and consumers', () => {
      const modules = listFunctions().map((f) => f.handler);
      const expected = modules.map((handler) => functionLogicalId(template, handler));
      expect(new Set(expected).size).toBe(modules.length);
      expect(expected).toContain(authorizerFunctionId(template));
      expect(
        ownFunctions()
          .map(([id]) => id)
          .sort(),
      ).toEqual([...expected].sort());
    });

    it('runs every function on Node.js 22 / arm64 with index.handler and the table name', () => {
      for (const [id, fn] of ownFunctions()) {
        const props = fn.Properties;
        expect({
          id,
          runtime: props.Runtime,
          architectures: props.Architectures,
          handler: props.Handler,
          table: props.Environment?.Variables?.TABLE_NAME,
        }).toEqual({
          id,
          runtime: 'nodejs22.x',
          architectures: ['arm64'],
          handler: 'index.handler',
          table: { Ref: tableId },
        });
      }
    });

    it('sets only variables of the config schema (and the Node.js runtime options) in any function environment', () => {
      for (const [id, fn] of ownFunctions()) {
        const variables = fn.Properties.Environment.Variables;
        const unknown = Object.keys(variables).filter((name) => name !== 'NODE_OPTIONS' && !(CONFIG_VARIABLES as string[]).includes(name));
        expect({ id, unknown, nodeOptions: variables.NODE_OPTIONS }).toEqual({ id, unknown: [], nodeOptions: '--enable-source-maps' });
      }
    });

    it("gives every function its manifest's timeout, 10 seconds when it names none", () => {
      for (const { handler, timeoutSeconds } of listFunctions()) {
        const timeout = resources[functionLogicalId(template, handler)].Properties.Timeout;
        expect({ handler, timeout }).toEqual({ handler, timeout: timeoutSeconds ?? 10 });
      }
      // The manifest's longer timeouts reach the template (the webhook dispatcher's, for one).
      expect(listFunctions().some((f) => f.timeoutSeconds !== undefined && f.timeoutSeconds !== 10)).toBe(true);
    });

    it('gives every function a log group of its own, kept for the default retention, and a role that writes to it only', () => {
      const logGroups = template.findResources('AWS::Logs::LogGroup');
      const used = new Set<string>();
      for (const [id, fn] of ownFunctions()) {
        const logGroupId = fn.Properties.LoggingConfig?.LogGroup?.Ref;
        expect({ id, retention: logGroups[logGroupId]?.Properties.RetentionInDays }).toEqual({
          id,
          retention: STACK_DEFAULTS.logRetention,
        });
        expect(used.has(logGroupId)).toBe(false);
        used.add(logGroupId);
        const roleId = fn.Properties.Role['Fn::GetAtt'][0];
        expect({ id, managedPolicies: resources[roleId].Properties.ManagedPolicyArns }).toEqual({ id, managedPolicies: undefined });
        const logStatements = functionStatements(template, id).filter((st: Json) => actionsOf(st).some((a) => a.startsWith('logs:')));
        expect({ id, statements: logStatements.map((st: Json) => ({ actions: actionsOf(st).sort(), resource: st.Resource })) }).toEqual({
          id,
          statements: [{ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resource: { 'Fn::GetAtt': [logGroupId, 'Arn'] } }],
        });
      }
      expect(STACK_DEFAULTS.logRetention).toBe(30);
    });
  });

  describe('API stage', () => {
    const stage = () => Object.values(template.findResources('AWS::ApiGateway::Stage'))[0].Properties;

    it('throttles the stage at the default rate and burst, and logs errors without request or response bodies', () => {
      expect(stage().StageName).toBe('test');
      expect(stage().MethodSettings).toEqual([
        {
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: STACK_DEFAULTS.throttle.rateLimit,
          ThrottlingBurstLimit: STACK_DEFAULTS.throttle.burstLimit,
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
        },
      ]);
      expect(STACK_DEFAULTS.throttle).toEqual({ rateLimit: 50, burstLimit: 100 });
    });

    it('writes one JSON access log line per request to a log group with the default retention', () => {
      const { DestinationArn, Format } = stage().AccessLogSetting;
      const logGroupId = DestinationArn['Fn::GetAtt'][0];
      expect(resources[logGroupId]).toMatchObject({
        Type: 'AWS::Logs::LogGroup',
        Properties: { RetentionInDays: STACK_DEFAULTS.logRetention },
      });
      const format = JSON.parse(Format);
      expect(format).toEqual(ACCESS_LOG_FORMAT);
      expect(format).toMatchObject({
        requestId: '$context.requestId',
        ip: '$context.identity.sourceIp',
        method: '$context.httpMethod',
        path: '$context.path',
        status: '$context.status',
        latency: '$context.responseLatency',
      });
    });

    it('has the account-level CloudWatch role API Gateway needs to write logs', () => {
      const account = Object.values(template.findResources('AWS::ApiGateway::Account'))[0];
      const role = resources[account.Properties.CloudWatchRoleArn['Fn::GetAtt'][0]];
      expect(JSON.stringify(role.Properties.ManagedPolicyArns)).toContain('AmazonAPIGatewayPushToCloudWatchLogs');
    });
  });

  describe('table', () => {
    it('has the keys and indexes of TABLE', () => {
      const props = resources[tableId].Properties;
      expect(props.KeySchema).toEqual([
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ]);
      expect(TABLE.partitionKey).toBe('PK');
      expect(TABLE.sortKey).toBe('SK');
      const indexes = (props.GlobalSecondaryIndexes ?? []).map((i: Json) => ({
        name: i.IndexName,
        keys: i.KeySchema,
        projection: i.Projection,
      }));
      expect(indexes).toEqual(
        TABLE.globalSecondaryIndexes.map((i) => ({
          name: i.indexName,
          keys: [
            { AttributeName: i.partitionKey, KeyType: 'HASH' },
            { AttributeName: i.sortKey, KeyType: 'RANGE' },
          ],
          projection: { ProjectionType: i.projection },
        })),
      );
      const keyAttributes = [
        TABLE.partitionKey,
        TABLE.sortKey,
        ...TABLE.globalSecondaryIndexes.flatMap((i) => [i.partitionKey, i.sortKey]),
      ];
      expect([...props.AttributeDefinitions].sort((a: Json, b: Json) => a.AttributeName.localeCompare(b.AttributeName))).toEqual(
        keyAttributes.sort().map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      );
    });

    it('is on-demand, point-in-time recoverable, expires items on the TTL attribute and is retained', () => {
      const table = resources[tableId];
      expect(table.Properties).toMatchObject({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
        DeletionProtectionEnabled: true,
      });
      expect(table.DeletionPolicy).toBe('Retain');
      expect(table.UpdateReplacePolicy).toBe('Retain');
    });
  });

  describe('idempotency table', () => {
    it('is keyed by IDEMPOTENCY_TABLE, on-demand, expires records on its TTL attribute, has no stream or index, and goes with the stack', () => {
      const table = resources[idempotencyTableLogicalId(template)];
      expect(table.Properties).toEqual({
        KeySchema: [{ AttributeName: IDEMPOTENCY_TABLE.partitionKey, KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: IDEMPOTENCY_TABLE.partitionKey, AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
        TimeToLiveSpecification: { AttributeName: IDEMPOTENCY_TABLE.ttlAttribute, Enabled: true },
      });
      expect(table.DeletionPolicy).toBe('Delete');
      expect(template.toJSON().Outputs.IdempotencyTableName).toEqual({ Value: { Ref: idempotencyTableLogicalId(template) } });
    });

    it('is granted, with exactly the actions of listFunctions, to the functions of the routes that take Idempotency-Key, who alone get its name', () => {
      const idempotencyTableArn = { 'Fn::GetAtt': [idempotencyTableLogicalId(template), 'Arn'] };
      const keyed = listFunctions().filter((f) => f.permissions.idempotency?.length);
      expect(keyed.map((f) => f.handler)).toEqual(
        listHandlers()
          .filter((h) =>
            h.routes.some((r) => (ROUTES[r] as RouteDefinition).method === 'POST' && (ROUTES[r] as RouteDefinition).access !== 'public'),
          )
          .map((h) => h.handler),
      );
      for (const { handler, permissions } of listFunctions()) {
        const fnId = functionLogicalId(template, handler);
        const statements = functionStatements(template, fnId).filter(isIdempotencyTableStatement);
        const expected = (permissions.idempotency ?? []).map((action) => `dynamodb:${action}`).sort();
        expect({
          handler,
          actions: statements.flatMap(actionsOf).sort(),
          resources: statements.flatMap((st: Json) => [st.Resource].flat()),
        }).toEqual({
          handler,
          actions: expected,
          resources: expected.length ? [idempotencyTableArn] : [],
        });
        const name = resources[fnId].Properties.Environment.Variables.IDEMPOTENCY_TABLE_NAME;
        expect({ handler, name }).toEqual({ handler, name: expected.length ? { Ref: idempotencyTableLogicalId(template) } : undefined });
      }
    });
  });

  describe('rate limit counter table', () => {
    it('is keyed by RATE_LIMIT_TABLE, on-demand, expires counters on its TTL attribute, has no stream or index, and goes with the stack', () => {
      const table = resources[rateLimitTableLogicalId(template)];
      expect(table.Properties).toEqual({
        KeySchema: [{ AttributeName: RATE_LIMIT_TABLE.partitionKey, KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: RATE_LIMIT_TABLE.partitionKey, AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
        TimeToLiveSpecification: { AttributeName: RATE_LIMIT_TABLE.ttlAttribute, Enabled: true },
      });
      expect(table.DeletionPolicy).toBe('Delete');
      expect(template.toJSON().Outputs.RateLimitTableName).toEqual({ Value: { Ref: rateLimitTableLogicalId(template) } });
    });

    it('is granted UpdateItem, and named, to exactly the functions of routes that act in an organization; they may read the organization', () => {
      const counterTableArn = { 'Fn::GetAtt': [rateLimitTableLogicalId(template), 'Arn'] };
      const counting = listHandlers().filter((h) => h.routes.some((r) => countsAgainstRateLimits(ROUTES[r])));
      expect(counting.length).toBeGreaterThan(30);
      expect(
        listFunctions()
          .filter((f) => f.permissions.rateLimit?.length)
          .map((f) => f.handler),
      ).toEqual(counting.map((h) => h.handler));
      for (const { handler, permissions } of listFunctions()) {
        const fnId = functionLogicalId(template, handler);
        const statements = functionStatements(template, fnId).filter(isRateLimitTableStatement);
        const counts = Boolean(permissions.rateLimit?.length);
        expect({
          handler,
          actions: statements.flatMap(actionsOf),
          resources: statements.flatMap((st: Json) => [st.Resource].flat()),
        }).toEqual({
          handler,
          actions: counts ? ['dynamodb:UpdateItem'] : [],
          resources: counts ? [counterTableArn] : [],
        });
        const variables = resources[fnId].Properties.Environment.Variables;
        expect({ handler, name: variables.RATE_LIMIT_TABLE_NAME }).toEqual({
          handler,
          name: counts ? { Ref: rateLimitTableLogicalId(template) } : undefined,
        });
        if (counts) expect({ handler, table: permissions.table }).toEqual({ handler, table: expect.arrayContaining(['GetItem']) });
      }
    });

    it('gives the counting functions the default limits of the tenantRateLimit, tenantBurstLimit and tenantDailyQuota settings, and no other function', () => {
      const custom = synth({ tenantLimits: { rate: 7, burst: 21, dailyQuota: 5000 } });
      for (const { handler, permissions } of listFunctions()) {
        const variables = custom.toJSON().Resources[functionLogicalId(custom, handler)].Properties.Environment.Variables;
        const expected = permissions.rateLimit?.length
          ? { RATE_LIMIT_DEFAULT_RATE: '7', RATE_LIMIT_DEFAULT_BURST: '21', RATE_LIMIT_DEFAULT_DAILY_QUOTA: '5000' }
          : {};
        const given = Object.fromEntries(Object.entries(variables).filter(([name]) => name.startsWith('RATE_LIMIT_DEFAULT_')));
        expect({ handler, given }).toEqual({ handler, given: expected });
      }
    });
  });

  describe('IAM least privilege', () => {
    it('grants each function exactly the table actions of its manifest permissions, on the table and its indexes only', () => {
      for (const { handler, permissions } of listFunctions()) {
        const statements = functionStatements(template, functionLogicalId(template, handler)).filter(isTableStatement);
        const expectedActions = (permissions.table ?? []).map((action) => `dynamodb:${action}`).sort();
        expect({ handler, actions: statements.flatMap(actionsOf).sort() }).toEqual({ handler, actions: expectedActions });
        for (const statement of statements) {
          expect({ handler, effect: statement.Effect, notAction: statement.NotAction, resources: [statement.Resource].flat() }).toEqual({
            handler,
            effect: 'Allow',
            notAction: undefined,
            resources: [tableArn(), indexArns()],
          });
        }
      }
    });

    it('gives functions without table permissions no DynamoDB statement on the table', () => {
      const withoutTable = listFunctions().filter((h) => !h.permissions.table?.length);
      expect(withoutTable.map((h) => h.handler)).toContain(ROUTES.health.handler);
      for (const { handler } of withoutTable) {
        const statements = functionStatements(template, functionLogicalId(template, handler)).filter(isTableStatement);
        expect({ handler, statements }).toEqual({ handler, statements: [] });
      }
    });

    it("grants the authorizer exactly GetItem, PutItem (identity links) and UpdateItem (a key's last use) on the table and its indexes", () => {
      const statements = functionStatements(template, authorizerFunctionId(template)).filter(isDynamoStatement);
      expect(statements.flatMap(actionsOf).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
      for (const statement of statements) {
        expect(statement.Effect).toBe('Allow');
        expect([statement.Resource].flat()).toEqual([tableArn(), indexArns()]);
      }
    });

    it('grants the profile key only to the functions whose manifest asks for it, with exactly those actions, bound to a member context', () => {
      const keyId = onlyLogicalId(template, 'AWS::KMS::Key');
      for (const { handler, permissions } of listFunctions()) {
        const fnId = functionLogicalId(template, handler);
        const kmsStatements = functionStatements(template, fnId).filter((st: Json) => actionsOf(st).some((a) => a.startsWith('kms:')));
        // Webhook signing secrets use the same key under their own context (test/infra/webhooks.test.ts); every other use is a member profile's.
        const statements = kmsStatements.filter(
          (st: Json) => st.Condition?.StringEquals?.['kms:EncryptionContext:purpose'] !== 'webhook-secret',
        );
        const expected = (permissions.profileKey ?? []).map((action) => `kms:${action}`).sort();
        expect({ handler, actions: statements.flatMap(actionsOf).sort() }).toEqual({ handler, actions: expected });
        for (const statement of statements) {
          expect(statement.Resource).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
          expect(statement.Condition).toEqual({
            StringEquals: { 'kms:EncryptionContext:purpose': 'member-profile' },
            Null: { 'kms:EncryptionContext:org_id': 'false', 'kms:EncryptionContext:user_id': 'false' },
          });
        }
        const usesKey = expected.length > 0 || (permissions.webhookSecretKey?.length ?? 0) > 0;
        const env = resources[fnId].Properties.Environment.Variables;
        expect({ handler, keyArn: env.PROFILE_KMS_KEY_ARN }).toEqual({
          handler,
          keyArn: usesKey ? { 'Fn::GetAtt': [keyId, 'Arn'] } : undefined,
        });
      }
      const authorizerKms = functionStatements(template, authorizerFunctionId(template)).filter((st: Json) =>
        actionsOf(st).some((a) => a.startsWith('kms:')),
      );
      expect(authorizerKms).toEqual([]);
    });

    it('grants each function exactly the S3 actions of its manifest permissions, under recordings/ only (exports/ for the export objects, vocabularies/ for the vocabulary files)', () => {
      const bucketId = onlyLogicalId(template, 'AWS::S3::Bucket');
      const bucketArn = { 'Fn::GetAtt': [bucketId, 'Arn'] };
      const recordingObjects = { 'Fn::Join': ['', [bucketArn, '/recordings/*']] };
      const exportObjects = { 'Fn::Join': ['', [bucketArn, '/exports/*']] };
      const vocabularyFiles = { 'Fn::Join': ['', [bucketArn, '/vocabularies/*']] };
      for (const { handler, permissions } of listFunctions()) {
        const all = functionStatements(template, functionLogicalId(template, handler)).filter((st: Json) =>
          actionsOf(st).some((a) => a.startsWith('s3:')),
        );
        const onExports = all.filter((st: Json) => JSON.stringify(st.Resource) === JSON.stringify(exportObjects));
        expect({ handler, exports: onExports.flatMap(actionsOf).sort() }).toEqual({
          handler,
          exports: (permissions.exportObjects ?? []).map((a) => `s3:${a}`).sort(),
        });
        const onVocabularies = all.filter((st: Json) => JSON.stringify(st.Resource) === JSON.stringify(vocabularyFiles));
        expect({ handler, vocabularies: onVocabularies.flatMap(actionsOf).sort() }).toEqual({
          handler,
          vocabularies: (permissions.vocabularyFiles ?? []).map((a) => `s3:${a}`).sort(),
        });
        const statements = all.filter((st: Json) => !onExports.includes(st) && !onVocabularies.includes(st));
        const expected = (permissions.bucket ?? []).map((a) => `s3:${a}`).sort();
        expect({ handler, actions: statements.flatMap(actionsOf).sort() }).toEqual({ handler, actions: expected });
        for (const statement of statements) {
          const actions = actionsOf(statement);
          const granted = { handler, actions, resource: statement.Resource, condition: statement.Condition };
          if (actions.includes('s3:ListBucket')) {
            // Listing only for prefixes under recordings/.
            expect(granted).toEqual({
              handler,
              actions: ['s3:ListBucket'],
              resource: bucketArn,
              condition: { StringLike: { 's3:prefix': 'recordings/*' } },
            });
          } else if (actions.includes('s3:ListBucketMultipartUploads')) {
            // The action has no s3:prefix condition key (a condition on it would deny every call).
            expect(granted).toEqual({ handler, actions: ['s3:ListBucketMultipartUploads'], resource: bucketArn, condition: undefined });
          } else {
            expect(granted).toEqual({ handler, actions, resource: recordingObjects, condition: undefined });
          }
        }
      }
    });

    it('lets the translation consumer alone call Amazon Translate, and only TranslateText', () => {
      const translators = listFunctions()
        .filter(({ handler }) =>
          functionStatements(template, functionLogicalId(template, handler)).some((st: Json) =>
            actionsOf(st).some((action: string) => action.startsWith('translate:')),
          ),
        )
        .map((f) => f.handler);
      expect(translators).toEqual([EVENT_CONSUMERS.runTranslation.handler]);
      const statements = functionStatements(template, functionLogicalId(template, EVENT_CONSUMERS.runTranslation.handler)).filter(
        (st: Json) => actionsOf(st).some((action: string) => action.startsWith('translate:')),
      );
      expect(statements.map((st: Json) => ({ actions: actionsOf(st), resource: st.Resource }))).toEqual([
        { actions: ['translate:TranslateText'], resource: '*' },
      ]);
    });

    it('lets the upload function put, the completion and media functions read, the transcription functions read and write job media and output, and the object cleanup consumer alone list and abort uploads', () => {
      // On recordings/ (the members' exports have a prefix and a test of their own, below).
      const exportsPrefix = (st: Json) => /\/(exports|vocabularies)\/\*/.test(JSON.stringify(st.Resource));
      const holders = (action: string) =>
        listFunctions()
          .filter(({ handler }) =>
            functionStatements(template, functionLogicalId(template, handler)).some(
              (st: Json) => !exportsPrefix(st) && actionsOf(st).includes(`s3:${action}`),
            ),
          )
          .map((f) => f.handler);
      // Transcribe reads the media and writes its output with the permissions of who starts the job: the starter and the sweeper.
      const starters = [EVENT_CONSUMERS.startTranscriptionJob.handler, TRANSCRIPTION_SWEEPER.handler];
      // The export consumer reads the recorded files it copies into a member's export.
      expect(holders('PutObject').sort()).toEqual([ROUTES.createUploadUrl.handler, ...starters].sort());
      // GetObject is the action HeadObject needs: the completion reads the stored content type, which S3 events do not carry.
      // The media routes sign GET URLs, which work only with the signer's GetObject. The finisher and the sweeper read jobs' output.
      expect(holders('GetObject').sort()).toEqual(
        [
          ROUTES.getRecordingMedia.handler,
          ROUTES.getPublicRecordingMedia.handler,
          EVENT_HANDLERS.completeUpload.handler,
          ...starters,
          EVENT_CONSUMERS.finishTranscriptionJob.handler,
          EVENT_CONSUMERS.runMemberExport.handler,
        ].sort(),
      );
      // The finisher and the sweeper delete a job's output once its transcript is stored (or discarded); the
      // upload completion a file landing for a recording deleted for good; the erasure job its member's recordings' files.
      expect(holders('DeleteObject').sort()).toEqual(
        [
          EVENT_CONSUMERS.cleanUpRecording.handler,
          EVENT_CONSUMERS.finishTranscriptionJob.handler,
          TRANSCRIPTION_SWEEPER.handler,
          EVENT_HANDLERS.completeUpload.handler,
          EVENT_CONSUMERS.runMemberErasure.handler,
        ].sort(),
      );
      // A permanent delete only commits; the object goes when the consumer handles recording.deleted (or the erasure job does it itself).
      for (const action of ['AbortMultipartUpload', 'ListBucket', 'ListBucketMultipartUploads']) {
        expect({ action, holders: holders(action).sort() }).toEqual({
          action,
          holders: [EVENT_CONSUMERS.cleanUpRecording.handler, EVENT_CONSUMERS.runMemberErasure.handler].sort(),
        });
      }
    });

    it("lets the export consumer alone write members' exports, Get member export alone sign their downloads, and the export and erasure consumers delete them", () => {
      const holders = (action: string) =>
        listFunctions()
          .filter(({ handler }) =>
            functionStatements(template, functionLogicalId(template, handler)).some(
              (st: Json) => JSON.stringify(st.Resource).includes('/exports/*') && actionsOf(st).includes(`s3:${action}`),
            ),
          )
          .map((f) => f.handler)
          .sort();
      const writer = EVENT_CONSUMERS.runMemberExport.handler;
      expect(holders('PutObject')).toEqual([writer]);
      expect(holders('AbortMultipartUpload')).toEqual([writer]);
      expect(holders('GetObject')).toEqual([ROUTES.getMemberExport.handler]);
      expect(holders('DeleteObject')).toEqual([writer, EVENT_CONSUMERS.runMemberErasure.handler].sort());
    });

    it("expires members' exports after 7 days (the bucket's lifecycle rule on exports/)", () => {
      const bucket = Object.values(template.findResources('AWS::S3::Bucket'))[0] as Json;
      expect(bucket.Properties.LifecycleConfiguration.Rules).toContainEqual(
        expect.objectContaining({ Prefix: 'exports/', ExpirationInDays: 7, Status: 'Enabled' }),
      );
    });

    it('blocks public access to the bucket, encrypts it, enforces SSL and sends its uploads to the completion function', () => {
      const bucketId = onlyLogicalId(template, 'AWS::S3::Bucket');
      const bucket = resources[bucketId];
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe(
        'AES256',
      );
      expect(bucket.Properties.LifecycleConfiguration.Rules[0].AbortIncompleteMultipartUpload).toEqual({ DaysAfterInitiation: 1 });
      expect(bucket.DeletionPolicy).toBe('Retain');
      const policy = Object.values(resources).find((r: Json) => r.Type === 'AWS::S3::BucketPolicy') as Json;
      expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('aws:SecureTransport');
      const notifications = Object.values(resources).find((r: Json) => r.Type === 'Custom::S3BucketNotifications') as Json;
      const config = notifications.Properties.NotificationConfiguration.LambdaFunctionConfigurations[0];
      expect(config.Events).toEqual(['s3:ObjectCreated:*']);
      expect(config.LambdaFunctionArn).toEqual({
        'Fn::GetAtt': [functionLogicalId(template, EVENT_HANDLERS.completeUpload.handler), 'Arn'],
      });
    });

    it('lets only the invitation mail consumer send email, from the configured sender only', () => {
      for (const { handler, permissions } of listFunctions()) {
        const statements = functionStatements(template, functionLogicalId(template, handler)).filter((st: Json) =>
          actionsOf(st).some((a) => a.startsWith('ses:')),
        );
        const expected = (permissions.mail ?? []).map((a) => `ses:${a}`);
        expect({ handler, actions: statements.flatMap(actionsOf) }).toEqual({ handler, actions: expected });
        for (const statement of statements) {
          expect(JSON.stringify(statement.Resource)).toContain(':identity/');
          expect(statement.Condition).toEqual({ StringEquals: { 'ses:FromAddress': expect.any(String) } });
        }
      }
      const senders = listFunctions()
        .filter((f) => f.permissions.mail?.length)
        .map((f) => f.handler);
      // Send and resend only commit the invite; the consumer sends the email, with retries.
      expect(senders).toEqual([EVENT_CONSUMERS.sendInvitationEmail.handler]);
    });

    /** The Regions whose summary models a test reads: the stack's own, or each one the mapping of an environment-agnostic stack covers. */
    const modelRegions = (): string[] =>
      environment.env?.region ? [environment.env.region] : Object.keys(template.toJSON().Mappings.SummaryModels);

    it("lets only the summary consumer and the ask functions invoke Bedrock, on the map's models only: each profile in the stack's Region, its model in every Region through that profile", () => {
      const invokers = listFunctions().filter(({ handler }) =>
        functionStatements(template, functionLogicalId(template, handler)).some((st: Json) =>
          actionsOf(st).some((a) => a.startsWith('bedrock:')),
        ),
      );
      // Ask writes its answers with the summaries' model map (docs/search.md): the same grant.
      expect(invokers.map((f) => f.handler).sort()).toEqual(
        [EVENT_CONSUMERS.runSummary.handler, ROUTES.askQuestion.handler, ROUTES.askPublicQuestion.handler].sort(),
      );
      for (const { handler } of invokers) {
        const grants = (id: string) =>
          functionStatements(template, id)
            .filter((st: Json) => actionsOf(st).some((a) => a.startsWith('bedrock:')))
            // A route stack reads the model map from its copy of the root's mapping (CDK names it MappingCopy<name><hash>).
            .map((st: Json) => JSON.stringify(st.Resource).replace(/MappingCopySummaryModels[0-9a-f]+/g, 'SummaryModels'));
        expect(grants(functionLogicalId(template, handler))).toEqual(
          grants(functionLogicalId(template, EVENT_CONSUMERS.runSummary.handler)),
        );
      }
      const consumerId = functionLogicalId(template, EVENT_CONSUMERS.runSummary.handler);
      const [direct, everyRegion, ...others] = functionStatements(template, consumerId).filter((st: Json) =>
        actionsOf(st).some((a) => a.startsWith('bedrock:')),
      );
      expect(others).toEqual([]);
      expect([direct, everyRegion].flatMap(actionsOf)).toEqual(['bedrock:InvokeModel', 'bedrock:InvokeModel']);
      // The Region and account as the template holds them: pseudo parameters, or those the CLI resolved.
      const [region, account] = [environment.env?.region ?? '<AWS::Region>', environment.env?.account ?? '<AWS::AccountId>'];
      for (const modelRegion of modelRegions()) {
        const text = (value: Json) => textOfValue(value, { template: template.toJSON(), region: modelRegion });
        const modelIds = [...new Set(summaryModelIdsOf(template, consumerId, modelRegion))];
        const profiles = modelIds.filter((id) => /^[a-z-]+\.[a-z]+\./.test(id));
        const profileArns = profiles.map((id) => `arn:<AWS::Partition>:bedrock:${region}:${account}:inference-profile/${id}`);
        const modelArns = modelIds
          .filter((id) => !profiles.includes(id))
          .map((id) => `arn:<AWS::Partition>:bedrock:${region}::foundation-model/${id}`);
        const routedTo = [...new Set(profiles.map((id) => id.replace(/^[a-z-]+\./, '')))].map(
          (model) => `arn:<AWS::Partition>:bedrock:*::foundation-model/${model}`,
        );
        expect({ modelRegion, direct: [direct.Resource].flat().map(text).sort() }).toEqual({
          modelRegion,
          direct: [...profileArns, ...modelArns].sort(),
        });
        expect({ modelRegion, everyRegion: [everyRegion.Resource].flat().map(text).sort() }).toEqual({
          modelRegion,
          everyRegion: routedTo.sort(),
        });
        expect({ modelRegion, through: everyRegion.Condition.StringLike['bedrock:InferenceProfileArn'].map(text).sort() }).toEqual({
          modelRegion,
          through: profileArns.sort(),
        });
      }
    });

    it("writes summaries with the models of the stack's Region: its geography's profiles, else global ones (or the map given)", () => {
      const consumerId = functionLogicalId(template, EVENT_CONSUMERS.runSummary.handler);
      for (const modelRegion of modelRegions()) {
        const fits = environment.summaryModels ?? defaultProfilesIn(modelRegion);
        const modelIds = summaryModelIdsOf(template, consumerId, modelRegion);
        expect(modelIds).toHaveLength(4);
        for (const modelId of modelIds)
          expect({ modelRegion, modelId, fits: fits.test(modelId) }).toEqual({ modelRegion, modelId, fits: true });
      }
      // An environment-agnostic stack deploys only where the default map has every model: CloudFormation finds no mapping entry elsewhere.
      if (!environment.env) expect(modelRegions()).toEqual(DEFAULT_MAP_REGIONS_DOCUMENTED);
    });

    it('keeps the profile key with rotation on, retained on stack deletion', () => {
      const key = resources[onlyLogicalId(template, 'AWS::KMS::Key')];
      expect(key.Properties.EnableKeyRotation).toBe(true);
      expect(key.DeletionPolicy).toBe('Retain');
    });

    it('has no wildcard action in any policy statement', () => {
      const statements: Json[] = [];
      for (const resource of Object.values(resources)) {
        if (resource.Type === 'AWS::IAM::Policy' || resource.Type === 'AWS::IAM::ManagedPolicy')
          statements.push(...resource.Properties.PolicyDocument.Statement);
        if (resource.Type === 'AWS::IAM::Role')
          statements.push(...(resource.Properties.Policies ?? []).flatMap((p: Json) => p.PolicyDocument.Statement));
      }
      expect(statements.length).toBeGreaterThan(0);
      const wildcards = statements.flatMap(actionsOf).filter((action) => typeof action !== 'string' || action.includes('*'));
      expect(wildcards).toEqual([]);
      expect(statements.filter((s) => s.NotAction !== undefined)).toEqual([]);
    });
  });

  describe('ID token issuer', () => {
    it('creates a Cognito user pool and client and gives their issuer to the authorizer', () => {
      const poolId = onlyLogicalId(template, 'AWS::Cognito::UserPool');
      const clientId = onlyLogicalId(template, 'AWS::Cognito::UserPoolClient');
      expect(resources[clientId].Properties.UserPoolId).toEqual({ Ref: poolId });
      const env = resources[authorizerFunctionId(template)].Properties.Environment.Variables;
      // The Region as the template holds it: the pseudo parameter, or the Region the CLI resolved.
      const region = environment.env?.region ?? '<AWS::Region>';
      expect(textOfValue(env.ID_TOKEN_ISSUER)).toBe(`https://cognito-idp.${region}.amazonaws.com/<${poolId}>`);
      expect(env.ID_TOKEN_AUDIENCE).toEqual({ Ref: clientId });
      expect(textOfValue(env.ID_TOKEN_JWKS_URL)).toBe(`https://cognito-idp.${region}.amazonaws.com/<${poolId}>/.well-known/jwks.json`);
    });

    it('gives ID token settings to the authorizer only', () => {
      const authorizerId = authorizerFunctionId(template);
      for (const [id, fn] of Object.entries(template.findResources('AWS::Lambda::Function'))) {
        if (id === authorizerId) continue;
        const names = Object.keys(fn.Properties.Environment?.Variables ?? {}).filter((name) => name.startsWith('ID_TOKEN_'));
        expect({ id, names }).toEqual({ id, names: [] });
      }
    });
  });
});

describe('VoiceOrgStack template (external ID token issuer)', () => {
  const idTokenIssuer = { issuer: 'https://issuer.example.com', audience: 'client-1', jwksUrl: 'https://issuer.example.com/jwks' };
  let template: Template;

  beforeAll(() => {
    template = synth({ idTokenIssuer });
  });

  it('creates no Cognito user pool or client', () => {
    template.resourceCountIs('AWS::Cognito::UserPool', 0);
    template.resourceCountIs('AWS::Cognito::UserPoolClient', 0);
  });

  it('gives the external issuer, audience and JWKS URL to the authorizer', () => {
    const env = template.toJSON().Resources[authorizerFunctionId(template)].Properties.Environment.Variables;
    expect({ issuer: env.ID_TOKEN_ISSUER, audience: env.ID_TOKEN_AUDIENCE, jwksUrl: env.ID_TOKEN_JWKS_URL }).toEqual(idTokenIssuer);
  });
});

describe('VoiceOrgStack template (settings from context)', () => {
  let template: Template;

  beforeAll(() => {
    template = synthFromContext({
      stage: 'dev',
      throttleRateLimit: '7.5',
      throttleBurstLimit: 15,
      logRetentionDays: '90',
      authorizerCacheSeconds: '0',
    });
  });

  it('throttles the stage at the rate and burst from context', () => {
    const stage = Object.values(template.findResources('AWS::ApiGateway::Stage'))[0].Properties;
    expect(stage.StageName).toBe('dev');
    expect(stage.MethodSettings[0]).toMatchObject({ ThrottlingRateLimit: 7.5, ThrottlingBurstLimit: 15 });
  });

  it('keeps every log group (functions and access logs) for the retention from context', () => {
    const retentions = Object.values(template.findResources('AWS::Logs::LogGroup')).map((g) => g.Properties.RetentionInDays);
    // One per function, and the API's access logs.
    expect(retentions.length).toBe(listFunctions().length + 1);
    expect(new Set(retentions)).toEqual(new Set([90]));
  });

  it('caches authorizer results for the seconds from context', () => {
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', { AuthorizerResultTtlInSeconds: 0 });
  });
});

describe('stackPropsFromContext', () => {
  const propsOf = (context: Record<string, unknown>) => stackPropsFromContext(new App({ context }).node);

  it('names the stack after the stage and leaves unset settings to the stack defaults', () => {
    expect(propsOf({})).toEqual({
      stackName: 'VoiceOrgApi-prod',
      props: {
        stage: 'prod',
        idTokenIssuer: undefined,
        authorizerCacheSeconds: undefined,
        mail: undefined,
        throttle: undefined,
        logRetention: undefined,
      },
    });
  });

  it('reads the issuer, the SES sender and throttling, filling in what is left out', () => {
    const { props } = propsOf({
      idTokenIssuer: 'https://issuer.example.com/',
      idTokenAudience: 'client-1',
      sesIdentity: 'acme.example',
      throttleBurstLimit: '10',
    });
    expect(props.idTokenIssuer).toEqual({
      issuer: 'https://issuer.example.com/',
      audience: 'client-1',
      jwksUrl: 'https://issuer.example.com/.well-known/jwks.json',
    });
    expect(props.mail).toEqual({ identity: 'acme.example', fromAddress: 'no-reply@acme.example', appUrl: 'https://app.example.com' });
    expect(props.throttle).toEqual({ rateLimit: STACK_DEFAULTS.throttle.rateLimit, burstLimit: 10 });
  });

  it('reads the default tenant limits, leaving out what is not set (the functions then use the config defaults)', () => {
    expect(propsOf({ tenantRateLimit: '10', tenantBurstLimit: 30, tenantDailyQuota: '100000' }).props.tenantLimits).toEqual({
      rate: 10,
      burst: 30,
      dailyQuota: 100_000,
    });
    expect(propsOf({ tenantDailyQuota: 5000 }).props.tenantLimits).toEqual({ rate: undefined, burst: undefined, dailyQuota: 5000 });
    expect(propsOf({}).props.tenantLimits).toBeUndefined();
  });

  it('reads the retention periods and the alarm topic of the event pipeline', () => {
    const { props } = propsOf({
      trashRetentionDays: '7',
      auditRetentionDays: 90,
      alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:ops-alarms',
    });
    expect(props).toMatchObject({
      trashRetentionDays: 7,
      auditRetentionDays: 90,
      alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:ops-alarms',
    });
  });

  it.each([
    [{ idTokenIssuer: 'https://issuer.example.com' }, /idTokenIssuer needs idTokenAudience/],
    [{ idTokenAudience: 'client-1' }, /need idTokenIssuer/],
    [{ appUrl: 'https://app.acme.example' }, /need sesIdentity/],
    [{ sesIdentity: 'acme.example', sesFromAddress: 'nobody' }, /sesFromAddress must be an email address/],
    [{ throttleRateLimit: '0' }, /throttleRateLimit must be/],
    [{ throttleBurstLimit: '2.5' }, /throttleBurstLimit must be/],
    [{ tenantRateLimit: '0' }, /tenantRateLimit must be a whole number of requests per second from 1 to 10000/],
    [{ tenantBurstLimit: '2.5' }, /tenantBurstLimit must be a whole number/],
    [{ tenantDailyQuota: 'lots' }, /tenantDailyQuota must be a whole number of requests per day/],
    [{ tenantRateLimit: 100 }, /tenantBurstLimit must be at least tenantRateLimit/],
    [{ tenantRateLimit: 10, tenantBurstLimit: 5 }, /tenantBurstLimit must be at least tenantRateLimit/],
    [{ logRetentionDays: 45 }, /logRetentionDays must be one of CloudWatch's retention periods/],
    [{ authorizerCacheSeconds: 'soon' }, /authorizerCacheSeconds must be/],
    [{ trashRetentionDays: '0' }, /trashRetentionDays must be a whole number of days from 1 to 3650/],
    [{ auditRetentionDays: 4000 }, /auditRetentionDays must be a whole number of days from 1 to 3650/],
    [{ alarmTopicArn: 'ops-alarms' }, /alarmTopicArn must be an SNS topic ARN/],
    [{ stage: 'my stage' }, /Context stage must be/],
  ])('refuses %j', (context, message) => {
    expect(() => propsOf(context)).toThrow(message);
  });
});
