import type { Role, Scope } from './auth/access';
import { EVENT_TYPES, type EventType, type InternalEventType } from './events/event-catalog';

/**
 * The route manifest: the one list of every HTTP route of the API.
 * The CDK stack, the local API emulator, the tests and the API docs all read it.
 *
 * A route names its handler module (under functions/, exporting `handler`) and its
 * access policy. `publicAlias` adds the same operation on the public API host: it is
 * served by the same function, so its behaviour is identical by construction; on the
 * alias the organization comes from the credential instead of the path.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** DynamoDB actions a function's role is granted on the table and its indexes. */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem'
  | 'ConditionCheckItem';

/** KMS actions on the profile key, always bound to a member's encryption context. */
export type ProfileKeyAction = 'Decrypt' | 'GenerateDataKey';

/** SES actions on the configured sender identity. */
export type MailAction = 'SendEmail';

/**
 * S3 actions on the recordings bucket's objects (GetObject also grants HeadObject);
 * ListBucket and ListBucketMultipartUploads are granted on the bucket for the recordings/ prefix only.
 */
export type BucketAction = 'PutObject' | 'GetObject' | 'DeleteObject' | 'ListBucket' | 'ListBucketMultipartUploads' | 'AbortMultipartUpload';

/** EventBridge actions on the stack's own event bus. */
export type EventsAction = 'PutEvents';

/** KMS actions on the stack's key for webhook signing secrets, always bound to a webhook's encryption context. */
export type WebhookSecretKeyAction = 'Decrypt' | 'GenerateDataKey';

/** SQS actions an event consumer may take on its own queue (delaying a message it will retry). */
export type QueueAction = 'ChangeMessageVisibility';

/** DynamoDB actions on the rate limiter's counter table: count a request, or take a count back. */
export type RateLimitAction = 'UpdateItem';

/** DynamoDB actions on the idempotency table (Powertools' persistence layer: reserve, read, store, remove a record). */
export type IdempotencyAction = 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem';

export interface RoutePermissions {
  table?: readonly TableAction[];
  profileKey?: readonly ProfileKeyAction[];
  webhookSecretKey?: readonly WebhookSecretKeyAction[];
  /** On the consumer's own queue only (event consumers). */
  queue?: readonly QueueAction[];
  /** On the idempotency table: added by listHandlers to every route that takes Idempotency-Key, never written in the manifest. */
  idempotency?: readonly IdempotencyAction[];
  /** On the rate limiter's counter table: added by listHandlers to every route that counts against rate limits, never written in the manifest. */
  rateLimit?: readonly RateLimitAction[];
  bucket?: readonly BucketAction[];
  mail?: readonly MailAction[];
  events?: readonly EventsAction[];
}

/**
 * Who may call a route. A credential kind that is absent is refused with 403
 * (USER_KEY_NOT_ALLOWED, ORG_KEY_NOT_ALLOWED, API_KEY_NOT_ALLOWED, or API_KEY_REQUIRED for an ID token).
 */
export interface RouteAccess {
  /** ID tokens of active members of the organization with at least this role. */
  idToken?: { minRole: Role };
  /** Organization API keys of the same organization carrying every listed scope. */
  orgKey?: { scopes: readonly Scope[] };
  /** Personal API keys carrying every listed scope, of active members with at least minRole. */
  userKey?: { scopes: readonly Scope[]; minRole: Role };
}

export interface RouteDefinition {
  method: HttpMethod;
  /** API Gateway path template, e.g. /api/v1/organization/{orgId}/users. */
  path: string;
  publicAlias?: string;
  /** Module path from the repo root, without extension; it exports `handler`. */
  handler: string;
  summary: string;
  /** 'public' routes have no authorizer. */
  access: RouteAccess | 'public';
  /** What the function's IAM role may do; the stack grants exactly this. */
  permissions: RoutePermissions;
  /** A route that acts on no organization yet (accepting an invitation): only the credential kind is checked. */
  orgless?: boolean;
  /**
   * A route of the API reference (the /docs page, its assets, the OpenAPI document): public, served
   * like any route, but not an operation of the API, so the OpenAPI document does not list it.
   */
  reference?: true;
}

