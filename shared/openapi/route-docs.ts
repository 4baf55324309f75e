import type * as v from 'valibot';
import type { ErrorCode } from '../http/error-codes';
import { countsAgainstRateLimits, type OperationEndpoint, type OperationRouteName, type RouteAccess } from '../routes';
import { PublicDomainEventSchema } from '../events/event-catalog';
import * as keys from '../schemas/api-keys';
import { AuditEntry, AuditLogResponse } from '../schemas/audit';
import { HealthResponse, SuccessOnly } from '../schemas/envelopes';
import { AcceptInviteResponse, Invite, InviteListResponse } from '../schemas/invite-responses';
import { MemberListResponse, MemberResponse } from '../schemas/member-responses';
import { PublicRecordingListResponse, PublicRecordingMediaResponse, RecordingListItem, RecordingListResponse, RecordingMedia, RecordingResponse, RecordingUpdateResponse, UploadUrlResponse } from '../schemas/recording-responses';
import { SettingsBundleResponse, SettingsPatchResponse } from '../schemas/settings-responses';
import { Template, TemplateListResponse } from '../schemas/template-responses';
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
  /** What the operation does, in a sentence or two (the document adds who may call it). */
  description: string;
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
  health: {
    description: 'Answers 200 while the API is up; it touches no dependency, so it is cheap to poll.',
    responses: { 200: HealthResponse },
    errors: {},
  },
  listUsers: {
    description: "Lists the organization's active members (pending and removed ones left out), by email, a page at a time; `q` filters by email or name.",
    responses: { 200: MemberListResponse },
    errors: {},
  },
  getMemberSettings: {
    description: "Reads a member's settings bundle: user and settings always, notifications by default, profile, preferences and tags when asked for with `include` or `include_<section>`.",
    responses: { 200: SettingsBundleResponse },
    errors: { 404: ['MEMBER_NOT_FOUND'] },
  },
  updateMemberSettings: {
    description: "Changes any of a member's settings, notifications, profile and preferences in one transaction (all or nothing); each section has its own 400 code. The change is audited, never its content.",
    responses: { 200: SettingsPatchResponse },
    errors: { 400: ['EMPTY_PATCH', 'INVALID_SETTING', 'INVALID_PROFILE', 'INVALID_PREFERENCES'], 404: ['MEMBER_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] },
  },
  updateMember: {
    description: "Changes a member's role. Owners change any role; admins and organization keys only members and viewers, to member or viewer; the last active owner keeps the role (docs/members.md).",
    responses: { 200: MemberResponse },
    errors: { 403: ['CANNOT_ASSIGN_ROLE', 'CANNOT_MANAGE_MEMBER'], 404: ['MEMBER_NOT_FOUND'], 409: ['LAST_OWNER', 'CONCURRENT_UPDATE'] },
  },
  removeMember: {
    description: 'Removes a member from the organization, or lets a member leave it: they leave the member list, their recordings stay, their personal API keys are revoked shortly after (docs/members.md).',
    responses: { 200: MemberResponse },
    errors: { 403: ['CANNOT_MANAGE_MEMBER'], 404: ['MEMBER_NOT_FOUND'], 409: ['LAST_OWNER', 'CONCURRENT_UPDATE'] },
  },
  listRecordings: {
    description: "Lists the organization's recordings, newest first, filtered by day, tags and recorder, by page or by cursor; `deleted=true` lists the trash instead.",
    responses: { 200: RecordingListResponse },
    errors: {},
  },
  getRecording: {
    description: 'Reads a recording, with its transcript, summary, action items and translation when asked for with `include`.',
    responses: { 200: RecordingResponse },
    errors: { 404: ['RECORDING_NOT_FOUND'] },
  },
  getRecordingMedia: {
    description: "Answers a short-lived pre-signed URL that plays (or, with `download=true`, saves) the recording's uploaded file (docs/playback.md).",
    responses: { 200: RecordingMedia },
    errors: { 404: ['RECORDING_NOT_FOUND'], 409: ['RECORDING_NOT_UPLOADED'] },
  },
  updateRecording: {
    description: "Changes a recording's title, description and tags; the tags given replace its tags.",
    responses: { 200: RecordingUpdateResponse },
    errors: { 404: ['RECORDING_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] },
  },
  deleteRecording: {
    description: 'Moves a recording to the trash (`permanent=false`, the default), or deletes it and its related data for good (`permanent=true`).',
    responses: { 200: SuccessOnly },
    errors: { 404: ['RECORDING_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] },
  },
  restoreRecording: {
    description: 'Brings a recording back from the trash, as it was.',
    responses: { 200: RecordingListItem },
    errors: { 404: ['RECORDING_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] },
  },
  createUploadUrl: {
    description: "Creates a recording in state `pending_upload`, recorded by the key's member, and answers a pre-signed URL: PUT the file there with the headers given; when it lands the recording is `uploaded` (or `failed` if it is not the declared size and type).",
    responses: { 201: UploadUrlResponse },
    errors: { 409: ['CONCURRENT_UPDATE'] },
  },
  listPublicRecordings: {
    description: "Lists recordings with their recorder, tags and processing results, newest first: the organization's, or, for a personal key, its member's own.",
    responses: { 200: PublicRecordingListResponse },
    errors: {},
  },
  getPublicRecordingMedia: {
    description: "Answers a short-lived pre-signed URL that plays or saves a recording's file, in the envelope; a personal key reaches its member's own recordings only.",
    responses: { 200: PublicRecordingMediaResponse },
    errors: { 404: ['RECORDING_NOT_FOUND'], 409: ['RECORDING_NOT_UPLOADED'] },
  },
  listTemplates: {
    description: "Lists the organization's summarization templates, by name; every member sees them.",
    responses: { 200: TemplateListResponse },
    errors: {},
  },
  getTemplate: {
    description: 'Reads a summarization template.',
    responses: { 200: Template },
    errors: { 404: ['TEMPLATE_NOT_FOUND'] },
  },
  createTemplate: {
    description: 'Creates a summarization template shared with every member of the organization.',
    responses: { 201: Template },
    errors: {},
  },
  updateTemplate: {
    description: 'Changes only the fields given; `sections` replaces the whole list, in the order given.',
    responses: { 200: Template },
    errors: { 404: ['TEMPLATE_NOT_FOUND'] },
  },
  deleteTemplate: {
    description: 'Deletes a template for good; summaries already made with it keep its id and name.',
    responses: { 200: SuccessOnly },
    errors: { 404: ['TEMPLATE_NOT_FOUND'] },
  },
  sendInvite: {
    description: 'Invites someone by email with a role: the invitation is pending until accepted, revoked or expired, and its email (with a link to accept) is sent off the request (`email_status`).',
    responses: { 201: Invite },
    errors: { 409: ['ALREADY_MEMBER', 'INVITE_PENDING', 'CONCURRENT_UPDATE'] },
  },
  listInvites: {
    description: "Lists the organization's invitations, newest first, optionally of one status.",
    responses: { 200: InviteListResponse },
    errors: {},
  },
  revokeInvite: {
    description: 'Revokes a pending invitation: its link stops working at once.',
    responses: { 200: SuccessOnly },
    errors: { 404: ['INVITE_NOT_FOUND'], 409: ['INVITE_NOT_PENDING', 'CONCURRENT_UPDATE'] },
  },
  resendInvite: {
    description: 'Sends a pending (or expired) invitation again with a new link and a new expiry; the link sent before stops working.',
    responses: { 200: SuccessOnly },
    errors: { 404: ['INVITE_NOT_FOUND'], 409: ['INVITE_NOT_PENDING', 'INVITE_PENDING', 'CONCURRENT_UPDATE'] },
  },
  acceptInvite: {
    description: "Accepts an invitation with the token of its link: the caller joins the organization with the invitation's role (a user is created for someone new). The caller's verified email must be the invited one.",
    responses: { 200: AcceptInviteResponse },
    errors: { 403: ['INVITE_EMAIL_MISMATCH'], 404: ['INVITE_NOT_FOUND'], 409: ['INVITE_ALREADY_ACCEPTED', 'CONCURRENT_UPDATE'], 410: ['INVITE_REVOKED', 'INVITE_EXPIRED'] },
  },
  listAuditLog: {
    description: "Reads the organization's audit log, newest first: one entry per committed change, with who made it and what changed (never the content), filtered by type, actor, resource and time.",
    responses: { 200: AuditLogResponse },
    errors: {},
  },
  listApiKeys: {
    description: "Lists API keys, newest first: owners and admins see the organization's keys and every personal key (`user_id` narrows to one member's); others their own personal keys.",
    responses: { 200: keys.ApiKeyList },
    errors: {},
  },
  createApiKey: {
    description: 'Creates an organization key (owners and admins) or your own personal key, with scopes within your role; the answer holds the secret, shown this once (docs/api-keys.md).',
    responses: { 201: keys.CreatedApiKey },
    errors: { 403: ['SCOPES_EXCEED_ROLE'] },
  },
  getApiKey: {
    description: 'Reads an API key, never its secret.',
    responses: { 200: keys.ApiKey },
    errors: { 404: ['KEY_NOT_FOUND'] },
  },
  revokeApiKey: {
    description: 'Revokes an API key for good; the authorizer refuses it once its cache expires (within 60 seconds).',
    responses: { 200: keys.ApiKey },
    errors: { 404: ['KEY_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] },
  },
  rotateApiKey: {
    description: 'Issues a new secret for the same key (same id, name and scopes), shown this once; the replaced secret keeps working for the grace period asked for, up to 24 hours. Only its member rotates a personal key.',
    responses: { 200: keys.RotatedApiKey },
    errors: { 403: ['NOT_KEY_OWNER'], 404: ['KEY_NOT_FOUND'], 409: ['KEY_REVOKED', 'KEY_EXPIRED', 'CONCURRENT_UPDATE'] },
  },
  listWebhooks: {
    description: "Lists the organization's webhook endpoints, never their secrets.",
    responses: { 200: wh.WebhookList },
    errors: {},
  },
  createWebhook: {
    description: 'Subscribes an HTTPS endpoint to event types: each event is POSTed to it, signed (Standard Webhooks), retried for about 30 hours. The answer holds the signing secret, shown this once (docs/webhooks.md).',
    responses: { 201: wh.CreatedWebhook },
    errors: { 400: ['WEBHOOK_URL_NOT_ALLOWED'], 409: ['WEBHOOK_LIMIT_REACHED', 'CONCURRENT_UPDATE'] },
  },
  getWebhook: {
    description: 'Reads a webhook endpoint, never its secret.',
    responses: { 200: wh.Webhook },
    errors: { 404: ['WEBHOOK_NOT_FOUND'] },
  },
  updateWebhook: {
    description: "Changes an endpoint's URL, description or events, or disables it or enables it again.",
    responses: { 200: wh.Webhook },
    errors: { 400: ['WEBHOOK_URL_NOT_ALLOWED'], 404: ['WEBHOOK_NOT_FOUND'] },
  },
  deleteWebhook: {
    description: 'Deletes an endpoint: it receives nothing more, pending deliveries included.',
    responses: { 200: SuccessOnly },
    errors: { 404: ['WEBHOOK_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] },
  },
  rotateWebhookSecret: {
    description: 'Replaces the signing secret, shown this once; the previous one keeps signing beside it for 24 hours, so receivers can switch without missing a delivery.',
    responses: { 200: wh.RotatedWebhookSecret },
    errors: { 404: ['WEBHOOK_NOT_FOUND'] },
  },
  testWebhook: {
    description: 'Sends a `webhook.test` event to the endpoint now, as a delivery you can follow in its deliveries.',
    responses: { 202: wh.WebhookDelivery },
    errors: { 404: ['WEBHOOK_NOT_FOUND'], 409: ['WEBHOOK_DISABLED'] },
  },
  listWebhookDeliveries: {
    description: "Lists an endpoint's deliveries, newest first, with the outcome of each one's last attempt.",
    responses: { 200: wh.WebhookDeliveryList },
    errors: { 404: ['WEBHOOK_NOT_FOUND'] },
  },
  retryWebhookDelivery: {
    description: 'Sends a delivery again now, back to `pending`: a failed one, or a succeeded one to replay it.',
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
 * validation, JSON bodies, Idempotency-Key, the stage's throttling and the organization's rate limits, failures), then the route's own
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
  if (countsAgainstRateLimits(route)) add(429, 'RATE_LIMITED', 'QUOTA_EXCEEDED');
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
