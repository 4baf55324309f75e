import { createHash } from 'node:crypto';
import path from 'node:path';
import type { APIGatewayProxyEvent, APIGatewayTokenAuthorizerEvent, DynamoDBStreamEvent, S3Event, SQSEvent } from 'aws-lambda';
import { SCOPES, type Scope } from '../../shared/auth/access';
import { principalIdOf, principalToContext, type AuthorizerContext, type Principal } from '../../shared/auth/principal';
import { compilePathTemplate } from '../../shared/http/path-template';
import { REFERENCE_ASSETS } from '../../shared/openapi/reference-page';
import { AUTHORIZER, endpointFor, EVENT_CONSUMERS, EVENT_HANDLERS, EVENT_PROCESSOR, listHandlers, ROUTES, type EventConsumerName, type RouteName } from '../../shared/routes';
import { recordingObjectKey } from '../../shared/storage/recording-objects';
import { methodArnFor, proxyEvent, tokenAuthorizerEvent } from '../local/lambda-events';
import { DEMO_KEY_IDS, DEMO_ORG_ID, DEMO_USERS } from '../local/demo';
import { DEMO_DELIVERY_ID, DEMO_WEBHOOKS } from '../local/demo-webhooks';
import { sampleConsumerEvent, sampleStreamEvent } from './pipeline-events';

/**
 * One sample event per Lambda function of the stack, generated from the route manifest:
 * REST proxy events (as API Gateway sends them after the TOKEN authorizer, with the
 * authorizer's context), the TOKEN authorizer event, the S3 ObjectCreated event of the
 * upload completion function, and the event pipeline's: a table stream batch for the event
 * processor and each consumer's queued events (infra/sam/pipeline-events.ts).
 * `npx tsx infra/sam/generate-events.ts` writes them to events/<function>.json for
 * `sam local invoke -e`; the tests run each through its handler.
 */

/** The data the sample requests act on. The committed events use the ids of `npm start`'s demo (infra/local/demo.ts). */
export interface SampleIds {
  orgId: string;
  /** The organization's owner, signed in (ownerToken): manages API keys. */
  ownerId: string;
  ownerEmail: string;
  /** An organization API key that is read, rotated, then revoked. */
  apiKeyId: string;
  /** The member whose settings are read and changed, and whose personal key creates an upload. */
  memberId: string;
  /** A viewer who is made a member (Update member), then removed (Remove member). */
  managedMemberId: string;
  /** A live recording with a transcript, a summary and action items. */
  recordingId: string;
  /** A recording that is changed, then moved to the trash. */
  editRecordingId: string;
  /** A recording in the trash, restored. */
  trashedRecordingId: string;
  /** A recording waiting for its file, completed by the S3 event. */
  uploadRecordingId: string;
  /** The member's recording whose file was uploaded, played (Get recording media, both hosts). */
  mediaRecordingId: string;
  uploadFilename: string;
  uploadBytes: number;
  tagId: string;
  /** A template that is read, changed, then deleted. */
  templateId: string;
  /** Pending invitations: one is sent again, one revoked. */
  resendInviteId: string;
  revokeInviteId: string;
  /** The token of a pending invitation to inviteeEmail (what its email link carries). */
  inviteToken: string;
  inviteeEmail: string;
  /** The address Send invite invites. */
  newInviteEmail: string;
  /** A webhook endpoint that is read, changed, rotated and tested; its failed delivery is retried. */
  webhookId: string;
  deliveryId: string;
  /** A webhook endpoint that is deleted. */
  deleteWebhookId: string;
  /** The URL Create webhook subscribes (loopback in the local tests, where nothing else resolves). */
  webhookUrl: string;
}

/** An org key with every scope, the member's personal key, the invitee's ID token (accepting), the owner's ID token (API keys). */
export type CredentialName = 'orgKey' | 'personalKey' | 'idToken' | 'ownerToken';

