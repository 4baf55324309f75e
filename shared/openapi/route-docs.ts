import type * as v from 'valibot';
import type { OperationRouteName } from '../routes';
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

export interface RouteDoc {
  /** Success statuses and their body schemas. */
  responses: Record<number, v.GenericSchema>;
  /** The refusals the route can answer, each with the error envelope. */
  errors: readonly ErrorStatus[];
}

/** Refusals of every authorized route: bad input, no or bad credential, not allowed, throttled, failure. */
const AUTHORIZED: readonly ErrorStatus[] = [400, 401, 403, 429, 500];
const withNotFound: readonly ErrorStatus[] = [...AUTHORIZED, 404];
const withConflict: readonly ErrorStatus[] = [...withNotFound, 409];

export const ROUTE_DOCS: Record<OperationRouteName, RouteDoc> = {
  health: { responses: { 200: r.HealthResponse }, errors: [429, 500] },
  listUsers: { responses: { 200: r.MemberListResponse }, errors: withNotFound },
  getMemberSettings: { responses: { 200: r.SettingsBundleResponse }, errors: withNotFound },
  updateMemberSettings: { responses: { 200: r.SettingsPatchResponse }, errors: withConflict },
  updateMember: { responses: { 200: MemberResponse }, errors: withConflict },
  removeMember: { responses: { 200: MemberResponse }, errors: withConflict },
  listRecordings: { responses: { 200: r.RecordingListResponse }, errors: withNotFound },
  getRecording: { responses: { 200: r.RecordingResponse }, errors: withNotFound },
  getRecordingMedia: { responses: { 200: r.RecordingMedia }, errors: withConflict },
  updateRecording: { responses: { 200: r.RecordingUpdateResponse }, errors: withConflict },
  deleteRecording: { responses: { 200: r.SuccessOnly }, errors: withConflict },
  restoreRecording: { responses: { 200: r.RecordingListItem }, errors: withConflict },
  createUploadUrl: { responses: { 201: r.UploadUrlResponse }, errors: withConflict },
  listPublicRecordings: { responses: { 200: r.PublicRecordingListResponse }, errors: withNotFound },
  getPublicRecordingMedia: { responses: { 200: r.PublicRecordingMediaResponse }, errors: withConflict },
  listTemplates: { responses: { 200: r.TemplateListResponse }, errors: withNotFound },
  getTemplate: { responses: { 200: r.Template }, errors: withNotFound },
  createTemplate: { responses: { 201: r.Template }, errors: withConflict },
  updateTemplate: { responses: { 200: r.Template }, errors: withConflict },
  deleteTemplate: { responses: { 200: r.SuccessOnly }, errors: withNotFound },
  sendInvite: { responses: { 201: r.Invite }, errors: withConflict },
  listInvites: { responses: { 200: r.InviteListResponse }, errors: withNotFound },
  revokeInvite: { responses: { 200: r.SuccessOnly }, errors: withConflict },
  resendInvite: { responses: { 200: r.SuccessOnly }, errors: withConflict },
  acceptInvite: { responses: { 200: r.AcceptInviteResponse }, errors: [...withConflict, 410] },
  listAuditLog: { responses: { 200: AuditLogResponse }, errors: withNotFound },
  listApiKeys: { responses: { 200: keys.ApiKeyList }, errors: withNotFound },
  createApiKey: { responses: { 201: keys.CreatedApiKey }, errors: withNotFound },
  getApiKey: { responses: { 200: keys.ApiKey }, errors: withNotFound },
  revokeApiKey: { responses: { 200: keys.ApiKey }, errors: withConflict },
  rotateApiKey: { responses: { 200: keys.RotatedApiKey }, errors: withConflict },
  listWebhooks: { responses: { 200: wh.WebhookList }, errors: withNotFound },
  createWebhook: { responses: { 201: wh.CreatedWebhook }, errors: withConflict },
  getWebhook: { responses: { 200: wh.Webhook }, errors: withNotFound },
  updateWebhook: { responses: { 200: wh.Webhook }, errors: withNotFound },
  deleteWebhook: { responses: { 200: r.SuccessOnly }, errors: withNotFound },
  rotateWebhookSecret: { responses: { 200: wh.RotatedWebhookSecret }, errors: withNotFound },
  testWebhook: { responses: { 202: wh.WebhookDelivery }, errors: withConflict },
  listWebhookDeliveries: { responses: { 200: wh.WebhookDeliveryList }, errors: withNotFound },
  retryWebhookDelivery: { responses: { 202: wh.WebhookDelivery }, errors: withConflict },
};

/**
 * Schemas the document names in its components: every response that holds one refers to it
 * by `$ref`. `DomainEvent` is the envelope of the events the service publishes
 * (docs/events.md): no route answers with it, so it is the one component Redocly's
 * no-unused-components is told to accept (test/support/openapi-lint.mjs).
 */
export const SCHEMA_COMPONENTS: Record<string, v.GenericSchema> = { AuditEntry, DomainEvent: PublicDomainEventSchema, Webhook: wh.Webhook, WebhookDelivery: wh.WebhookDelivery, ApiKey: keys.ApiKey };
