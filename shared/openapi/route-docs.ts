import type * as v from 'valibot';
import type { ErrorCode } from '../http/error-codes';
import type { OperationEndpoint, OperationRouteName, RouteAccess } from '../routes';
import { PublicDomainEventSchema } from '../events/event-catalog';
import * as keys from '../schemas/api-keys';
import { AuditEntry, AuditLogResponse } from '../schemas/audit';
import { MemberResponse } from '../schemas/members';
import * as r from '../schemas/responses';
import * as wh from '../schemas/webhooks';

/**
 * The response schemas and refusals of every route of the manifest, for the OpenAPI
 * document (shared/openapi/document.ts) and the integration tests' contract check.
 * Kept apart from shared/routes.ts so that handler bundles do not carry the response schemas.
 * Request schemas are the handlers' own, in shared/schemas/route-requests.ts.
 */

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 414 | 415 | 422 | 429 | 431 | 500;

/** Error codes by status: what a refusal with that status may say in its `error`. */
export type ErrorCodes = Partial<Record<ErrorStatus, readonly ErrorCode[]>>;

export interface RouteDoc {
  /** Success statuses and their body schemas. */
  responses: Record<number, v.GenericSchema>;
  /**
   * The refusals of the route's own logic (its domain functions), by status, each code it
   * answers with. Those every route of its kind can answer (bad input, credential, access
   * policy, Idempotency-Key, API Gateway) are added by `refusalsOf`.
   */
  errors: ErrorCodes;
}