/** A bearer credential and what the authorizer answers for it. */
export interface SampleCredential {
  /** The Authorization header value. */
  authorization: string;
  principalId: string;
  context: AuthorizerContext;
}

export interface SampleSetup {
  stage: string;
  region: string;
  bucketName: string;
  ids: SampleIds;
  credentials: Record<CredentialName, SampleCredential>;
}

/** What one route's sample request sends, and the status its handler answers on the sample data. */
export interface SampleRequest {
  credential: CredentialName | null;
  /** Path parameters other than orgId (which comes from the ids). */
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  status: number;
}

/**
 * Every route of the manifest has a sample request (the type requires it). Requests run in
 * manifest order on one set of data: changes come after reads of the same item.
 */
export const SAMPLE_REQUESTS: { [R in RouteName]: (ids: SampleIds) => SampleRequest } = {
  health: () => ({ credential: null, status: 200 }),
  docsPage: () => ({ credential: null, status: 200 }),
  // The page's configuration script: Scalar's bundle is 4 MB, too large for a sample event's answer.
  docsAsset: () => ({ credential: null, path: { asset: REFERENCE_ASSETS.config }, status: 200 }),
  openApiDocument: () => ({ credential: null, status: 200 }),
  listUsers: () => ({ credential: 'orgKey', query: { q: 'mia', limit: '10' }, status: 200 }),
  getMemberSettings: (ids) => ({
    credential: 'orgKey',
    path: { userId: ids.memberId },
    query: { include: 'profile,preferences,tags,notifications' },
    status: 200,
  }),
  updateMemberSettings: (ids) => ({
    credential: 'orgKey',
    path: { userId: ids.memberId },
    body: {
      settings: { selected_theme: 'light', auto_transcription: true },
      notifications: { highlight_time: '08:00' },
      profile: { profile: '# Mia\n\nSales lead for the APAC region. Prefers short summaries with action items first.' },
      preferences: [{ command: 'summarize', command_type: 'summary_enhance', preference_content: 'Keep summaries under 200 words.' }],
    },
    status: 200,
  }),
  updateMember: (ids) => ({ credential: 'orgKey', path: { userId: ids.managedMemberId }, body: { role: 'member' }, status: 200 }),
  removeMember: (ids) => ({ credential: 'orgKey', path: { userId: ids.managedMemberId }, status: 200 }),
  listRecordings: () => ({ credential: 'orgKey', query: { startDate: '2026-11-01', limit: '10' }, status: 200 }),
  getRecording: (ids) => ({
    credential: 'orgKey',
    path: { recordingId: ids.recordingId },
    query: { include: 'transcript,summary,action_items' },
    status: 200,
  }),
  getRecordingMedia: (ids) => ({ credential: 'orgKey', path: { recordingId: ids.mediaRecordingId }, status: 200 }),
  updateRecording: (ids) => ({
    credential: 'orgKey',
    path: { recordingId: ids.editRecordingId },
    body: { title: 'Sales call with Kobe Trading (pilot)', description: 'Pilot for 40 seats from January.', tags: [ids.tagId] },
    status: 200,
  }),
  deleteRecording: (ids) => ({ credential: 'orgKey', path: { recordingId: ids.editRecordingId }, query: { permanent: 'false' }, status: 200 }),
  restoreRecording: (ids) => ({ credential: 'orgKey', path: { recordingId: ids.trashedRecordingId }, status: 200 }),
  createUploadUrl: (ids) => ({
    credential: 'personalKey',
    body: { filename: 'customer-interview.m4a', content_type: 'audio/mp4', size_bytes: ids.uploadBytes, title: 'Customer interview', language: 'en', tag_ids: [ids.tagId] },
    status: 201,
  }),
  listPublicRecordings: () => ({ credential: 'personalKey', query: { start_date: '2026-11-01', limit: '10' }, status: 200 }),
  getPublicRecordingMedia: (ids) => ({ credential: 'personalKey', path: { recordingId: ids.mediaRecordingId }, query: { download: 'true' }, status: 200 }),
  listTemplates: () => ({ credential: 'orgKey', status: 200 }),
  getTemplate: (ids) => ({ credential: 'orgKey', path: { templateId: ids.templateId }, status: 200 }),
  createTemplate: () => ({
    credential: 'orgKey',
    body: {
      name: 'Weekly standup',
      description: 'Short notes for the team channel.',
      sections: [
        { title: 'Progress', prompt: 'List what each person finished since the last standup.' },
        { title: 'Blockers', prompt: 'List blockers and who can help.' },
      ],
    },
    status: 201,
  }),
  updateTemplate: (ids) => ({ credential: 'orgKey', path: { templateId: ids.templateId }, body: { description: 'For customer calls: needs, objections, next steps, risks.' }, status: 200 }),
  deleteTemplate: (ids) => ({ credential: 'orgKey', path: { templateId: ids.templateId }, status: 200 }),
  sendInvite: (ids) => ({ credential: 'orgKey', body: { email: ids.newInviteEmail, role: 'member' }, status: 201 }),
  listInvites: () => ({ credential: 'orgKey', query: { status: 'pending', limit: '20' }, status: 200 }),
  revokeInvite: (ids) => ({ credential: 'orgKey', path: { inviteId: ids.revokeInviteId }, status: 200 }),
  resendInvite: (ids) => ({ credential: 'orgKey', path: { inviteId: ids.resendInviteId }, status: 200 }),
  acceptInvite: (ids) => ({ credential: 'idToken', body: { token: ids.inviteToken }, status: 200 }),
  listAuditLog: () => ({ credential: 'orgKey', query: { type: 'template.', limit: '10' }, status: 200 }),
  listApiKeys: () => ({ credential: 'ownerToken', query: { limit: '20' }, status: 200 }),
  createApiKey: () => ({ credential: 'ownerToken', body: { kind: 'personal', name: 'Laptop recorder', scopes: ['recordings:read'], expires_at: '2099-01-01T00:00:00.000Z' }, status: 201 }),
  getApiKey: (ids) => ({ credential: 'ownerToken', path: { keyId: ids.apiKeyId }, status: 200 }),
  rotateApiKey: (ids) => ({ credential: 'ownerToken', path: { keyId: ids.apiKeyId }, body: { grace_period_seconds: 3600 }, status: 200 }),
  revokeApiKey: (ids) => ({ credential: 'ownerToken', path: { keyId: ids.apiKeyId }, status: 200 }),
  listWebhooks: () => ({ credential: 'orgKey', status: 200 }),
  createWebhook: (ids) => ({
    credential: 'orgKey',
    body: { url: ids.webhookUrl, description: 'CRM sync', events: ['recording.uploaded', 'recording.deleted'] },
    status: 201,
  }),
  getWebhook: (ids) => ({ credential: 'orgKey', path: { webhookId: ids.webhookId }, status: 200 }),
  updateWebhook: (ids) => ({ credential: 'orgKey', path: { webhookId: ids.webhookId }, body: { events: ['recording.upload_failed', 'invite.email_failed'], description: 'Failures, for the support team' }, status: 200 }),
  deleteWebhook: (ids) => ({ credential: 'orgKey', path: { webhookId: ids.deleteWebhookId }, status: 200 }),
  rotateWebhookSecret: (ids) => ({ credential: 'orgKey', path: { webhookId: ids.webhookId }, status: 200 }),
  testWebhook: (ids) => ({ credential: 'orgKey', path: { webhookId: ids.webhookId }, status: 202 }),
  listWebhookDeliveries: (ids) => ({ credential: 'orgKey', path: { webhookId: ids.webhookId }, query: { status: 'failed', limit: '10' }, status: 200 }),
  retryWebhookDelivery: (ids) => ({ credential: 'orgKey', path: { webhookId: ids.webhookId, deliveryId: ids.deliveryId }, status: 202 }),
};

