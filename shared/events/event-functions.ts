import type { FunctionPermissions } from '../function-permissions';
import { EVENT_TYPES, type EventType, type InternalEventType } from '../schemas/event-catalog';

/**
 * Functions started by events rather than HTTP requests. The stack subscribes them; the
 * local runtime calls them when its emulators emit the same events.
 */
export const EVENT_HANDLERS = {
  completeUpload: {
    handler: 'functions/events/complete-upload',
    summary: 'Marks a recording uploaded when its file lands in the recordings bucket (failed when it is not the declared size and type)',
    source: 'recordings-bucket:ObjectCreated',
    // GetItem reads the declared upload; GetObject only for HeadObject (S3 events omit the content type);
    // DeleteObject removes a file that landed for a recording that no longer exists.
    permissions: { table: ['GetItem', 'UpdateItem'], bucket: ['GetObject', 'DeleteObject'] },
  },
} as const satisfies Record<string, { handler: string; summary: string; source: string; permissions: FunctionPermissions }>;

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
} as const satisfies { handler: string; summary: string; source: string; permissions: FunctionPermissions };

/** A function that consumes domain events: an EventBridge rule sends the types it names to its queue, which has a dead-letter queue. */
export interface EventConsumerDefinition {
  handler: string;
  summary: string;
  /** The event types the rule matches (EventBridge `detail-type`). */
  eventTypes: readonly (EventType | InternalEventType)[];
  /**
   * AWS service events on the account's default bus that a rule sends to the queue as well
   * (EventBridge `source` and `detail-type`, e.g. aws.transcribe / Transcribe Job State Change).
   * Locally the pipeline's putServiceEvent delivers them (infra/local/event-pipeline.ts).
   */
  serviceEvents?: readonly { source: string; detailType: string }[];
  /** Deliveries of one event before it goes to the dead-letter queue (the queue's maxReceiveCount). */
  maxAttempts: number;
  /** Seconds before a failed delivery is tried again (the queue's visibility timeout). */
  retryAfterSeconds: number;
  /** The function's timeout, when it needs more than the default 10 seconds. */
  timeoutSeconds?: number;
  permissions: FunctionPermissions;
}

/**
 * The consumers of domain events: side effects that follow a committed change, off the
 * request path. Each is idempotent by event id, so a redelivered event changes nothing twice.
 */
