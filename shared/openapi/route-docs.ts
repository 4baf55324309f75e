import * as v from 'valibot';
import type { RouteName } from '../routes';
import { AcceptInviteBody, ListInvitesQuery, SendInviteBody } from '../schemas/invites';
import { ListUsersQuery } from '../schemas/members';
import {
  DeleteRecordingQuery,
  GetRecordingQuery,
  ListRecordingsQuery,
  PublicListRecordingsQuery,
  UpdateRecordingBody,
  UploadUrlBody,
} from '../schemas/recordings';
import { GetSettingsQuery, NotificationsPatch, PreferenceCreate, PreferenceDelete, PreferenceUpdate, ProfilePatch, SettingsPatch } from '../schemas/settings';
import { CreateTemplateBody, UpdateTemplateBody } from '../schemas/templates';
import * as r from '../schemas/responses';

/**
 * The request and response schemas of every route of the manifest, for the OpenAPI
 * document (shared/openapi/document.ts) and the integration tests' contract check.
 * Kept apart from shared/routes.ts so that handler bundles do not carry the response schemas.
 */

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 429 | 500;

export interface RouteDoc {
  request?: { query?: v.GenericSchema; body?: v.GenericSchema };
  /** Success statuses and their body schemas. */
  responses: Record<number, v.GenericSchema>;
  /** The refusals the route can answer, each with the error envelope. */
  errors: readonly ErrorStatus[];
}

/** The body of Update member settings: every section optional. */
export const UpdateMemberSettingsBody = v.strictObject({
  settings: v.optional(SettingsPatch),
  notifications: v.optional(NotificationsPatch),
  profile: v.optional(ProfilePatch.entries.profile),
  preferences: v.optional(v.array(v.union([PreferenceCreate, PreferenceUpdate, PreferenceDelete]))),
});

/** Refusals of every authorized route: bad input, no or bad credential, not allowed, throttled, failure. */
const AUTHORIZED: readonly ErrorStatus[] = [400, 401, 403, 429, 500];
const withNotFound: readonly ErrorStatus[] = [...AUTHORIZED, 404];
const withConflict: readonly ErrorStatus[] = [...withNotFound, 409];

export const ROUTE_DOCS: Record<RouteName, RouteDoc> = {
  health: { responses: { 200: r.HealthResponse }, errors: [429, 500] },
  listUsers: { request: { query: ListUsersQuery }, responses: { 200: r.MemberListResponse }, errors: withNotFound },
  getMemberSettings: { request: { query: GetSettingsQuery }, responses: { 200: r.SettingsBundleResponse }, errors: withNotFound },
  updateMemberSettings: { request: { body: UpdateMemberSettingsBody }, responses: { 200: r.SettingsPatchResponse }, errors: withConflict },
  listRecordings: { request: { query: ListRecordingsQuery }, responses: { 200: r.RecordingListResponse }, errors: withNotFound },
  getRecording: { request: { query: GetRecordingQuery }, responses: { 200: r.RecordingResponse }, errors: withNotFound },
  updateRecording: { request: { body: UpdateRecordingBody }, responses: { 200: r.RecordingUpdateResponse }, errors: withConflict },
  deleteRecording: { request: { query: DeleteRecordingQuery }, responses: { 200: r.SuccessOnly }, errors: withConflict },
  restoreRecording: { responses: { 200: r.RecordingListItem }, errors: withConflict },
  createUploadUrl: { request: { body: UploadUrlBody }, responses: { 201: r.UploadUrlResponse }, errors: withConflict },
  listPublicRecordings: { request: { query: PublicListRecordingsQuery }, responses: { 200: r.PublicRecordingListResponse }, errors: withNotFound },
  listTemplates: { responses: { 200: r.TemplateListResponse }, errors: withNotFound },
  getTemplate: { responses: { 200: r.Template }, errors: withNotFound },
  createTemplate: { request: { body: CreateTemplateBody }, responses: { 201: r.Template }, errors: withConflict },
  updateTemplate: { request: { body: UpdateTemplateBody }, responses: { 200: r.Template }, errors: withConflict },
  deleteTemplate: { responses: { 200: r.SuccessOnly }, errors: withNotFound },
  sendInvite: { request: { body: SendInviteBody }, responses: { 201: r.Invite }, errors: withConflict },
  listInvites: { request: { query: ListInvitesQuery }, responses: { 200: r.InviteListResponse }, errors: withNotFound },
  revokeInvite: { responses: { 200: r.SuccessOnly }, errors: withConflict },
  resendInvite: { responses: { 200: r.SuccessOnly }, errors: withConflict },
  acceptInvite: { request: { body: AcceptInviteBody }, responses: { 200: r.AcceptInviteResponse }, errors: [...withConflict, 410] },
};