/** One function's sample event. */
export interface SampleEvent {
  /** File name under events/: the handler module's base name. */
  file: string;
  /** Handler module (functions/..., exports `handler`). */
  handler: string;
  kind: 'authorizer' | 'http' | 's3' | 'stream' | 'consumer';
  routeName?: RouteName;
  /** HTTP events: the status the handler answers on the sample data. */
  expectedStatus?: number;
  /** Consumer events: the consumer (EVENT_CONSUMERS) whose queue delivers them. */
  consumer?: EventConsumerName;
  event: APIGatewayTokenAuthorizerEvent | APIGatewayProxyEvent | S3Event | DynamoDBStreamEvent | SQSEvent;
}

export const EVENTS_DIR = 'events';

/**
 * Placeholders for the secrets of the committed events, which differ in every data directory:
 * replace them with your own (the bearer values only matter to the authorizer, which
 * `sam local invoke` of an HTTP function skips; Accept invite needs the emailed token).
 */
export const PLACEHOLDER_ORG_KEY = 'pk_org_sample_replace_with_your_org_key';
export const PLACEHOLDER_PERSONAL_KEY = 'pk_user_sample_replace_with_your_personal_key';
export const PLACEHOLDER_ID_TOKEN = 'REPLACE_WITH_AN_ID_TOKEN';
export const PLACEHOLDER_OWNER_ID_TOKEN = 'REPLACE_WITH_AN_OWNER_ID_TOKEN';
export const PLACEHOLDER_INVITE_TOKEN = 'REPLACE_WITH_THE_TOKEN_OF_THE_INVITATION_EMAIL';