/** Organization routes by role: ID tokens of members with the role, or org keys with the scope. */
const orgRoute = (minRole: Role, scope: Scope) => ({ idToken: { minRole }, orgKey: { scopes: [scope] } }) satisfies RouteAccess;

/** Member routes: ID tokens of owners and admins, or org keys with the scope. */
const memberRoute = (scope: Scope) => ({ idToken: { minRole: 'admin' as Role }, orgKey: { scopes: [scope] } }) satisfies RouteAccess;

export const ROUTES = {
  health: {
    method: 'GET',
    path: '/health',
    handler: 'functions/health',
    summary: 'Liveness check',
    access: 'public',
    permissions: {},
  },
  docsPage: {
    method: 'GET',
    path: '/docs',
    handler: 'functions/docs/get-docs-page',
    summary: "The API reference page (Scalar's API reference of the OpenAPI document)",
    access: 'public',
    permissions: {},
    reference: true,
  },
  docsAsset: {
    method: 'GET',
    path: '/docs/{asset}',
    handler: 'functions/docs/get-docs-asset',
    summary: "A script of the API reference page: Scalar's browser bundle, or its configuration",
    access: 'public',
    permissions: {},
    reference: true,
  },
  openApiDocument: {
    method: 'GET',
    path: '/api/v1/openapi.json',
    handler: 'functions/docs/get-openapi-document',
    summary: 'The OpenAPI 3.1 document of the API, its server being the one that serves it',
    access: 'public',
    permissions: {},
    reference: true,
  },
  listUsers: {
    method: 'GET',
    path: '/api/v1/organization/{orgId}/users',
    publicAlias: '/api/v1/public/users',
    handler: 'functions/users/list-users',
    summary: 'List the active members of an organization',
    access: memberRoute('users:read'),
    permissions: { table: ['GetItem', 'Query'] },
  },
  getMemberSettings: {
    method: 'GET',
    path: '/api/v1/organization/{orgId}/users/{userId}/settings',
    publicAlias: '/api/v1/public/users/{userId}/settings',
    handler: 'functions/users/get-member-settings',
    summary: "Read a member's settings bundle",
    access: memberRoute('users:read'),
    permissions: { table: ['GetItem', 'BatchGetItem', 'Query'], profileKey: ['Decrypt'] },
  },
  updateMemberSettings: {
    method: 'PATCH',
    path: '/api/v1/organization/{orgId}/users/{userId}/settings',
    publicAlias: '/api/v1/public/users/{userId}/settings',
    handler: 'functions/users/update-member-settings',
    summary: "Change a member's settings, notifications, profile and preferences",
    access: memberRoute('users:write'),
    permissions: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'DeleteItem', 'ConditionCheckItem'], profileKey: ['GenerateDataKey'] },
  },
  updateMember: {
    method: 'PATCH',
    path: '/api/v1/organization/{orgId}/users/{userId}',
    handler: 'functions/users/update-member',
    summary: "Change a member's role",
    access: memberRoute('users:write'),
    // UpdateItem: the membership, conditioned on its read status and role; ConditionCheckItem: another active owner when an owner is demoted.
    permissions: { table: ['GetItem', 'Query', 'UpdateItem', 'ConditionCheckItem'] },
  },
  removeMember: {
    method: 'DELETE',
    path: '/api/v1/organization/{orgId}/users/{userId}',
    handler: 'functions/users/remove-member',
    summary: 'Remove a member from the organization (or leave it): their recordings stay',
    // Any active member may remove themselves (leave); removing someone else needs admin (checked in the domain).
    access: { idToken: { minRole: 'viewer' }, orgKey: { scopes: ['users:write'] } },
    // UpdateItem: the membership and the organization's active member count, in one transaction; ConditionCheckItem: another active owner when an owner leaves or is removed.
    permissions: { table: ['GetItem', 'Query', 'UpdateItem', 'ConditionCheckItem'] },
  },
  listRecordings: {
    method: 'GET',
    path: '/api/v1/organization/{orgId}/recordings',
    handler: 'functions/recordings/list-recordings',
    summary: "List the organization's recordings (or its trash)",
    access: orgRoute('viewer', 'recordings:read'),
    permissions: { table: ['GetItem', 'BatchGetItem', 'Query'] },
  },
  getRecording: {
    method: 'GET',
    path: '/api/v1/organization/{orgId}/recordings/{recordingId}',
    handler: 'functions/recordings/get-recording',
    summary: 'Read a recording and the related resources asked for',
    access: orgRoute('viewer', 'recordings:read'),
    permissions: { table: ['GetItem', 'Query'] },
  },
  getRecordingMedia: {
    method: 'GET',
    path: '/api/v1/organization/{orgId}/recordings/{recordingId}/media',
    handler: 'functions/recordings/get-recording-media',
    summary: "A short-lived URL to play or download a recording's uploaded file",
    access: orgRoute('viewer', 'recordings:read'),
    // GetObject: pre-signing a GET needs the permission the URL exercises.
    permissions: { table: ['GetItem'], bucket: ['GetObject'] },
  },
  updateRecording: {
    method: 'PUT',
    path: '/api/v1/organization/{orgId}/recordings/{recordingId}',
    handler: 'functions/recordings/update-recording',
    summary: "Change a recording's title, description and tags",
    access: orgRoute('admin', 'recordings:write'),
    permissions: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'DeleteItem'] },
  },
  deleteRecording: {
    method: 'DELETE',
    path: '/api/v1/organization/{orgId}/recordings/{recordingId}',
    handler: 'functions/recordings/delete-recording',
    summary: 'Move a recording to the trash, or delete it permanently',
    access: orgRoute('admin', 'recordings:write'),
    // One transaction either way; a permanent delete's parts and file go in the object cleanup consumer.
    permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  },
  restoreRecording: {
    method: 'POST',
    path: '/api/v1/organization/{orgId}/recordings/{recordingId}/restore',
    handler: 'functions/recordings/restore-recording',
    summary: 'Bring a recording back from the trash',
    access: orgRoute('admin', 'recordings:write'),
    // DeleteItem: its trash timer goes in the restoring transaction.
    permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  },
  createUploadUrl: {
    method: 'POST',
    path: '/api/v1/public/recordings/upload-url',
    handler: 'functions/recordings/create-upload-url',
    summary: 'Create a recording and a pre-signed URL to upload its file',
    access: { userKey: { scopes: ['recordings:write'], minRole: 'member' } },
    permissions: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'], bucket: ['PutObject'] },
  },
  listPublicRecordings: {
    method: 'GET',
    path: '/api/v1/public/recordings',
    handler: 'functions/recordings/list-public-recordings',
    summary: "List recordings with their recorder, tags and processing results (a personal key: the user's own)",
    access: { orgKey: { scopes: ['recordings:read'] }, userKey: { scopes: ['recordings:read'], minRole: 'viewer' } },
    permissions: { table: ['GetItem', 'BatchGetItem', 'Query'] },
  },
  getPublicRecordingMedia: {
    method: 'GET',
    path: '/api/v1/public/recordings/{recordingId}/media',
    handler: 'functions/recordings/get-public-recording-media',
    summary: "A short-lived URL to play or download a recording's file (a personal key: the user's own recordings)",
    access: { orgKey: { scopes: ['recordings:read'] }, userKey: { scopes: ['recordings:read'], minRole: 'viewer' } },
    permissions: { table: ['GetItem'], bucket: ['GetObject'] },
  },
  listTemplates: {
    method: 'GET',
    path: '/api/v1/organization/{orgId}/templates',
    handler: 'functions/templates/list-templates',
    summary: "List the organization's summarization templates",
    access: orgRoute('member', 'templates:read'),
    permissions: { table: ['GetItem', 'Query'] },
  },
  getTemplate: {
    method: 'GET',
    path: '/api/v1/organization/{orgId}/templates/{templateId}',
    handler: 'functions/templates/get-template',
    summary: 'Read a summarization template',
    access: orgRoute('member', 'templates:read'),
    permissions: { table: ['GetItem', 'Query'] },
  },
  createTemplate: {
    method: 'POST',
    path: '/api/v1/organization/{orgId}/templates',
    handler: 'functions/templates/create-template',
    summary: 'Create a summarization template shared with every member',
    access: orgRoute('admin', 'templates:write'),
    permissions: { table: ['GetItem', 'Query', 'PutItem'] },
  },
  updateTemplate: {
    method: 'PATCH',
    path: '/api/v1/organization/{orgId}/templates/{templateId}',
    handler: 'functions/templates/update-template',
    summary: 'Change a summarization template (sections replace the whole list)',
    access: orgRoute('admin', 'templates:write'),
    permissions: { table: ['GetItem', 'Query', 'PutItem'] },
  },
  deleteTemplate: {
    method: 'DELETE',
    path: '/api/v1/organization/{orgId}/templates/{templateId}',
    handler: 'functions/templates/delete-template',
    summary: 'Delete a summarization template for good',
    access: orgRoute('admin', 'templates:write'),
    permissions: { table: ['GetItem', 'Query', 'DeleteItem'] },
  },
  sendInvite: {
    method: 'POST',
    path: '/api/v1/organization/{orgId}/invites',
    handler: 'functions/invites/send-invite',
    summary: 'Invite someone by email',
    access: orgRoute('admin', 'invites:write'),
    permissions: { table: ['GetItem', 'Query', 'PutItem'] },
  },
  listInvites: {
    method: 'GET',
    path: '/api/v1/organization/{orgId}/invites',
    handler: 'functions/invites/list-invites',
    summary: "List the organization's invitations",
    access: orgRoute('admin', 'invites:read'),
    permissions: { table: ['GetItem', 'Query'] },
  },
  revokeInvite: {
    method: 'DELETE',
    path: '/api/v1/organization/{orgId}/invites/{inviteId}',
    handler: 'functions/invites/revoke-invite',
    summary: 'Revoke a pending invitation',
    access: orgRoute('admin', 'invites:write'),
    permissions: { table: ['GetItem', 'Query', 'UpdateItem', 'DeleteItem'] },
  },
  resendInvite: {
    method: 'POST',
    path: '/api/v1/organization/{orgId}/invites/{inviteId}/resend',
    handler: 'functions/invites/resend-invite',
    summary: 'Send a pending invitation again with a new link',
    access: orgRoute('admin', 'invites:write'),
    permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  },
  acceptInvite: {
    method: 'POST',
    path: '/api/v1/organization/invites/accept',
    handler: 'functions/invites/accept-invite',
    summary: 'Accept an invitation as the signed-in user',
    access: { idToken: { minRole: 'viewer' } },
    orgless: true,
    permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  },
  listAuditLog: {
    method: 'GET',
    path: '/api/v1/organization/{orgId}/audit-log',
    handler: 'functions/audit/list-audit-log',
    summary: "Read the organization's audit log: who changed what, newest first",
    access: memberRoute('audit:read'),
    permissions: { table: ['GetItem', 'Query'] },
  },
  listApiKeys: {
    method: 'GET',
    path: '/api/v1/organization/{orgId}/api-keys',
    handler: 'functions/api-keys/list-api-keys',
    summary: "List API keys: owners and admins see the organization's keys and every personal key, others their own personal keys",
    // Keys never manage keys: ID tokens only. What each role sees and may do is decided in the domain.
    access: { idToken: { minRole: 'viewer' } },
    permissions: { table: ['GetItem', 'Query'] },
  },
  createApiKey: {
    method: 'POST',
    path: '/api/v1/organization/{orgId}/api-keys',
    handler: 'functions/api-keys/create-api-key',
    summary: 'Create an organization key (owners and admins) or your own personal key; the answer holds the secret, shown this once',
    access: { idToken: { minRole: 'viewer' } },
    // PutItem: the managed key and its secret, in one transaction.
    permissions: { table: ['GetItem', 'PutItem'] },
  },
  getApiKey: {
    method: 'GET',
    path: '/api/v1/organization/{orgId}/api-keys/{keyId}',
    handler: 'functions/api-keys/get-api-key',
    summary: 'Read an API key (never its secret)',
    access: { idToken: { minRole: 'viewer' } },
    permissions: { table: ['GetItem'] },
  },
  rotateApiKey: {
    method: 'POST',
    path: '/api/v1/organization/{orgId}/api-keys/{keyId}/rotate',
    handler: 'functions/api-keys/rotate-api-key',
    summary: 'Issue a new secret for the same key; the old one keeps working for the grace period asked for (0 to 24 hours)',
    access: { idToken: { minRole: 'viewer' } },
    // One transaction: the key and the new secret put, the replaced secret put with its end (or deleted), an older grace-period secret deleted.
    permissions: { table: ['GetItem', 'PutItem', 'DeleteItem'] },
  },
  revokeApiKey: {
    method: 'DELETE',
    path: '/api/v1/organization/{orgId}/api-keys/{keyId}',
    handler: 'functions/api-keys/revoke-api-key',
    summary: 'Revoke an API key: refused once the authorizer cache expires',
    access: { idToken: { minRole: 'viewer' } },
    // One transaction: the key put, its secret marked revoked, a grace-period secret deleted.
    permissions: { table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  },
  listWebhooks: {
    method: 'GET',
    path: '/api/v1/organization/{orgId}/webhooks',
    handler: 'functions/webhooks/list-webhooks',
    summary: "List the organization's webhook endpoints",
    access: memberRoute('webhooks:read'),
    permissions: { table: ['GetItem', 'Query'] },
  },
  createWebhook: {
    method: 'POST',
    path: '/api/v1/organization/{orgId}/webhooks',
    handler: 'functions/webhooks/create-webhook',
    summary: 'Subscribe an HTTPS endpoint to events; the answer holds its signing secret, shown this once',
    access: memberRoute('webhooks:write'),
    // UpdateItem: the organization's endpoint count, in the same transaction.
    permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], webhookSecretKey: ['GenerateDataKey'] },
  },
  getWebhook: {
    method: 'GET',
    path: '/api/v1/organization/{orgId}/webhooks/{webhookId}',
    handler: 'functions/webhooks/get-webhook',
    summary: 'Read a webhook endpoint (never its secret)',
    access: memberRoute('webhooks:read'),
    permissions: { table: ['GetItem', 'Query'] },
  },
  updateWebhook: {
    method: 'PATCH',
    path: '/api/v1/organization/{orgId}/webhooks/{webhookId}',
    handler: 'functions/webhooks/update-webhook',
    summary: "Change a webhook endpoint's URL, description, events, or enable or disable it",
    access: memberRoute('webhooks:write'),
    permissions: { table: ['GetItem', 'Query', 'PutItem'] },
  },
  deleteWebhook: {
    method: 'DELETE',
    path: '/api/v1/organization/{orgId}/webhooks/{webhookId}',
    handler: 'functions/webhooks/delete-webhook',
    summary: 'Delete a webhook endpoint: it receives nothing more',
    access: memberRoute('webhooks:write'),
    permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  },
  rotateWebhookSecret: {
    method: 'POST',
    path: '/api/v1/organization/{orgId}/webhooks/{webhookId}/rotate-secret',
    handler: 'functions/webhooks/rotate-webhook-secret',
    summary: 'Replace the signing secret; the old one keeps signing beside it for 24 hours',
    access: memberRoute('webhooks:write'),
    permissions: { table: ['GetItem', 'Query', 'PutItem'], webhookSecretKey: ['GenerateDataKey'] },
  },
  testWebhook: {
    method: 'POST',
    path: '/api/v1/organization/{orgId}/webhooks/{webhookId}/test',
    handler: 'functions/webhooks/test-webhook',
    summary: 'Send a webhook.test event to the endpoint now',
    access: memberRoute('webhooks:write'),
    permissions: { table: ['GetItem', 'Query', 'PutItem'] },
  },
  listWebhookDeliveries: {
    method: 'GET',
    path: '/api/v1/organization/{orgId}/webhooks/{webhookId}/deliveries',
    handler: 'functions/webhooks/list-webhook-deliveries',
    summary: "List an endpoint's deliveries, newest first",
    access: memberRoute('webhooks:read'),
    permissions: { table: ['GetItem', 'Query'] },
  },
  retryWebhookDelivery: {
    method: 'POST',
    path: '/api/v1/organization/{orgId}/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
    handler: 'functions/webhooks/retry-webhook-delivery',
    summary: 'Send a delivery again now (a failed one too, or a succeeded one to replay it)',
    access: memberRoute('webhooks:write'),
    permissions: { table: ['GetItem', 'Query', 'UpdateItem'] },
  },
} as const satisfies Record<string, RouteDefinition>;

