import type * as v from 'valibot';
import { IDEMPOTENCY_KEY_MAX_LENGTH, IN_PROGRESS_RETRY_AFTER_SECONDS } from '../http/middlewares/idempotency';
import { isOperation, listEndpoints, ROUTE_DOCS, type OperationEndpoint } from '../routes/manifest';
import {
  countsAgainstRateLimits,
  takesIdempotencyKey,
  type Endpoint,
  type RouteDefinition,
  type RouteRequest,
} from '../routes/route-definition';
import type { ErrorStatus } from '../routes/route-docs';
import { IDEMPOTENCY_TABLE } from '../storage/idempotency-table-definition';
import { Id } from '../schemas/common';
import { ErrorEnvelope } from '../schemas/envelopes';
import { pathSchema, querySchemaOf } from '../schemas/request-parameters';
import { WebhookDeliveryHeaders } from '../schemas/webhooks';
import { ERROR_CODES, type ErrorCode } from '../core/error-codes';
import { SCHEMA_COMPONENTS } from './components';
import { INFO_DESCRIPTION, SECURITY_SCHEMES, SERVER_DESCRIPTION, TAG_DESCRIPTIONS, WEBHOOK_DELIVERY } from './document-texts';
import { jsonSchema, parametersOf, type Json } from './json-schema';
import { refusalsOf } from './refusals';
import { refusalHeaders, RESPONSE_HEADERS, successHeaders, type HeaderContext } from './response-headers';

/**
 * The OpenAPI 3.1 document of the API, generated from the route manifest (shared/routes/manifest.ts:
 * each route's definition and docs, from its route module) and the valibot schemas. Never written by hand: the local
 * server serves it at /api/v1/openapi.json and the integration tests hold every response to it.
 */
const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'The request is invalid; for a field problem, `details` names each offending field.',
  401: 'No valid credential (with `WWW-Authenticate: Bearer`).',
  403: 'The credential may not call this operation or act on this resource; the code says why.',
  404: 'What the path names does not exist (or is not visible to the caller).',
  409: 'The change conflicts with the current state.',
  410: 'The resource is gone (for example, an expired invitation).',
  413: 'The request body is over 10 MB (API Gateway).',
  414: 'The request target (path and query) is over 8,192 characters (API Gateway).',
  415: 'The body is not JSON: send Content-Type application/json (or a +json type), or none.',
  422: 'The Idempotency-Key was already used with a different request (IDEMPOTENCY_KEY_REUSED).',
  431: 'A request header is over 10,240 bytes (API Gateway).',
  429: 'Too many requests: wait `Retry-After` seconds before trying again (docs/rate-limits.md). The request did not run.',
  500: 'The request could not be completed.',
  501: 'This deployment was deployed without the capability (SEARCH_NOT_ENABLED: search is off).',
};

/**
 * A refusal of one operation: what the status means, each code it may carry with its meaning
 * (in the description for readers, in `x-error-codes` for tools), and the error envelope whose
 * `error` is one of those codes.
 */
