/**
 * The IAM vocabulary of the stack: what a Lambda function's role may do, resource by resource.
 * Every function declares its permissions in these words (a route in its route module, the
 * authorizer, the event functions); the stack grants exactly them (infra/constructs/functions.ts).
 */

/** DynamoDB actions a function's role is granted on the table and its indexes. */
export type TableAction =
  'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'BatchWriteItem' | 'ConditionCheckItem';

/** KMS actions on the profile key, always bound to a member's encryption context. */
export type ProfileKeyAction = 'Decrypt' | 'GenerateDataKey';

/** SES actions on the configured sender identity. */
export type MailAction = 'SendEmail';

/**
 * S3 actions on the recordings bucket's objects (GetObject also grants HeadObject);
 * ListBucket and ListBucketMultipartUploads are granted on the bucket for the recordings/ prefix only.
 */
export type BucketAction =
  'PutObject' | 'GetObject' | 'DeleteObject' | 'ListBucket' | 'ListBucketMultipartUploads' | 'AbortMultipartUpload';

/**
 * S3 actions on the members' data exports in the recordings bucket (exports/<org>/<user>/<export>.zip
 * only): write a ZIP in parts, sign its download, delete it (docs/governance.md).
 */
export type ExportObjectAction = 'PutObject' | 'GetObject' | 'DeleteObject' | 'AbortMultipartUpload';

/** EventBridge actions on the stack's own event bus. */
export type EventsAction = 'PutEvents';

/** KMS actions on the stack's key for webhook signing secrets, always bound to a webhook's encryption context. */
export type WebhookSecretKeyAction = 'Decrypt' | 'GenerateDataKey';

/** SQS actions an event consumer may take on its own queue (delaying a message it will retry). */
export type QueueAction = 'ChangeMessageVisibility';

/**
 * Amazon Transcribe actions: batch jobs' on this service's job names (`voice-org.*`, and the
 * organizations' vocabularies a job may name), custom vocabularies' on `voice-org-*` only.
 */
export type TranscribeAction =
  'StartTranscriptionJob' | 'GetTranscriptionJob' | 'CreateVocabulary' | 'UpdateVocabulary' | 'GetVocabulary' | 'DeleteVocabulary';

/** S3 actions on the organizations' vocabulary files in the recordings bucket (vocabularies/ only), which Transcribe reads with the caller's permissions. */
export type VocabularyFileAction = 'PutObject' | 'GetObject' | 'DeleteObject';

/** Amazon Bedrock actions, granted on the configured summary models' foundation-model and inference-profile ARNs only. */
export type BedrockAction = 'InvokeModel';
/** Amazon Translate actions (TranslateText has no resource of its own: granted on `*`). */
export type TranslateAction = 'TranslateText';

/**
 * OpenSearch Serverless data access on the search collection's passages index (its data access
 * policy names the roles; the IAM grant is aoss:APIAccessAll on the collection).
 */
export type SearchAction = 'ReadDocument' | 'WriteDocument';

/** DynamoDB actions on the rate limiter's counter table: count a request, or take a count back. */
export type RateLimitAction = 'UpdateItem';

/** DynamoDB actions on the idempotency table (Powertools' persistence layer: reserve, read, store, remove a record). */
export type IdempotencyAction = 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem';

export interface FunctionPermissions {
  table?: readonly TableAction[];
  profileKey?: readonly ProfileKeyAction[];
  webhookSecretKey?: readonly WebhookSecretKeyAction[];
  /** On the consumer's own queue only (event consumers). */
  queue?: readonly QueueAction[];
  /** On the idempotency table: added by listHandlers to every route that takes Idempotency-Key, never written in a route. */
  idempotency?: readonly IdempotencyAction[];
  /** On the rate limiter's counter table: added by listHandlers to every route that counts against rate limits, never written in a route. */
  rateLimit?: readonly RateLimitAction[];
  bucket?: readonly BucketAction[];
  /** On the exports/ prefix of the recordings bucket only. */
  exportObjects?: readonly ExportObjectAction[];
  mail?: readonly MailAction[];
  events?: readonly EventsAction[];
  transcribe?: readonly TranscribeAction[];
  /** On the vocabularies/ prefix of the recordings bucket only. */
  vocabularyFiles?: readonly VocabularyFileAction[];
  bedrock?: readonly BedrockAction[];
  translate?: readonly TranslateAction[];
  search?: readonly SearchAction[];
}