/**
 * Functions started by events rather than HTTP requests. The stack subscribes them; the
 * local runtime calls them when its emulators emit the same events.
 */
export const EVENT_HANDLERS = {
  completeUpload: {
    handler: 'functions/recordings/complete-upload',
    summary: 'Marks a recording uploaded when its file lands in the recordings bucket (failed when it is not the declared size and type)',
    source: 'recordings-bucket:ObjectCreated',
    // GetItem reads the declared upload; GetObject only for HeadObject (S3 events omit the content type).
    permissions: { table: ['GetItem', 'UpdateItem'], bucket: ['GetObject'] },
  },
} as const satisfies Record<string, { handler: string; summary: string; source: string; permissions: RoutePermissions }>;

/**
 * The event processor: the table's stream (new and old images) feeds it, and it puts the
 * domain events of each committed change on the event bus (shared/events/change-events.ts).
 * Locally the pipeline reads DynamoDB Local's stream and calls it the same way.
 */
export const EVENT_PROCESSOR = {
  handler: 'functions/events/process-table-stream',
  summary: "Turns the table stream's item changes into domain events on the event bus",
  source: 'table-stream',
  permissions: { events: ['PutEvents'] },
} as const satisfies { handler: string; summary: string; source: string; permissions: RoutePermissions };

