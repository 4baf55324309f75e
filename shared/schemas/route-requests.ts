import * as v from 'valibot';
import type { ErrorCode } from '../http/error-codes';
import type { FieldProblem } from '../http/errors';
import type { ROUTES, RouteName } from '../routes';
import { CreateApiKeyBody, ListApiKeysQuery, RotateApiKeyBody } from './api-keys';
import { ListAuditLogQuery } from './audit';
import { Id } from './common';
import { AcceptInviteBody, ListInvitesQuery, SendInviteBody } from './invites';
import { ListUsersQuery, UpdateMemberBody } from './members';
import { DeleteRecordingQuery, GetRecordingQuery, ListRecordingsQuery, PublicListRecordingsQuery, RecordingMediaQuery, UpdateRecordingBody, UploadUrlBody } from './recordings';
import { GetSettingsQuery, settingsPatchErrorCode, UpdateMemberSettingsBody } from './settings';
import { CreateTemplateBody, ListTemplatesQuery, UpdateTemplateBody } from './templates';
import { CreateWebhookBody, ListWebhookDeliveriesQuery, UpdateWebhookBody } from './webhooks';

/**
 * What one route accepts besides its path: the query parameters and the JSON body. The
 * handler wrapper (shared/http/api-handler.ts) validates every request with these and the
 * OpenAPI generator documents exactly these; there is no other request schema.
 */
export interface RouteRequest {
  /** A strict object of string parameters; a route without one takes no query parameters. */
  query?: v.GenericSchema;
  /** The JSON body; a route without one ignores any body it is sent. */
  body?: v.GenericSchema;
  /** The 400 code of a body problem, where the spec names one per part of the body. */
  bodyErrorCode?: (problem: FieldProblem) => ErrorCode;
}

/** A route that takes no query parameters: any it is sent is refused by name. */
export const NoQuery = v.strictObject({});

export const ROUTE_REQUESTS = {
  health: {},
  // The API reference's routes take no query; they are not operations (shared/routes.ts `reference`).
  docsPage: {},
  docsAsset: {},
  openApiDocument: {},
  listUsers: { query: ListUsersQuery },
  getMemberSettings: { query: GetSettingsQuery },
  updateMemberSettings: { body: UpdateMemberSettingsBody, bodyErrorCode: settingsPatchErrorCode },
  updateMember: { body: UpdateMemberBody },
  removeMember: {},
  listRecordings: { query: ListRecordingsQuery },
  getRecording: { query: GetRecordingQuery },
  getRecordingMedia: { query: RecordingMediaQuery },
  updateRecording: { body: UpdateRecordingBody },
  deleteRecording: { query: DeleteRecordingQuery },
  restoreRecording: {},
  createUploadUrl: { body: UploadUrlBody },
  listPublicRecordings: { query: PublicListRecordingsQuery },
  getPublicRecordingMedia: { query: RecordingMediaQuery },
  listTemplates: { query: ListTemplatesQuery },
  getTemplate: {},
  createTemplate: { body: CreateTemplateBody },
  updateTemplate: { body: UpdateTemplateBody },
  deleteTemplate: {},
  sendInvite: { body: SendInviteBody },
  listInvites: { query: ListInvitesQuery },
  revokeInvite: {},
  resendInvite: {},
  acceptInvite: { body: AcceptInviteBody },
  listAuditLog: { query: ListAuditLogQuery },
  listApiKeys: { query: ListApiKeysQuery },
  createApiKey: { body: CreateApiKeyBody },
  getApiKey: {},
  revokeApiKey: {},
  rotateApiKey: { body: RotateApiKeyBody },
  listWebhooks: {},
  createWebhook: { body: CreateWebhookBody },
  getWebhook: {},
  updateWebhook: { body: UpdateWebhookBody },
  deleteWebhook: {},
  rotateWebhookSecret: {},
  testWebhook: {},
  listWebhookDeliveries: { query: ListWebhookDeliveriesQuery },
  retryWebhookDelivery: {},
} as const satisfies Record<RouteName, RouteRequest>;

/** The parameter names of a path template: `/a/{orgId}/b/{userId}` → 'orgId' | 'userId'. */
export type PathParameterNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParameterNames<Rest> : never;

/** The path parameters of a route, as its handler receives them (orgId is the caller's, never read from the path). */
export type RoutePath<R extends RouteName> = { [K in Exclude<PathParameterNames<(typeof ROUTES)[R]['path']>, 'orgId'>]: string };
export type RouteQuery<R extends RouteName> = (typeof ROUTE_REQUESTS)[R] extends { query: infer S extends v.GenericSchema } ? v.InferOutput<S> : Record<string, never>;
export type RouteBody<R extends RouteName> = (typeof ROUTE_REQUESTS)[R] extends { body: infer S extends v.GenericSchema } ? v.InferOutput<S> : undefined;

/** The names of a path template's parameters, in order. */
export function pathParameterNames(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name);
}

/** What each path id names, for the OpenAPI document. */
const PATH_IDS: Record<string, v.GenericSchema<string, string>> = Object.fromEntries(
  Object.entries({
    orgId: 'The organization (`org_…`): the caller must be an active member of it, or hold one of its API keys.',
    userId: 'The member, by user id (`usr_…`).',
    recordingId: 'The recording (`rec_…`).',
    templateId: 'The template (`tpl_…`).',
    inviteId: 'The invitation (`inv_…`).',
    keyId: 'The API key, by its id (`key_…`), never its secret.',
    webhookId: 'The webhook endpoint (`wh_…`).',
    deliveryId: 'The delivery (`dlv_…`).',
  }).map(([name, description]) => [name, v.pipe(Id, v.description(description))]),
);

/**
 * The schema of a path's parameters: every one is an id (ID_PATTERN), so a malformed one is a
 * 400 before any storage sees it (DynamoDB refuses keys over 1-2 KB with an error, not a miss).
 */
export function pathSchema(template: string) {
  return v.strictObject(Object.fromEntries(pathParameterNames(template).map((name) => [name, PATH_IDS[name] ?? Id])));
}

/** The route's query schema, or NoQuery. */
export function querySchema(routeName: RouteName): v.GenericSchema {
  const request: RouteRequest = ROUTE_REQUESTS[routeName];
  return request.query ?? NoQuery;
}

