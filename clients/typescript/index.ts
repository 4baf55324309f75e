import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './api-types';

/**
 * The typed client of the Voice Org API: openapi-fetch's `createClient<paths>` over the types
 * generated from the OpenAPI document (api-types.ts, `npm run client:generate`). Paths, path
 * and query parameters, bodies, and every success and error body are checked by the compiler:
 *
 *   const api = createVoiceOrgClient({ baseUrl: 'http://127.0.0.1:3000', token: process.env.ORG_KEY });
 *   const { data, error } = await api.GET('/api/v1/organization/{orgId}/users', { params: { path: { orgId } } });
 *
 * A call never throws for an HTTP error: it resolves to `{ data }` on a 2xx and to `{ error }`
 * (the envelope `{ success: false, data: null, error: CODE, message, details? }`) otherwise,
 * with the raw `response` either way. Only a network failure rejects.
 */

export type { components, operations, paths } from './api-types';

/** A bearer token, or a function that returns the current one (an ID token that is refreshed). */
export type TokenSource = string | (() => string | undefined | Promise<string | undefined>);

export interface VoiceOrgClientOptions {
  /** Where the API is served, such as `http://127.0.0.1:3000` or `https://api.example.com` (no trailing `/api/v1`). */
  baseUrl: string;
  /** An ID token, an organization API key (`pk_org_…`) or a personal API key (`pk_user_…`); none for /health. */
  token?: TokenSource;
  /** A fetch of your own (tests, proxies, retries); the global fetch by default. */
  fetch?: ClientOptions['fetch'];
  /** Headers sent with every request. */
  headers?: ClientOptions['headers'];
}

export type VoiceOrgClient = Client<paths>;

/** A middleware that sends `Authorization: Bearer <token>` unless the request names its own. */
export function bearerAuth(token: TokenSource): Middleware {
  return {
    async onRequest({ request }) {
      if (request.headers.has('authorization')) return request;
      const value = typeof token === 'function' ? await token() : token;
      if (value) request.headers.set('authorization', `Bearer ${value}`);
      return request;
    },
  };
}

/** Creates a client of the Voice Org API that authenticates every request with `token`. */
export function createVoiceOrgClient(options: VoiceOrgClientOptions): VoiceOrgClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  if (options.token !== undefined) client.use(bearerAuth(options.token));
  return client;
}

/** The operationId of every operation of the document (`listUsers`, `listUsersPublic`...). */
export type OperationId = keyof operations;

type SuccessStatus = 200 | 201 | 202;
type JsonOf<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;
type Responses<Op extends OperationId> = operations[Op]['responses'];

/** The body of an operation's success response (`ResponseBody<'getTemplate'>`). */
export type ResponseBody<Op extends OperationId> = JsonOf<Responses<Op>[keyof Responses<Op> & SuccessStatus]>;

/** The JSON body an operation takes (`RequestBody<'createTemplate'>`); never when it takes none. */
export type RequestBody<Op extends OperationId> = JsonOf<NonNullable<operations[Op]['requestBody']>>;

/** The query parameters of an operation (`QueryParams<'listRecordings'>`). */
export type QueryParams<Op extends OperationId> = NonNullable<operations[Op]['parameters']['query']>;

/** What every refusal answers: `{ success: false, data: null, error: CODE, message, details? }`. */
export type ApiError = components['schemas']['ErrorEnvelope'];

/** One offending field of a 400 (`details`). */
export type ApiErrorDetail = NonNullable<ApiError['details']>[number];

/** A member of an organization, as the member list shows them. */
export type Member = ResponseBody<'listUsers'>['data'][number];
/** A member's settings bundle (settings, notifications, profile, preferences, tags). */
export type MemberSettings = ResponseBody<'getMemberSettings'>;
/** A recording with everything `include` asked for. */
export type Recording = ResponseBody<'getRecording'>;
/** A recording as lists show it. */
export type RecordingListItem = ResponseBody<'listRecordings'>['recordings'][number];
/** A summarization template. */
export type Template = ResponseBody<'getTemplate'>;
/** An invitation. */
export type Invite = ResponseBody<'sendInvite'>;
/** An API key, without its secret. */
export type ApiKey = components['schemas']['ApiKey'];
/** A created (or rotated) API key: the only time its secret is shown. */
export type CreatedApiKey = ResponseBody<'createApiKey'>;
/** A webhook endpoint. */
export type Webhook = components['schemas']['Webhook'];
/** A created webhook: the only time its signing secret is shown. */
export type CreatedWebhook = ResponseBody<'createWebhook'>;
/** One delivery of an event to a webhook. */
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
/** An entry of the audit log. */
export type AuditEntry = components['schemas']['AuditEntry'];
/** A domain event, as webhooks deliver it. */
export type DomainEvent = components['schemas']['DomainEvent'];