/** A function that consumes domain events: an EventBridge rule sends the types it names to its queue, which has a dead-letter queue. */
export interface EventConsumerDefinition {
  handler: string;
  summary: string;
  /** The event types the rule matches (EventBridge `detail-type`). */
  eventTypes: readonly (EventType | InternalEventType)[];
  /** Deliveries of one event before it goes to the dead-letter queue (the queue's maxReceiveCount). */
  maxAttempts: number;
  /** Seconds before a failed delivery is tried again (the queue's visibility timeout). */
  retryAfterSeconds: number;
  /** The function's timeout, when it needs more than the default 10 seconds. */
  timeoutSeconds?: number;
  permissions: RoutePermissions;
}

/**
 * The consumers of domain events: side effects that follow a committed change, off the
 * request path. Each is idempotent by event id, so a redelivered event changes nothing twice.
 */
export const EVENT_CONSUMERS = {
  invitationMail: {
    handler: 'functions/events/send-invitation-email',
    summary: 'Sends the email of a new or resent invitation with a fresh link, and records its delivery state',
    eventTypes: ['invite.created', 'invite.resent'],
    maxAttempts: 5,
    retryAfterSeconds: 60,
    permissions: { table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], mail: ['SendEmail'] },
  },
  objectCleanup: {
    handler: 'functions/events/clean-up-recording',
    summary: "Deletes a permanently deleted recording's related items, uploaded object and unfinished uploads",
    eventTypes: ['recording.deleted'],
    maxAttempts: 10,
    retryAfterSeconds: 60,
    permissions: { table: ['Query', 'BatchWriteItem'], bucket: ['ListBucket', 'DeleteObject', 'ListBucketMultipartUploads', 'AbortMultipartUpload'] },
  },
  auditLog: {
    handler: 'functions/events/record-audit-entry',
    summary: "Stores every organization-visible event as an entry of the organization's audit log",
    eventTypes: EVENT_TYPES,
    maxAttempts: 10,
    retryAfterSeconds: 30,
    permissions: { table: ['PutItem'] },
  },
  trashRetention: {
    handler: 'functions/events/expire-trashed-recording',
    summary: 'Deletes a recording for good once it has been in the trash for the retention period',
    eventTypes: ['recording.retention_due'],
    maxAttempts: 10,
    retryAfterSeconds: 60,
    permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'] },
  },
  removedMemberKeys: {
    handler: 'functions/events/revoke-removed-member-keys',
    summary: "Revokes a removed member's personal API keys",
    eventTypes: ['member.removed'],
    maxAttempts: 10,
    retryAfterSeconds: 30,
    // Query: the member's keys (GSI2); PutItem/UpdateItem/DeleteItem: each revocation's transaction.
    permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  },
  webhookFanOut: {
    handler: 'functions/events/fan-out-webhook-deliveries',
    summary: "Creates one delivery per enabled webhook endpoint of the event's organization that subscribes to its type",
    eventTypes: EVENT_TYPES,
    maxAttempts: 10,
    retryAfterSeconds: 30,
    permissions: { table: ['Query', 'PutItem'] },
  },
  webhookDispatch: {
    handler: 'functions/events/dispatch-webhook-delivery',
    summary: 'Sends one webhook delivery to its endpoint, signed; a failed attempt delays its own message until the next retry is due',
    eventTypes: ['webhook.delivery_due'],
    // Receives of one message: the delivery's own schedule (8 attempts) decides when it has failed; these leave room for crashes.
    maxAttempts: 15,
    retryAfterSeconds: 60,
    // Ten deliveries of a batch in parallel, each allowed 10 s to answer.
    timeoutSeconds: 30,
    permissions: { table: ['GetItem', 'UpdateItem'], webhookSecretKey: ['Decrypt'], queue: ['ChangeMessageVisibility'] },
  },
} as const satisfies Record<string, EventConsumerDefinition>;

