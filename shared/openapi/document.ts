import { toJsonSchema, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { INTEGER_PARAMETERS } from '../schemas/validation';
import { IDEMPOTENCY_HEADERS, IDEMPOTENCY_KEY_MAX_LENGTH, IN_PROGRESS_RETRY_AFTER_SECONDS } from '../http/middlewares/idempotency';
import { isOperation, listEndpoints, ROUTE_DOCS, type OperationEndpoint } from '../routes/manifest';
import { countsAgainstRateLimits, takesIdempotencyKey, type Endpoint, type RouteDefinition, type RouteRequest } from '../routes/route-definition';
import type { ErrorStatus } from '../routes/route-docs';
import { IDEMPOTENCY_TABLE } from '../storage/idempotency-table-definition';
import { SHAPE_ALTERNATIVES } from '../schemas/common';
import { ErrorEnvelope } from '../schemas/envelopes';
import { pathSchema, querySchemaOf } from '../schemas/request-parameters';
import { ERROR_CODES, type ErrorCode } from '../core/error-codes';
import { SCHEMA_COMPONENTS } from './components';
import { INFO_DESCRIPTION, TAG_DESCRIPTIONS, WEBHOOK_DELIVERY } from './document-texts';
import { refusalsOf } from './refusals';

/**
 * The OpenAPI 3.1 document of the API, generated from the route manifest (shared/routes/manifest.ts:
 * each route's definition and docs, from its route module) and the valibot schemas. Never written by hand: the local
 * server serves it at /api/v1/openapi.json and the integration tests hold every response to it.
 */

type Json = Record<string, any>;

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
};

/**
 * A refusal of one operation: what the status means, each code it may carry with its meaning
 * (in the description for readers, in `x-error-codes` for tools), and the error envelope whose
 * `error` is one of those codes.
 */
function errorResponse(status: ErrorStatus, codes: readonly ErrorCode[], counted: boolean): Json {
  const headers = status === 429 ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, ...(counted ? RATE_LIMIT_HEADER_REFS : {}) } : undefined;
  return {
    description: `${ERROR_DESCRIPTIONS[status]}\n\n${codes.map((code) => `- \`${code}\`: ${ERROR_CODES[code].meaning}`).join('\n')}`,
    ...(headers ? { headers } : {}),
    'x-error-codes': codes,
    content: {
      'application/json': {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/ErrorEnvelope' },
            {
              type: 'object',
              properties: { error: { type: 'string', enum: codes, description: `The error code: one of those of a ${status} of this operation.` } },
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

/**
 * The response headers of the rate limits (draft-ietf-httpapi-ratelimit-headers; docs/rate-limits.md),
 * components every counted operation refers to.
 */
const RATE_LIMIT_HEADERS: Record<string, Json> = {
  'RateLimit-Limit': {
    description: "The requests the limit nearest to refusing admits per window: the organization's burst, the API key's own burst, or the daily quota.",
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Remaining': { description: 'The requests that limit still admits in its current window (0 on a 429 it refused).', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: "Seconds until that limit's window ends and it admits requests again.", schema: { type: 'integer', minimum: 1 } },
  'Retry-After': {
    description: 'Seconds to wait before sending the request again: until the window of the limit that refused it ends (00:00 UTC for the daily quota; 1 s for the stage).',
    schema: { type: 'integer', minimum: 1 },
  },
};
const RATE_LIMIT_HEADER_REFS = Object.fromEntries(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'].map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/** The response header of a replayed response. */
const IDEMPOTENT_REPLAYED_HEADER = {
  description: 'Present, with the value true, on a response replayed for an Idempotency-Key seen before (the operation did not run again).',
  schema: { type: 'string', enum: ['true'] },
};

const SUCCESS_DESCRIPTIONS: Record<number, string> = { 200: 'OK', 201: 'Created' };

/** The component name of each schema of SCHEMA_COMPONENTS. */
const COMPONENT_NAMES = new Map<unknown, string>(Object.entries(SCHEMA_COMPONENTS).map(([name, schema]) => [baseOf(schema), name]));

/** The schema a pipe starts with (the converter meets that one, not the pipe), or the schema itself. */
function baseOf(schema: v.GenericSchema): v.GenericSchema {
  return 'pipe' in schema ? (schema.pipe as v.GenericSchema[])[0] : schema;
}

/** A schema in JSON Schema; a component schema inside it is a $ref to the component (but not `schema` itself, when it is the component being defined). */
function jsonSchema(schema: v.GenericSchema, typeMode: 'input' | 'output'): Json {
  const { $schema: _ignored, ...rest } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode,
    errorMode: 'ignore',
    overrideSchema: ({ valibotSchema }) => {
      const component = valibotSchema !== baseOf(schema) ? COMPONENT_NAMES.get(valibotSchema) : undefined;
      if (component) return { $ref: `#/components/schemas/${component}` };
      // An integer query parameter is text on the wire, validated as such: documented as the integer it holds.
      const integer = INTEGER_PARAMETERS.get(valibotSchema as v.GenericSchema);
      if (integer) return { ...integer };
      // A value whose form follows its shape (shared/schemas/common.ts oneOfByShape) is any of its forms.
      const forms = SHAPE_ALTERNATIVES.get(valibotSchema as v.GenericSchema);
      return forms ? { anyOf: forms.map((form) => jsonSchema(form, typeMode)) } : undefined;
    },
  }) as JsonSchema & Json;
  // The override above leaves the lazy schema's own definition behind, unreferenced.
  if (rest.$defs && !JSON.stringify({ ...rest, $defs: undefined }).includes('#/$defs/')) delete rest.$defs;
  return rest;
}

