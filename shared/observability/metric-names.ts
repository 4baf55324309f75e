/**
 * The names the service's telemetry is published under, read by the functions (metrics.ts,
 * tracer.ts, logger.ts) and by the stack's dashboard and alarms (infra/constructs/observability.ts):
 * one list, so a renamed metric cannot leave a dashboard widget reading nothing.
 */

/** The `service` of every log line, trace and metric. */
export const SERVICE_NAME = 'voice-org-api';

/** The CloudWatch namespace of the business metrics (EMF) and of the access log's metric filter. */
export const METRICS_NAMESPACE = 'VoiceOrgApi';

/**
 * The business counts, each emitted where the code that knows the outcome runs (a handler or
 * consumer, or a domain function through an injected {@link CountMetric}), with what it counts.
 * Dimensions: `service` and `stage` (the stack's stage), nothing per organization or user:
 * every distinct dimension value is a custom metric billed on its own.
 */
export const BUSINESS_METRICS = {
  InvitesSent: 'Invitation emails SES accepted (the invitation mail consumer; a resend counts again).',
  InviteEmailsFailed: 'Invitations whose email failed on its last attempt (invite.email_failed follows).',
  UploadsCompleted: 'Recordings whose upload landed with the declared size and type (the upload completion function).',
  MemberSettingsUpdated: 'Successful PATCH …/users/{userId}/settings requests.',
  MembersRemoved: 'Members removed from an organization, or who left (DELETE …/users/{userId}).',
  ApiKeysCreated: 'Organization and personal API keys created through the API.',
  WebhookAttemptsFailed: 'Webhook delivery attempts that failed and will be retried.',
  WebhookDeliveriesFailed: 'Webhook deliveries given up on: every attempt failed, or the endpoint is disabled.',
  RequestsRateLimited:
    "Requests an organization's or an API key's rate limit, or the daily quota, refused (429 RATE_LIMITED / QUOTA_EXCEEDED; docs/rate-limits.md).",
  SummariesCompleted: 'Summaries the engine wrote and the summary consumer stored (docs/summaries.md).',
  SummariesFailed: 'Summaries that ended failed (engine refusal, invalid output, throttled to the last delivery).',
  SummaryInputTokens: "Model input tokens of completed summaries (the engine's reported usage, every call of a chunked summary summed).",
  SummaryOutputTokens: 'Model output tokens of completed summaries.',
  RateLimiterUnavailable: 'Requests let through uncounted because the rate limit counters could not be reached (the limiter fails open).',
  TranslationsCompleted: 'Translations stored (the translation consumer).',
  TranslationsFailed:
    'Translations that ended failed: an unsupported pair, a refused text, or every delivery failing (the translation consumer).',
  TranslatedCharacters:
    "Characters sent to the translation engine (what Amazon Translate bills): the transcript's turns and the summary's lines.",
} as const;

export type BusinessMetric = keyof typeof BUSINESS_METRICS;

/**
 * Counts occurrences of a business metric in the current invocation (flushed when it ends).
 * Domain functions that know an outcome the handler cannot see receive one as a dependency.
 */
export type CountMetric = (metric: BusinessMetric, count?: number) => void;

/**
 * The metric the API's access log adds (a metric filter on its log group, infra/constructs/api.ts):
 * requests API Gateway itself refused with 429 (the stage's or the account's throttling: error
 * type THROTTLED), per stage; the organizations' own limits count in RequestsRateLimited.
 */
export const THROTTLED_REQUESTS_METRIC = 'ThrottledRequests';