export type EventConsumerName = keyof typeof EVENT_CONSUMERS;

/**
 * The Lambda TOKEN authorizer: API Gateway calls it with the Authorization header of every
 * request to a route that is not public, and caches its answer per token. Like the handlers
 * above, the stack builds and grants its function from this entry, the local API emulator runs
 * it, and it has a sample event.
 */
export const AUTHORIZER = {
  handler: 'functions/authorizer',
  summary: 'Checks the bearer credential (API key or ID token) of every request to a route that is not public',
  // Reads keys and identity links; writes an identity link the first time a user signs in, and a key's last use once an hour.
  permissions: { table: ['GetItem', 'PutItem', 'UpdateItem'] },
} as const satisfies { handler: string; summary: string; permissions: RoutePermissions };

export type RouteName = keyof typeof ROUTES;

/** The routes that are operations of the API: all but the API reference's (`reference: true`), which the OpenAPI document leaves out. */
export type OperationRouteName = { [R in RouteName]: (typeof ROUTES)[R] extends { reference: true } ? never : R }[RouteName];

/** An endpoint that is an operation of the API. */
export type OperationEndpoint = Endpoint & { routeName: OperationRouteName };

/** Whether an endpoint is an operation of the API (listed in the OpenAPI document), not a route of the API reference. */
export function isOperation(endpoint: Endpoint): endpoint is OperationEndpoint {
  return !endpoint.route.reference;
}