export const ROUTE_DOCS: Record<OperationRouteName, RouteDoc> = {
  health: { responses: { 200: r.HealthResponse }, errors: {} },
  listUsers: { responses: { 200: r.MemberListResponse }, errors: {} },
  getMemberSettings: { responses: { 200: r.SettingsBundleResponse }, errors: { 404: ['MEMBER_NOT_FOUND'] } },
  updateMemberSettings: {
    responses: { 200: r.SettingsPatchResponse },
    errors: { 400: ['EMPTY_PATCH', 'INVALID_SETTING', 'INVALID_PROFILE', 'INVALID_PREFERENCES'], 404: ['MEMBER_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] },
  },
  updateMember: {
    responses: { 200: MemberResponse },
    errors: { 403: ['CANNOT_ASSIGN_ROLE', 'CANNOT_MANAGE_MEMBER'], 404: ['MEMBER_NOT_FOUND'], 409: ['LAST_OWNER', 'CONCURRENT_UPDATE'] },
  },
  removeMember: { responses: { 200: MemberResponse }, errors: { 403: ['CANNOT_MANAGE_MEMBER'], 404: ['MEMBER_NOT_FOUND'], 409: ['LAST_OWNER', 'CONCURRENT_UPDATE'] } },
  listRecordings: { responses: { 200: r.RecordingListResponse }, errors: {} },
  getRecording: { responses: { 200: r.RecordingResponse }, errors: { 404: ['RECORDING_NOT_FOUND'] } },
  getRecordingMedia: { responses: { 200: r.RecordingMedia }, errors: { 404: ['RECORDING_NOT_FOUND'], 409: ['RECORDING_NOT_UPLOADED'] } },
  updateRecording: { responses: { 200: r.RecordingUpdateResponse }, errors: { 404: ['RECORDING_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] } },
  deleteRecording: { responses: { 200: r.SuccessOnly }, errors: { 404: ['RECORDING_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] } },
  restoreRecording: { responses: { 200: r.RecordingListItem }, errors: { 404: ['RECORDING_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] } },
  createUploadUrl: { responses: { 201: r.UploadUrlResponse }, errors: { 409: ['CONCURRENT_UPDATE'] } },
  listPublicRecordings: { responses: { 200: r.PublicRecordingListResponse }, errors: {} },
  getPublicRecordingMedia: { responses: { 200: r.PublicRecordingMediaResponse }, errors: { 404: ['RECORDING_NOT_FOUND'], 409: ['RECORDING_NOT_UPLOADED'] } },
  listTemplates: { responses: { 200: r.TemplateListResponse }, errors: {} },
  getTemplate: { responses: { 200: r.Template }, errors: { 404: ['TEMPLATE_NOT_FOUND'] } },
  createTemplate: { responses: { 201: r.Template }, errors: {} },
  updateTemplate: { responses: { 200: r.Template }, errors: { 404: ['TEMPLATE_NOT_FOUND'] } },
  deleteTemplate: { responses: { 200: r.SuccessOnly }, errors: { 404: ['TEMPLATE_NOT_FOUND'] } },
  sendInvite: { responses: { 201: r.Invite }, errors: { 409: ['ALREADY_MEMBER', 'INVITE_PENDING'] } },
  listInvites: { responses: { 200: r.InviteListResponse }, errors: {} },
  revokeInvite: { responses: { 200: r.SuccessOnly }, errors: { 404: ['INVITE_NOT_FOUND'], 409: ['INVITE_NOT_PENDING'] } },
  resendInvite: { responses: { 200: r.SuccessOnly }, errors: { 404: ['INVITE_NOT_FOUND'], 409: ['INVITE_NOT_PENDING', 'INVITE_PENDING'] } },
  acceptInvite: {
    responses: { 200: r.AcceptInviteResponse },
    errors: { 403: ['INVITE_EMAIL_MISMATCH'], 404: ['INVITE_NOT_FOUND'], 409: ['INVITE_ALREADY_ACCEPTED'], 410: ['INVITE_REVOKED', 'INVITE_EXPIRED'] },
  },
  listAuditLog: { responses: { 200: AuditLogResponse }, errors: {} },
  listApiKeys: { responses: { 200: keys.ApiKeyList }, errors: {} },
  createApiKey: { responses: { 201: keys.CreatedApiKey }, errors: { 403: ['SCOPES_EXCEED_ROLE'] } },
  getApiKey: { responses: { 200: keys.ApiKey }, errors: { 404: ['KEY_NOT_FOUND'] } },
  revokeApiKey: { responses: { 200: keys.ApiKey }, errors: { 404: ['KEY_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] } },
  rotateApiKey: { responses: { 200: keys.RotatedApiKey }, errors: { 403: ['NOT_KEY_OWNER'], 404: ['KEY_NOT_FOUND'], 409: ['KEY_REVOKED', 'KEY_EXPIRED', 'CONCURRENT_UPDATE'] } },
  listWebhooks: { responses: { 200: wh.WebhookList }, errors: {} },
  createWebhook: { responses: { 201: wh.CreatedWebhook }, errors: { 400: ['WEBHOOK_URL_NOT_ALLOWED'], 409: ['WEBHOOK_LIMIT_REACHED', 'CONCURRENT_UPDATE'] } },
  getWebhook: { responses: { 200: wh.Webhook }, errors: { 404: ['WEBHOOK_NOT_FOUND'] } },
  updateWebhook: { responses: { 200: wh.Webhook }, errors: { 400: ['WEBHOOK_URL_NOT_ALLOWED'], 404: ['WEBHOOK_NOT_FOUND'] } },
  deleteWebhook: { responses: { 200: r.SuccessOnly }, errors: { 404: ['WEBHOOK_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] } },
  rotateWebhookSecret: { responses: { 200: wh.RotatedWebhookSecret }, errors: { 404: ['WEBHOOK_NOT_FOUND'] } },
  testWebhook: { responses: { 202: wh.WebhookDelivery }, errors: { 404: ['WEBHOOK_NOT_FOUND'], 409: ['WEBHOOK_DISABLED'] } },
  listWebhookDeliveries: { responses: { 200: wh.WebhookDeliveryList }, errors: { 404: ['WEBHOOK_NOT_FOUND'] } },
  retryWebhookDelivery: {
    responses: { 202: wh.WebhookDelivery },
    errors: { 404: ['WEBHOOK_NOT_FOUND', 'WEBHOOK_DELIVERY_NOT_FOUND'], 409: ['WEBHOOK_DISABLED', 'DELIVERY_IN_PROGRESS'] },
  },
};

/** The 403 codes of a route's access policy (shared/auth/policy.ts): a credential kind it refuses, then what each allowed kind must have. */
function policyRefusals(access: RouteAccess, orgless: boolean): ErrorCode[] {
  const codes: ErrorCode[] = [];
  const takesKeys = Boolean(access.orgKey || access.userKey);
  if (!access.idToken) codes.push('API_KEY_REQUIRED');
  if (!takesKeys) codes.push('API_KEY_NOT_ALLOWED');
  else if (!access.orgKey) codes.push('ORG_KEY_NOT_ALLOWED');
  else if (!access.userKey) codes.push('USER_KEY_NOT_ALLOWED');
  if (orgless) return codes;
  if (access.orgKey) codes.push('ORG_KEY_ORG_MISMATCH');
  if (access.userKey) codes.push('USER_KEY_ORG_MISMATCH');
  if (takesKeys) codes.push('INSUFFICIENT_SCOPES');
  if (access.idToken || access.userKey) codes.push('INSUFFICIENT_ROLE');
  return codes;
}

/**
 * Every refusal an endpoint can answer, by status, with each code: those of every route of
 * its kind (API Gateway's limits and routing, the credential, the access policy, request
 * validation, JSON bodies, Idempotency-Key, throttling, failures), then the route's own
 * (ROUTE_DOCS). The OpenAPI document lists exactly these, and the integration tests refuse any
 * other (test/support/contract.ts).
 */
export function refusalsOf(endpoint: OperationEndpoint, takes: { body: boolean; idempotencyKey: boolean }): Map<ErrorStatus, ErrorCode[]> {
  const refusals = new Map<ErrorStatus, ErrorCode[]>();
  const add = (status: ErrorStatus, ...codes: ErrorCode[]) => {
    const listed = refusals.get(status) ?? [];
    refusals.set(status, [...listed, ...codes.filter((code) => !listed.includes(code))]);
  };
  const { route } = endpoint;
  // API Gateway, before anything runs: requests over its size limits.
  add(413, 'REQUEST_TOO_LARGE');
  add(414, 'BAD_REQUEST');
  add(431, 'BAD_REQUEST');
  if (route.access !== 'public') {
    add(400, 'VALIDATION_ERROR');
    add(401, 'UNAUTHORIZED');
    add(403, ...policyRefusals(route.access, Boolean(route.orgless)));
    if (endpoint.orgSource === 'credential' && route.access.idToken) add(400, 'ORG_ID_REQUIRED');
  }
  // A path id API Gateway cannot read (broken percent-encoding) or route (an encoded slash).
  if (endpoint.path.includes('{')) {
    add(400, 'BAD_REQUEST');
    add(404, 'ROUTE_NOT_FOUND');
  }
  if (takes.body) {
    add(400, 'INVALID_JSON');
    add(415, 'UNSUPPORTED_MEDIA_TYPE');
  }
  if (takes.idempotencyKey) {
    add(400, 'INVALID_IDEMPOTENCY_KEY');
    add(409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
    add(422, 'IDEMPOTENCY_KEY_REUSED');
  }
  for (const [status, codes] of Object.entries(ROUTE_DOCS[endpoint.routeName].errors) as [`${ErrorStatus}`, ErrorCode[]][]) add(Number(status) as ErrorStatus, ...codes);
  add(429, 'TOO_MANY_REQUESTS');
  add(500, 'INTERNAL_ERROR');
  return new Map([...refusals].sort(([a], [b]) => a - b));
}

/**
 * Schemas the document names in its components: every response that holds one refers to it
 * by `$ref`. `DomainEvent` is the envelope of the events the service publishes
 * (docs/events.md): no route answers with it, so it is the one component Redocly's
 * no-unused-components is told to accept (test/support/openapi-lint.mjs).
 */
export const SCHEMA_COMPONENTS: Record<string, v.GenericSchema> = { AuditEntry, DomainEvent: PublicDomainEventSchema, Webhook: wh.Webhook, WebhookDelivery: wh.WebhookDelivery, ApiKey: keys.ApiKey };