/** Ids of `npm start`'s demo (fixtures/demo.json and infra/local/demo.ts): every item the sample requests act on is there. */
export const SAMPLE_IDS: SampleIds = {
  orgId: DEMO_ORG_ID,
  ownerId: DEMO_USERS.owner.id,
  ownerEmail: DEMO_USERS.owner.email,
  apiKeyId: DEMO_KEY_IDS.crmSync,
  memberId: DEMO_USERS.member.id,
  managedMemberId: DEMO_USERS.viewer.id,
  recordingId: 'rec_demo_standup',
  editRecordingId: 'rec_demo_sales_call',
  trashedRecordingId: 'rec_demo_old_test',
  uploadRecordingId: 'rec_demo_upload',
  mediaRecordingId: 'rec_demo_voice_memo',
  uploadFilename: 'customer-interview.m4a',
  uploadBytes: 48_213_504,
  tagId: 'tag_demo_sales',
  templateId: 'tpl_demo_sales_call',
  resendInviteId: 'inv_demo_resend',
  revokeInviteId: 'inv_demo_revoke',
  inviteToken: PLACEHOLDER_INVITE_TOKEN,
  inviteeEmail: 'ines.invitee@demo.example',
  newInviteEmail: 'nina.new@demo.example',
  webhookId: DEMO_WEBHOOKS.crm.id,
  deliveryId: DEMO_DELIVERY_ID,
  deleteWebhookId: DEMO_WEBHOOKS.old.id,
  // Where npm start lets an endpoint point (loopback; nothing listens on port 9): a public https URL in AWS.
  webhookUrl: 'http://127.0.0.1:9/voice-org',
};

/** The scopes of the sample personal key. */
export const PERSONAL_KEY_SCOPES: Scope[] = ['recordings:read', 'recordings:write'];

/** The authorizer's answer for a principal, as functions/authorizer.ts builds it. */
export function credentialFor(authorization: string, principal: Principal): SampleCredential {
  return {
    authorization,
    principalId: principalIdOf(principal),
    context: principalToContext(principal),
  };
}

/**
 * The committed events' setup: placeholder credentials, each with the context the authorizer
 * gives the demo's own credential (the demo's keys have stable ids; an ID token's issuer and
 * subject are Cognito's in AWS).
 */