/** One HTTP method + path that API Gateway serves: a route or its public alias. */
export interface Endpoint {
  routeName: RouteName;
  route: RouteDefinition;
  method: HttpMethod;
  path: string;
  /** Where the organization comes from: the {orgId} path parameter, or the caller's credential. */
  orgSource: 'path' | 'credential' | 'none';
}

/** Every endpoint API Gateway serves, aliases included, in manifest order. */
export function listEndpoints(): Endpoint[] {
  return (Object.entries(ROUTES) as [RouteName, RouteDefinition][]).flatMap(([routeName, route]) => {
    const paths = route.publicAlias ? [route.path, route.publicAlias] : [route.path];
    return paths.map((path) => ({
      routeName,
      route,
      method: route.method,
      path,
      orgSource: path.includes('{orgId}') ? 'path' : route.access === 'public' || route.orgless ? 'none' : 'credential',
    }));
  });
}

/** The endpoint of a route that API Gateway matched, from the event's `resource` template. */
export function endpointFor(routeName: RouteName, resource: string): Endpoint {
  const endpoint = listEndpoints().find((e) => e.routeName === routeName && e.path === resource);
  if (!endpoint) throw new Error(`Route ${routeName} has no path ${resource}`);
  return endpoint;
}

/** Whether a route accepts an Idempotency-Key (docs/idempotency.md): every authenticated POST route. */
export function takesIdempotencyKey(route: Pick<RouteDefinition, 'method' | 'access'>): boolean {
  return route.method === 'POST' && route.access !== 'public';
}