export const EVENT_CONSUMERS = {
  sendInvitationEmail: {
    handler: 'functions/events/send-invitation-email',
    summary: 'Sends the email of a new or resent invitation with a fresh link, and records its delivery state',
    eventTypes: ['invite.created', 'invite.resent'],
    maxAttempts: 5,
    retryAfterSeconds: 60,
    permissions: { table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], mail: ['SendEmail'] },
  },
  cleanUpRecording: {
    handler: 'functions/events/clean-up-recording',
    summary: "Deletes a permanently deleted recording's related items, uploaded object and unfinished uploads",
    eventTypes: ['recording.deleted'],
    maxAttempts: 10,
    retryAfterSeconds: 60,
    permissions: {
      table: ['Query', 'BatchWriteItem'],
      bucket: ['ListBucket', 'DeleteObject', 'ListBucketMultipartUploads', 'AbortMultipartUpload'],
    },
  },
  recordAuditEntry: {
    handler: 'functions/events/record-audit-entry',
    summary: "Stores every organization-visible event as an entry of the organization's audit log",
    eventTypes: EVENT_TYPES,
    maxAttempts: 10,
    retryAfterSeconds: 30,
    permissions: { table: ['PutItem'] },
  },
  expireTrashedRecording: {
    handler: 'functions/events/expire-trashed-recording',
    summary: 'Deletes a recording for good once it has been in the trash for the retention period',
    eventTypes: ['recording.retention_due'],
    maxAttempts: 10,
    retryAfterSeconds: 60,
    permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'] },
  },
  revokeRemovedMemberKeys: {
    handler: 'functions/events/revoke-removed-member-keys',
    summary: "Revokes a removed member's personal API keys",
    eventTypes: ['member.removed'],
    maxAttempts: 10,
    retryAfterSeconds: 30,
    // Query: the member's keys (GSI2); PutItem/UpdateItem/DeleteItem: each revocation's transaction.
    permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  },
  fanOutWebhookDeliveries: {
    handler: 'functions/events/fan-out-webhook-deliveries',
    summary: "Creates one delivery per enabled webhook endpoint of the event's organization that subscribes to its type",
    eventTypes: EVENT_TYPES,
    maxAttempts: 10,
    retryAfterSeconds: 30,
    permissions: { table: ['Query', 'PutItem'] },
  },
  dispatchWebhookDelivery: {
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
  indexRecording: {
    handler: 'functions/events/index-recording',
    summary:
      "Makes the search index hold a recording's current passages: its title, transcript, summaries and action items; none once trashed or deleted",
    eventTypes: ['recording.index_due', 'recording.deleted'],
    maxAttempts: 10,
    retryAfterSeconds: 30,
    // Query: the recording's key range, read in one strongly consistent query.
    permissions: { table: ['Query'], search: ['WriteDocument'] },
  },
  queueTranscriptionOnUpload: {
    handler: 'functions/events/queue-transcription-on-upload',
    summary:
      "Queues the transcription of an uploaded recording when its recorder's auto_transcription is on (fails it when the organization's monthly allowance is used up)",
    eventTypes: ['recording.uploaded'],
    maxAttempts: 10,
    retryAfterSeconds: 30,
    // GetItem: the recording, the recorder's settings; BatchGetItem: the allowance and the month's usage; PutItem: the recording and its watch item.
    permissions: { table: ['GetItem', 'BatchGetItem', 'PutItem'] },
  },
  startTranscriptionJob: {
    handler: 'functions/events/start-transcription-job',
    summary:
      "Starts the Amazon Transcribe job of a queued transcription (left queued for the sweeper while Transcribe's concurrent job quota is full)",
    eventTypes: ['recording.transcription_queued'],
    maxAttempts: 10,
    retryAfterSeconds: 60,
    // The only function that may start jobs. Transcribe reads the media and writes the output with the caller's permissions.
    permissions: { table: ['GetItem', 'PutItem', 'DeleteItem'], transcribe: ['StartTranscriptionJob'], bucket: ['GetObject', 'PutObject'] },
  },
  finishTranscriptionJob: {
    handler: 'functions/events/finish-transcription-job',
    summary:
      "Stores a finished Transcribe job's transcript (or its failure) on its recording and counts the billed minutes, from Transcribe's job state change event",
    eventTypes: [],
    serviceEvents: [{ source: 'aws.transcribe', detailType: 'Transcribe Job State Change' }],
    maxAttempts: 10,
    retryAfterSeconds: 60,
    // A 4-hour transcript: reading its output, writing its chunks.
    timeoutSeconds: 60,
    // The only function, with the sweeper, that reads jobs' output (and deletes it once stored).
    permissions: {
      table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
      transcribe: ['GetTranscriptionJob'],
      bucket: ['GetObject', 'DeleteObject'],
    },
  },
  queueSummaryOnTranscription: {
    handler: 'functions/events/queue-summary-on-transcription',
    summary:
      "Queues a summary of a recording with the organization's default template (else the built-in one) when its transcription completes",
    eventTypes: ['recording.transcription_completed'],
    maxAttempts: 10,
    retryAfterSeconds: 30,
    // GetItem: the recording, the default template; PutItem: the recording (its digest) and the summary, in one transaction.
    permissions: { table: ['GetItem', 'Query', 'PutItem'] },
  },
  runSummary: {
    handler: 'functions/events/run-summary',
    summary:
      "Writes a queued summary with the summary engine (Amazon Bedrock), shaped by the recorder's model, language and preferences; throttling delays its own message",
    eventTypes: ['recording.summary_queued'],
    // Receives of one message: throttling returns it with a growing delay (docs/summaries.md); the last one fails the summary.
    maxAttempts: 8,
    retryAfterSeconds: 120,
    // A chunked summary of a 4-hour transcript is several model calls.
    timeoutSeconds: 300,
    // GetItem: recording, summary, settings; Query: transcript chunks, preferences, members; PutItem: the transitions.
    permissions: { table: ['GetItem', 'Query', 'PutItem'], queue: ['ChangeMessageVisibility'], bedrock: ['InvokeModel'] },
  },
  runTranslation: {
    handler: 'functions/events/run-translation',
    summary:
      "Translates a recording's transcript and latest summary with Amazon Translate (its throttling delays the message, never a hot loop)",
    eventTypes: ['recording.translation_queued'],
    maxAttempts: 10,
    retryAfterSeconds: 60,
    // A 4-hour transcript: about 50 requests of 10,000 bytes, three at a time.
    timeoutSeconds: 120,
    // Query: the transcript and a language's old chunks; PutItem: the recording and the header; BatchWriteItem: the chunks.
    // The only function that may call Amazon Translate.
    permissions: {
      table: ['GetItem', 'Query', 'PutItem', 'BatchWriteItem'],
      translate: ['TranslateText'],
      queue: ['ChangeMessageVisibility'],
    },
  },
  syncVocabulary: {
    handler: 'functions/events/sync-vocabulary',
    summary:
      "Makes the organization's Amazon Transcribe vocabulary (voice-org-<org>) hold its latest terms, polling it until READY or FAILED, and records the answer",
    eventTypes: ['organization.vocabulary_updated'],
    // Receives of one message: Transcribe takes minutes, the consumer looks every 30 s (docs/transcription.md), 20 minutes in all.
    maxAttempts: 40,
    retryAfterSeconds: 30,
    // The only function that manages vocabularies, and only voice-org-*; the file Transcribe reads is under vocabularies/.
    permissions: {
      table: ['GetItem', 'UpdateItem'],
      transcribe: ['CreateVocabulary', 'UpdateVocabulary', 'GetVocabulary', 'DeleteVocabulary'],
      vocabularyFiles: ['PutObject', 'GetObject', 'DeleteObject'],
      queue: ['ChangeMessageVisibility'],
    },
  },
  runMemberExport: {
    handler: 'functions/events/run-member-export',
    summary:
      "Writes a member's data export: a ZIP of their user, settings (profile decrypted), recordings, assigned action items, audit entries and keys, streamed into the bucket",
    eventTypes: ['user.export_requested'],
    maxAttempts: 3,
    // At least the timeout: a message must not come back while its run still writes (a redelivery starts the ZIP again).
    retryAfterSeconds: 900,
    // 1,000 recordings with their audio files (docs/performance.md): minutes, not seconds.
    timeoutSeconds: 900,
    // GetItem/BatchGetItem/Query: what the API's readers read; PutItem: the export's states. GetObject: the recorded files.
    permissions: {
      table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem'],
      profileKey: ['Decrypt'],
      bucket: ['GetObject'],
      exportObjects: ['PutObject', 'AbortMultipartUpload', 'DeleteObject'],
    },
  },
  runMemberErasure: {
    handler: 'functions/events/run-member-erasure',
    summary:
      'Erases a member from an organization, step by step (recordings, exports, action items naming them, settings, keys, invitations, membership, and their user once a member of nothing); a crash resumes at the step it stopped in',
    eventTypes: ['user.erasure_requested'],
    maxAttempts: 10,
    // At least the timeout: a message must not come back while its run still works (a redelivery would race it).
    retryAfterSeconds: 900,
    // 1,000 recordings (docs/performance.md, "Member erasure"): minutes, not seconds.
    timeoutSeconds: 900,
    // The permanent delete's transaction, the cleanup's batch deletes, the rewrites of others' action items, the erasure's steps.
    permissions: {
      table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem', 'BatchWriteItem'],
      bucket: ['ListBucket', 'DeleteObject', 'ListBucketMultipartUploads', 'AbortMultipartUpload'],
      exportObjects: ['DeleteObject'],
      search: ['WriteDocument'],
    },
  },
} as const satisfies Record<string, EventConsumerDefinition>;

export type EventConsumerName = keyof typeof EVENT_CONSUMERS;