function errorResponse(status: ErrorStatus, codes: readonly ErrorCode[], context: HeaderContext): Json {
  return {
    description: `${ERROR_DESCRIPTIONS[status]}\n\n${codes.map((code) => `- \`${code}\`: ${ERROR_CODES[code].meaning}`).join('\n')}`,
    headers: refusalHeaders(status, codes, context),
    'x-error-codes': codes,
    content: {
      'application/json': {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/ErrorEnvelope' },
            {
              type: 'object',
              properties: {
                error: { type: 'string', enum: codes, description: `The error code: one of those of a ${status} of this operation.` },
              },
            },
          ],
        },
      },
    },
  };
}

/** The Idempotency-Key request header of every route that takes one (docs/idempotency.md). */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    `Makes a retry of this POST safe (draft-ietf-httpapi-idempotency-key-header): a unique value the client chooses, such as a UUID, 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters ` +
    '(bare, or as a quoted Structured Field string); anything else is 400 INVALID_IDEMPOTENCY_KEY. ' +
    `The first response to the key (its status and body, a 4xx included, never a 5xx) is kept ${IDEMPOTENCY_TABLE.recordTtlSeconds / 3600} hours for this credential and route, ` +
    'and answered again, with Idempotent-Replayed: true, to any request with the same key: the operation runs once. ' +
    'The same key with another request (body or path) is 422 IDEMPOTENCY_KEY_REUSED; ' +
    `while the first request still runs, 409 IDEMPOTENCY_KEY_IN_PROGRESS with Retry-After: ${IN_PROGRESS_RETRY_AFTER_SECONDS}. Without the header, every request runs.`,
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
};

const SUCCESS_DESCRIPTIONS: Record<number, string> = { 200: 'OK', 201: 'Created' };

function security({ access }: RouteDefinition): Json[] {
  if (access === 'public') return [];
  const schemes: Json[] = [];
  if (access.idToken) schemes.push({ idToken: [] });
  if (access.orgKey || access.userKey) schemes.push({ apiKey: [] });
  return schemes;
}

function accessDescription({ access, orgless }: RouteDefinition): string {
  if (access === 'public') return 'Public: no credential.';
  if (orgless)
    return 'Access: the ID token of any signed-in user whose verified email is the one the invitation was sent to; no membership is needed yet.';
  const parts: string[] = [];
  if (access.idToken) parts.push(`ID tokens of active members with role ${access.idToken.minRole} or higher`);
  if (access.orgKey) parts.push(`organization API keys with scopes ${access.orgKey.scopes.join(', ')}`);
  if (access.userKey)
    parts.push(
      `personal API keys with scopes ${access.userKey.scopes.join(', ')} of members with role ${access.userKey.minRole} or higher`,
    );
  return `Access: ${parts.join('; ')}.`;
}

/** The operationId of an endpoint: the route name, with `Public` for the public alias. */
export function operationIdOf(endpoint: Endpoint): string {
  return endpoint.path === endpoint.route.path ? endpoint.routeName : `${endpoint.routeName}Public`;
}

function operation(endpoint: OperationEndpoint): Json {
  const doc = ROUTE_DOCS[endpoint.routeName];
  const { examples } = doc;
  const request: RouteRequest = endpoint.route.request ?? {};
  const parameters: Json[] = [
    ...parametersOf(jsonSchema(pathSchema(endpoint.path), 'input'), 'path'),
    ...parametersOf(jsonSchema(querySchemaOf(endpoint.route), 'input'), 'query'),
  ];
  if (endpoint.orgSource === 'credential') {
    // The public aliases take the organization from the API key; an ID token names it. Validated as an id (shared/http/middlewares/route-request.ts).
    parameters.push({
      name: 'org_id',
      in: 'query',
      required: false,
      description:
        "The organization to act on: an ID token's caller names it (optional when they administer exactly one); an API key's must match or be left out.",
      schema: jsonSchema(Id, 'input'),
    });
  }
  const keyed = takesIdempotencyKey(endpoint.route);
  if (keyed) parameters.push(IDEMPOTENCY_KEY_PARAMETER);
  const headerContext: HeaderContext = { counted: countsAgainstRateLimits(endpoint.route), keyed };
  const responses: Json = {};
  for (const [status, schema] of Object.entries(doc.responses)) {
    responses[status] = {
      description: SUCCESS_DESCRIPTIONS[Number(status)] ?? 'Success',
      headers: successHeaders(headerContext),
      content: {
        'application/json': { schema: jsonSchema(schema, 'output'), example: examples.responses[Number(status)] },
        // Text the operation answers instead of JSON when asked (Get transcript's formats).
        ...Object.fromEntries(
          (doc.textFormats ?? []).map((format) => [
            format.mediaType,
            { schema: { type: 'string', description: format.description }, example: format.example },
          ]),
        ),
      },
    };
  }
  for (const [status, codes] of refusalsOf(endpoint, { body: Boolean(request.body), idempotencyKey: keyed })) {
    responses[status] = errorResponse(status, codes, headerContext);
  }
  const op: Json = {
    operationId: operationIdOf(endpoint),
    summary: endpoint.route.summary,
    description: `${doc.description}\n\n${accessDescription(endpoint.route)}`,
    tags: [endpoint.path.split('/')[3] === 'public' ? 'public' : tagOf(endpoint.path)],
    ...(parameters.length ? { parameters } : {}),
    ...(request.body ? { requestBody: requestBodyOf(request.body, examples.request) } : {}),
    responses,
    security: security(endpoint.route),
  };
  return op;
}

/** A request body: required unless its schema is optional (Transcribe recording's), then documented by the schema it wraps. */
function requestBodyOf(body: v.GenericSchema, example: unknown): Json {
  const optional = body.type === 'optional' && 'wrapped' in body;
  const schema = optional ? (body as unknown as { wrapped: v.GenericSchema }).wrapped : body;
  return { required: !optional, content: { 'application/json': { schema: jsonSchema(schema, 'input'), example } } };
}

function tagOf(path: string): string {
  if (path === '/health') return 'health';
  const segments = path.split('/').filter((s) => s && !s.startsWith('{'));
  return segments[3] ?? segments[segments.length - 1];
}

/** Builds the OpenAPI 3.1 document from the route manifest and its schemas. */
export function openApiDocument(options: { serverUrl?: string } = {}): Json {
  const paths: Json = {};
  // The API reference's own routes (/docs, this document) are not operations of the API.
  for (const endpoint of listEndpoints().filter(isOperation)) {
    const pathItem = (paths[endpoint.path] ??= {}) as Json;
    pathItem[endpoint.method.toLowerCase()] = operation(endpoint);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Voice Org API',
      version: '1.0.0',
      description: INFO_DESCRIPTION,
      license: { name: 'UNLICENSED', identifier: 'UNLICENSED' },
    },
    // Open to every organization (x-internal: false), whichever stage serves it.
    servers: [{ url: options.serverUrl ?? '/', description: SERVER_DESCRIPTION, 'x-internal': false }],
    tags: [...new Set(Object.values(paths).flatMap((item: Json) => Object.values(item).flatMap((op: Json) => op.tags as string[])))].map(
      (name) => ({
        name,
        description: TAG_DESCRIPTIONS[name] ?? name,
      }),
    ),
    paths,
    webhooks: {
      domainEvent: { post: { ...WEBHOOK_DELIVERY.post, parameters: parametersOf(jsonSchema(WebhookDeliveryHeaders, 'output'), 'header') } },
    },
    components: {
      headers: RESPONSE_HEADERS,
      schemas: {
        ErrorEnvelope: jsonSchema(ErrorEnvelope, 'output'),
        ...Object.fromEntries(Object.entries(SCHEMA_COMPONENTS).map(([name, schema]) => [name, jsonSchema(schema, 'output')])),
      },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