/**
 * Whether a route's requests count against the rate limits of an organization (docs/rate-limits.md):
 * every authenticated route that acts in one. Accepting an invitation acts in none yet.
 */
export function countsAgainstRateLimits(route: Pick<RouteDefinition, 'access' | 'orgless'>): boolean {
  return route.access !== 'public' && !route.orgless;
}

/**
 * What a route's function may do: its manifest permissions, plus the idempotency table when it
 * takes Idempotency-Key, plus the counter table (and reading the organization's limits) when it counts against rate limits.
 */
function functionPermissions(route: RouteDefinition): RoutePermissions {
  let permissions = route.permissions;
  if (takesIdempotencyKey(route)) permissions = { ...permissions, idempotency: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] };
  if (countsAgainstRateLimits(route)) {
    const table = permissions.table ?? [];
    permissions = { ...permissions, table: table.includes('GetItem') ? table : ['GetItem', ...table], rateLimit: ['UpdateItem'] };
  }
  return permissions;
}

/** Distinct handler modules: one Lambda function each (aliases share their route's). */
export function listHandlers(): { handler: string; routes: RouteName[]; permissions: RoutePermissions }[] {
  const byHandler = new Map<string, { handler: string; routes: RouteName[]; permissions: RoutePermissions }>();
  for (const [name, route] of Object.entries(ROUTES) as [RouteName, RouteDefinition][]) {
    const entry = byHandler.get(route.handler) ?? { handler: route.handler, routes: [], permissions: functionPermissions(route) };
    entry.routes.push(name);
    byHandler.set(route.handler, entry);
  }
  return [...byHandler.values()];
}