export function placeholderSetup(ids: SampleIds = SAMPLE_IDS): SampleSetup {
  return {
    stage: 'prod',
    region: 'us-east-1',
    bucketName: 'voiceorgapi-prod-recordingsbucket-example',
    ids,
    credentials: {
      orgKey: credentialFor(`Bearer ${PLACEHOLDER_ORG_KEY}`, { kind: 'org_key', orgId: ids.orgId, keyId: DEMO_KEY_IDS.org, scopes: [...SCOPES] }),
      personalKey: credentialFor(`Bearer ${PLACEHOLDER_PERSONAL_KEY}`, {
        kind: 'user_key',
        orgId: ids.orgId,
        userId: ids.memberId,
        keyId: DEMO_KEY_IDS.personal,
        scopes: PERSONAL_KEY_SCOPES,
      }),
      idToken: credentialFor(`Bearer ${PLACEHOLDER_ID_TOKEN}`, {
        kind: 'id_token',
        email: ids.inviteeEmail,
        emailVerified: true,
        issuer: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_EXAMPLE',
        subject: '8f0b6a52-5c1e-4f7a-9d2e-0c3b7e6d1a90',
        name: 'Ines Invitee',
      }),
      ownerToken: credentialFor(`Bearer ${PLACEHOLDER_OWNER_ID_TOKEN}`, {
        kind: 'id_token',
        userId: ids.ownerId,
        email: ids.ownerEmail,
        emailVerified: true,
        issuer: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_EXAMPLE',
        subject: '3c9d2e7a-1b4f-4e8a-a6c5-7d0f2b9e4c11',
        name: 'Olivia Owner',
      }),
    },
  };
}

// Fixed request metadata, so regenerating the events gives the same files.
const REQUEST_TIME = new Date('2026-11-16T09:30:00.000Z');
const SOURCE_IP = '203.0.113.10';
const HOST = '127.0.0.1:3000';

/** A stable UUID-shaped id from a name. */
function stableUuid(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Path parameters and the concrete path of a route's sample request. */
function samplePath(routeName: RouteName, ids: SampleIds, request: SampleRequest): { params: Record<string, string>; pathname: string } {
  const template = compilePathTemplate(ROUTES[routeName].path);
  const params: Record<string, string> = { ...(template.parameterNames.includes('orgId') ? { orgId: ids.orgId } : {}), ...request.path };
  return { params, pathname: template.expand(params) };
}

/** The REST proxy event of a route's sample request, as the API Gateway emulator (and API Gateway) sends it. */
export function sampleProxyEvent(setup: SampleSetup, routeName: RouteName, request: SampleRequest = SAMPLE_REQUESTS[routeName](setup.ids)): APIGatewayProxyEvent {
  const endpoint = endpointFor(routeName, ROUTES[routeName].path);
  const { params, pathname } = samplePath(routeName, setup.ids, request);
  const url = new URL(`http://${HOST}${pathname}`);
  for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
  const credential = request.credential ? setup.credentials[request.credential] : undefined;
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(credential ? { authorization: credential.authorization } : {}),
    ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
    host: HOST,
    'user-agent': 'curl/8.5.0',
    'x-correlation-id': `sample-${routeName}`,
  };
  const event = proxyEvent({
    request: { httpVersion: '1.1', socket: { remoteAddress: SOURCE_IP } },
    url,
    headers,
    body: request.body === undefined ? null : JSON.stringify(request.body),
    endpoint,
    params,
    stage: setup.stage,
    authorizerContext: credential ? { ...credential.context, principalId: credential.principalId, integrationLatency: 0 } : null,
  });
  return {
    ...event,
    requestContext: {
      ...event.requestContext,
      requestId: stableUuid(`${routeName}:${pathname}`),
      requestTime: REQUEST_TIME.toUTCString(),
      requestTimeEpoch: REQUEST_TIME.getTime(),
    },
  };
}

/** The TOKEN authorizer event of a credential, for the request of a route (List users by default). */
export function sampleAuthorizerEvent(setup: SampleSetup, credential: CredentialName = 'orgKey', routeName: RouteName = 'listUsers'): APIGatewayTokenAuthorizerEvent {
  const { pathname } = samplePath(routeName, setup.ids, SAMPLE_REQUESTS[routeName](setup.ids));
  return tokenAuthorizerEvent(setup.credentials[credential].authorization, methodArnFor(setup.stage, ROUTES[routeName].method, pathname));
}