function security({ access }: RouteDefinition): Json[] {
  if (access === 'public') return [];
  const schemes: Json[] = [];
  if (access.idToken) schemes.push({ idToken: [] });
  if (access.orgKey || access.userKey) schemes.push({ apiKey: [] });
  return schemes;
}

function accessDescription({ access, orgless }: RouteDefinition): string {
  if (access === 'public') return 'Public: no credential.';
  if (orgless) return 'Access: the ID token of any signed-in user whose verified email is the one the invitation was sent to; no membership is needed yet.';
  const parts: string[] = [];
  if (access.idToken) parts.push(`ID tokens of active members with role ${access.idToken.minRole} or higher`);
  if (access.orgKey) parts.push(`organization API keys with scopes ${access.orgKey.scopes.join(', ')}`);
  if (access.userKey) parts.push(`personal API keys with scopes ${access.userKey.scopes.join(', ')} of members with role ${access.userKey.minRole} or higher`);
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
    // The public aliases take the organization from the API key; an ID token names it.
    parameters.push({
      name: 'org_id',
      in: 'query',
      required: false,
      description: "The organization to act on: an ID token's caller names it (optional when they administer exactly one); an API key's must match or be left out.",
      schema: { type: 'string' },
    });
  }
  const keyed = takesIdempotencyKey(endpoint.route);
  if (keyed) parameters.push(IDEMPOTENCY_KEY_PARAMETER);
  const counted = countsAgainstRateLimits(endpoint.route);
  const responses: Json = {};
  for (const [status, schema] of Object.entries(doc.responses)) {
    const headers = {
      ...(keyed ? { [IDEMPOTENCY_HEADERS.replayed.replace(/(^|-)\w/g, (c) => c.toUpperCase())]: IDEMPOTENT_REPLAYED_HEADER } : {}),
      ...(counted ? RATE_LIMIT_HEADER_REFS : {}),
    };
    responses[status] = {
      description: SUCCESS_DESCRIPTIONS[Number(status)] ?? 'Success',
      ...(Object.keys(headers).length ? { headers } : {}),
      content: {
        'application/json': { schema: jsonSchema(schema, 'output'), example: examples.responses[Number(status)] },
        // Text the operation answers instead of JSON when asked (Get transcript's formats).
        ...Object.fromEntries((doc.textFormats ?? []).map((format) => [format.mediaType, { schema: { type: 'string', description: format.description }, example: format.example }])),
      },
    };
  }
  for (const [status, codes] of refusalsOf(endpoint, { body: Boolean(request.body), idempotencyKey: keyed })) {
    responses[status] = errorResponse(status, codes, counted);
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

/** OpenAPI parameters from the JSON Schema of a path or query object: one per property. */
function parametersOf(object: Json, where: 'path' | 'query'): Json[] {
  const required = new Set<string>(object.required ?? []);
  return Object.entries<Json>(object.properties ?? {}).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return { name, in: where, required: where === 'path' || required.has(name), ...(description ? { description } : {}), schema: rest };
  });
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
    (paths[endpoint.path] ??= {})[endpoint.method.toLowerCase()] = operation(endpoint);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Voice Org API',
      version: '1.0.0',
      description: INFO_DESCRIPTION,
      license: { name: 'UNLICENSED', identifier: 'UNLICENSED' },
    },
    servers: [{ url: options.serverUrl ?? '/' }],
    tags: [...new Set(Object.values(paths).flatMap((item: Json) => Object.values(item).flatMap((op: Json) => op.tags as string[])))].map((name) => ({
      name,
      description: TAG_DESCRIPTIONS[name] ?? name,
    })),
    paths,
    webhooks: { domainEvent: WEBHOOK_DELIVERY },
    components: {
      headers: RATE_LIMIT_HEADERS,
      schemas: {
        ErrorEnvelope: jsonSchema(ErrorEnvelope, 'output'),
        ...Object.fromEntries(Object.entries(SCHEMA_COMPONENTS).map(([name, schema]) => [name, jsonSchema(schema, 'output')])),
      },
      securitySchemes: {
        idToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: "An OpenID Connect ID token (RS256) of a signed-in user: the stack's Cognito user pool in AWS; locally `npx voice-org token --user <user_id>`.",
        },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key: an organization key (`pk_org_…`) or a personal key (`pk_user_…`). `npm start` prints a demo key; `npx voice-org key create` or Create API key make others.',
        },
      },
    },
  };
}