/** A Lambda function of the stack, by what invokes it. */
export interface FunctionDefinition {
  /** Module path from the repo root, without extension; it exports `handler`. */
  handler: string;
  kind: 'authorizer' | 'http' | 'event' | 'stream' | 'consumer';
  permissions: RoutePermissions;
  /** Seconds the function may run, when not the stack's default. */
  timeoutSeconds?: number;
}

/** Every Lambda function of the stack: the authorizer, one per handler module (listHandlers), the event handlers, the event processor and the event consumers. */
export function listFunctions(): FunctionDefinition[] {
  return [
    { handler: AUTHORIZER.handler, kind: 'authorizer', permissions: AUTHORIZER.permissions },
    ...listHandlers().map(({ handler, permissions }): FunctionDefinition => ({ handler, kind: 'http', permissions })),
    ...Object.values(EVENT_HANDLERS).map(({ handler, permissions }): FunctionDefinition => ({ handler, kind: 'event', permissions })),
    { handler: EVENT_PROCESSOR.handler, kind: 'stream', permissions: EVENT_PROCESSOR.permissions },
    ...Object.values(EVENT_CONSUMERS).map((consumer: EventConsumerDefinition): FunctionDefinition => ({
      handler: consumer.handler,
      kind: 'consumer',
      permissions: consumer.permissions,
      ...(consumer.timeoutSeconds ? { timeoutSeconds: consumer.timeoutSeconds } : {}),
    })),
  ];
}