/** The S3 ObjectCreated event of the sample recording's upload, in S3's notification shape. */
export function sampleUploadEvent(setup: SampleSetup): S3Event {
  const { ids } = setup;
  const key = recordingObjectKey(ids.orgId, ids.uploadRecordingId, ids.uploadFilename);
  return {
    Records: [
      {
        eventVersion: '2.1',
        eventSource: 'aws:s3',
        awsRegion: setup.region,
        eventTime: REQUEST_TIME.toISOString(),
        eventName: 'ObjectCreated:Put',
        userIdentity: { principalId: 'AWS:AROAEXAMPLEUPLOADER:recordings-upload' },
        requestParameters: { sourceIPAddress: SOURCE_IP },
        responseElements: { 'x-amz-request-id': 'C3D13FE58DE4C810', 'x-amz-id-2': 'FMyUVURIY8/IgAtTv8xRjskZQpcIZ9KG4V5Wp6S7S/JRWeUWerMUE5JgHvANOjpD' },
        s3: {
          s3SchemaVersion: '1.0',
          configurationId: 'recordings-object-created',
          bucket: { name: setup.bucketName, ownerIdentity: { principalId: 'A3NL1KOZZKExample' }, arn: `arn:aws:s3:::${setup.bucketName}` },
          // S3 sends keys URL-encoded.
          object: { key: encodeURIComponent(key).replace(/%2F/g, '/'), size: ids.uploadBytes, eTag: 'd41d8cd98f00b204e9800998ecf8427e', sequencer: '0A1B2C3D4E5F678910' },
        },
      },
    ],
  };
}

/** events/<file> of a handler module. */
export function eventFileOf(handlerModule: string): string {
  return `${path.posix.basename(handlerModule)}.json`;
}

/**
 * Every function's sample event, in the order they run on one set of data: the authorizer,
 * the HTTP functions in manifest order, the upload completion, the event processor, then the
 * consumers in manifest order.
 */
export function sampleEvents(setup: SampleSetup): SampleEvent[] {
  const events: SampleEvent[] = [
    { file: eventFileOf(AUTHORIZER.handler), handler: AUTHORIZER.handler, kind: 'authorizer', event: sampleAuthorizerEvent(setup) },
    ...listHandlers().map(({ handler, routes }): SampleEvent => {
      const routeName = routes[0];
      const request = SAMPLE_REQUESTS[routeName](setup.ids);
      return { file: eventFileOf(handler), handler, kind: 'http', routeName, expectedStatus: request.status, event: sampleProxyEvent(setup, routeName, request) };
    }),
    { file: eventFileOf(EVENT_HANDLERS.completeUpload.handler), handler: EVENT_HANDLERS.completeUpload.handler, kind: 's3', event: sampleUploadEvent(setup) },
    { file: eventFileOf(EVENT_PROCESSOR.handler), handler: EVENT_PROCESSOR.handler, kind: 'stream', event: sampleStreamEvent(setup) },
    ...(Object.keys(EVENT_CONSUMERS) as EventConsumerName[]).map((consumer): SampleEvent => {
      const { handler } = EVENT_CONSUMERS[consumer];
      return { file: eventFileOf(handler), handler, kind: 'consumer', consumer, event: sampleConsumerEvent(setup, consumer) };
    }),
  ];
  const files = events.map((e) => e.file);
  const repeated = files.filter((file, i) => files.indexOf(file) !== i);
  if (repeated.length) throw new Error(`two functions would share the sample event file ${repeated.join(', ')}`);
  return events;
}

/** A sample event file's text: pretty JSON with a final newline. */
export function eventFileText(event: SampleEvent['event']): string {
  return `${JSON.stringify(event, null, 2)}\n`;
}
