import * as v from 'valibot';
import { RATE_LIMIT_BOUNDS, type OrganizationLimits } from './core/rate-limits';
import { UPLOAD_MAX_BYTES_CEILING } from './core/limits';
import { bedrockModelMapOf, modelCatalogOf, type ModelCatalog } from './config-models';

export { DEFAULT_BEDROCK_MODEL_MAP } from './config-models';

/**
 * The runtime configuration of every function, parsed once at cold start.
 * Nothing else in functions/ or shared/ reads process.env: the CDK stack and the
 * local runtime both provide these variables, and a missing or malformed one fails
 * the cold start loudly instead of failing a request later.
 */
/** The tracing modes of the stack (CDK context `tracing`) and of its functions (TRACING). */
export const TRACING_MODES = ['lambda', 'opentelemetry', 'off'] as const;
export type TracingMode = (typeof TRACING_MODES)[number];

/** A whole number written in an environment variable, within bounds. */
function wholeNumberText({ min, max }: { min: number; max: number }) {
  return v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.minValue(min), v.maxValue(max));
}

const ConfigSchema = v.object({
  TABLE_NAME: v.pipe(v.string(), v.minLength(1)),
  AWS_REGION: v.optional(v.string(), 'us-east-1'),
  /** Local emulator endpoint; absent in AWS. */
  DYNAMODB_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  /** OpenID Connect issuer of ID tokens (Cognito user pool or an external issuer). */
  ID_TOKEN_ISSUER: v.optional(v.pipe(v.string(), v.url())),
  /** Comma-separated accepted audiences (app client ids). */
  ID_TOKEN_AUDIENCE: v.optional(v.string()),
  ID_TOKEN_JWKS_URL: v.optional(v.pipe(v.string(), v.url())),
  /** KMS key that wraps profile data keys (AWS). */
  PROFILE_KMS_KEY_ARN: v.optional(v.pipe(v.string(), v.startsWith('arn:', 'must be a KMS key ARN'))),
  /** File holding a raw 256-bit AES key that wraps profile data keys (local runtime only). */
  PROFILE_LOCAL_KEY_FILE: v.optional(v.pipe(v.string(), v.minLength(1))),
  /**
   * The active AI models: comma-separated canonical ids, each with optional `|`-separated
   * aliases after `=`, e.g. `gpt-4o=4o|gpt4o,claude-sonnet-4-5=sonnet`.
   */
  ACTIVE_MODELS: v.optional(
    v.pipe(v.string(), v.regex(/^[\w.:-]+(=[\w.:-]+(\|[\w.:-]+)*)?(,[\w.:-]+(=[\w.:-]+(\|[\w.:-]+)*)?)*$/, 'must be id[=alias|alias],...')),
    'gpt-4o-mini=4o-mini|mini,gpt-4o=4o,claude-sonnet-4-5=sonnet|claude-sonnet,gemini-2.5-pro=gemini-pro|gemini',
  ),
  /** The recordings bucket, and the S3 emulator's endpoint locally. */
  BUCKET_NAME: v.optional(v.pipe(v.string(), v.minLength(3))),
  S3_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  /** How long a pre-signed upload URL works. */
  UPLOAD_URL_TTL_SECONDS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.minValue(60), v.maxValue(604_800)), '900'),
  /** How long a pre-signed playback (GET) URL works: at most 15 minutes. */
  MEDIA_URL_TTL_SECONDS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.minValue(60), v.maxValue(900)), '900'),
  /** The largest recording an upload URL is issued for. */
  UPLOAD_MAX_BYTES: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/),
      v.transform(Number),
      v.minValue(1),
      v.maxValue(UPLOAD_MAX_BYTES_CEILING, 'must be at most 5 GiB, the largest single S3 PUT'),
    ),
    String(1024 ** 3),
  ),
  /** Invitation emails: sender, the web app that accepts invites, the SES emulator locally. */
  SES_FROM_ADDRESS: v.optional(v.pipe(v.string(), v.email('must be an email address')), 'no-reply@voice-org.example'),
  SES_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  APP_URL: v.optional(v.pipe(v.string(), v.url()), 'http://127.0.0.1:3000'),
  /** How long an invitation can be accepted. */
  INVITE_TTL_SECONDS: v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.minValue(1), v.maxValue(90 * 86_400)),
    String(7 * 86_400),
  ),
  /** The EventBridge bus the event processor puts domain events on (AWS); absent locally, where the local pipeline routes them. */
  EVENT_BUS_NAME: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** How long a recording stays in the trash before it is deleted for good (documented in the API). */
  TRASH_RETENTION_DAYS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.minValue(1), v.maxValue(3650)), '30'),
  /** How long audit log entries are kept (DynamoDB TTL). */
  AUDIT_RETENTION_DAYS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.minValue(1), v.maxValue(3650)), '365'),
  /**
   * Lets webhook endpoints be plain-HTTP loopback URLs (http://127.0.0.1, http://localhost):
   * only the local runtime sets it, so developers can receive deliveries on their machine.
   */
  WEBHOOK_ALLOW_LOCAL_URLS: v.optional(v.picklist(['true', 'false'], 'must be true or false'), 'false'),
  /** The local SQS emulator's endpoint (the webhook dispatcher delays its retries there); absent in AWS. */
  SQS_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  /**
   * The idempotency table (Idempotency-Key on POST routes, docs/idempotency.md): set on the
   * functions of authenticated POST routes only. A keyed request to a function without it is a 500.
   */
  IDEMPOTENCY_TABLE_NAME: v.optional(v.pipe(v.string(), v.minLength(3))),
  /**
   * The per-organization rate limiter's counters (docs/rate-limits.md): set on the functions of
   * organization routes only. A request to such a function without it is a 500.
   */
  RATE_LIMIT_TABLE_NAME: v.optional(v.pipe(v.string(), v.minLength(3))),
  /** An organization's limits unless it has its own (`org set-limits`): requests per second, requests at once, requests per UTC day. */
  RATE_LIMIT_DEFAULT_RATE: v.optional(wholeNumberText(RATE_LIMIT_BOUNDS.rate), '25'),
  RATE_LIMIT_DEFAULT_BURST: v.optional(wholeNumberText(RATE_LIMIT_BOUNDS.burst), '50'),
  /** Absent: no daily quota by default. */
  RATE_LIMIT_DEFAULT_DAILY_QUOTA: v.optional(wholeNumberText(RATE_LIMIT_BOUNDS.dailyQuota)),
  /** How long a function keeps an organization's limits before reading them again: the delay before a changed limit applies. */
  RATE_LIMIT_CACHE_SECONDS: v.optional(wholeNumberText({ min: 0, max: 300 }), '30'),
  /** The model that replaces an unknown selected_model; must be one of ACTIVE_MODELS. */
  FALLBACK_MODEL: v.optional(v.string(), 'gpt-4o-mini'),
  /** The local stand-in of Amazon Transcribe (infra/local/transcribe-emulator.ts); absent in AWS. */
  TRANSCRIBE_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  /** The local stand-in of Amazon Translate (infra/local/translate-emulator.ts); absent in AWS. */
  TRANSLATE_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  /**
   * The search collection's endpoint (docs/search.md): the OpenSearch Serverless collection in AWS,
   * the local stand-in of its REST API under `npm start`. Absent: the deployment has no search.
   */
  SEARCH_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  /** Questions a day (Ask) for an organization without its own allowance (`org set-limits --ask-daily`). */
  ASK_DAILY_DEFAULT: v.optional(wholeNumberText({ min: 0, max: 1_000_000 }), '200'),
  /** How requests to it are signed: `aoss` (SigV4 for OpenSearch Serverless, the default) or `none` (the local stand-in). */
  SEARCH_SIGNING: v.optional(v.picklist(['aoss', 'none']), 'aoss'),
  /** The embedding model for semantic and hybrid search (Titan Text Embeddings V2); absent: keyword search only. */
  SEARCH_EMBEDDING_MODEL: v.optional(v.picklist(['amazon.titan-embed-text-v2:0'])),
  /** The local stand-in of Amazon Bedrock Runtime (infra/local/bedrock-emulator.ts); absent in AWS. */
  BEDROCK_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  /**
   * The Bedrock model (id or inference profile) that writes the summaries of each active model id:
   * `selected_model=bedrock-id,...` (docs/summaries.md); default DEFAULT_BEDROCK_MODEL_MAP. A model
   * without an entry uses FALLBACK_MODEL's.
   */
  BEDROCK_MODEL_MAP: v.optional(
    v.pipe(v.string(), v.regex(/^[\w.:-]+=[\w.:/-]+(,[\w.:-]+=[\w.:/-]+)*$/, 'must be model=bedrock-model-id,...')),
  ),
  /** The stack's stage (prod, staging…): the `stage` dimension of the business metrics. Absent locally. */
  STAGE: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be letters, digits, - or _'))),
  /**
   * The stack's tracing mode (CDK context `tracing`, docs/observability.md): `lambda` has each
   * sampled invocation send its subsegment to the X-Ray daemon (shared/observability/invocation-trace.ts);
   * `opentelemetry` (the ADOT layer traces) and `off` send none. Absent locally: none.
   */
  TRACING: v.optional(v.picklist(TRACING_MODES, `must be one of ${TRACING_MODES.join(', ')}`)),
});

/** The environment variables a function reads: the only ones the CDK stack may set (besides the Node.js runtime's NODE_OPTIONS). */
export type ConfigVariable = keyof typeof ConfigSchema.entries;
export const CONFIG_VARIABLES = Object.keys(ConfigSchema.entries) as ConfigVariable[];

export type Config = {
  tableName: string;
  region: string;
  dynamoDbEndpoint?: string;
  idToken?: { issuer: string; audiences: string[]; jwksUrl: string };
  /** How profile data keys are wrapped; absent when neither is configured. */
  profileKey?: { kind: 'kms'; keyArn: string } | { kind: 'local'; file: string };
  models: ModelCatalog;
  bucket?: { name: string; endpoint?: string };
  uploads: { urlTtlSeconds: number; maxBytes: number };
  /** Playback: how long a media URL works. */
  media: { urlTtlSeconds: number };
  invites: { fromAddress: string; sesEndpoint?: string; appUrl: string; ttlSeconds: number };
  /** The event bus (AWS only) and how long the trash and the audit log keep things. */
  events: { busName?: string; trashRetentionDays: number; auditRetentionDays: number };
  /** Webhook delivery: whether loopback HTTP endpoints are allowed (local only), and the local SQS emulator. */
  webhooks: { allowLocalUrls: boolean; sqsEndpoint?: string };
  /** Where Idempotency-Key records are kept; absent on functions that take no key. */
  idempotency?: { tableName: string };
  /**
   * The per-organization rate limiter: where it counts (absent on functions that count nothing),
   * the limits of an organization without its own, and how long a function keeps an organization's limits.
   */
  rateLimits: { tableName?: string; defaults: OrganizationLimits; cacheSeconds: number };
  /** Transcription jobs: the local stand-in's endpoint (absent in AWS, where the region's Transcribe answers). */
  transcription: { endpoint?: string };
  /** Translation: the local stand-in's endpoint (absent in AWS, where the region's Amazon Translate answers). */
  translation: { endpoint?: string };
  /** Summaries: the local Bedrock stand-in's endpoint (absent in AWS), and selected_model → Bedrock model id. */
  bedrock: { endpoint?: string; modelMap: Record<string, string> };
  /** The stack's stage, a dimension of the business metrics; absent locally. */
  stage?: string;
  /** Search: the collection's endpoint and whether to sign with SigV4; absent without search. */
  search?: { endpoint: string; signing: 'aoss' | 'none'; embeddingModel?: 'amazon.titan-embed-text-v2:0' };
  /** Ask: the daily allowance of questions of an organization without its own. */
  ask: { dailyDefault: number };
};

/** Parses an environment into a Config; exported for tests, use `config` elsewhere. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = v.safeParse(ConfigSchema, env);
  if (!result.success) {
    const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? '?'}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  const parsed = result.output;
  const { ID_TOKEN_ISSUER: issuer, ID_TOKEN_AUDIENCE: audience, ID_TOKEN_JWKS_URL: jwksUrl } = parsed;
  if ((issuer || audience || jwksUrl) && !(issuer && audience && jwksUrl)) {
    throw new Error('Invalid configuration: ID_TOKEN_ISSUER, ID_TOKEN_AUDIENCE and ID_TOKEN_JWKS_URL go together');
  }
  if (parsed.PROFILE_KMS_KEY_ARN && parsed.PROFILE_LOCAL_KEY_FILE) {
    throw new Error('Invalid configuration: set PROFILE_KMS_KEY_ARN or PROFILE_LOCAL_KEY_FILE, not both');
  }
  const defaults: OrganizationLimits = {
    rate: parsed.RATE_LIMIT_DEFAULT_RATE,
    burst: parsed.RATE_LIMIT_DEFAULT_BURST,
    daily_quota: parsed.RATE_LIMIT_DEFAULT_DAILY_QUOTA ?? null,
  };
  if (defaults.burst < defaults.rate)
    throw new Error('Invalid configuration: RATE_LIMIT_DEFAULT_BURST must be at least RATE_LIMIT_DEFAULT_RATE');
  return {
    tableName: parsed.TABLE_NAME,
    region: parsed.AWS_REGION,
    dynamoDbEndpoint: parsed.DYNAMODB_ENDPOINT,
    idToken:
      issuer && audience && jwksUrl
        ? {
            issuer,
            audiences: audience
              .split(',')
              .map((a) => a.trim())
              .filter(Boolean),
            jwksUrl,
          }
        : undefined,
    profileKey: parsed.PROFILE_KMS_KEY_ARN
      ? { kind: 'kms', keyArn: parsed.PROFILE_KMS_KEY_ARN }
      : parsed.PROFILE_LOCAL_KEY_FILE
        ? { kind: 'local', file: parsed.PROFILE_LOCAL_KEY_FILE }
        : undefined,
    models: modelCatalogOf(parsed.ACTIVE_MODELS, parsed.FALLBACK_MODEL),
    bucket: parsed.BUCKET_NAME ? { name: parsed.BUCKET_NAME, endpoint: parsed.S3_ENDPOINT } : undefined,
    uploads: { urlTtlSeconds: parsed.UPLOAD_URL_TTL_SECONDS, maxBytes: parsed.UPLOAD_MAX_BYTES },
    media: { urlTtlSeconds: parsed.MEDIA_URL_TTL_SECONDS },
    invites: {
      fromAddress: parsed.SES_FROM_ADDRESS,
      sesEndpoint: parsed.SES_ENDPOINT,
      appUrl: parsed.APP_URL.replace(/\/$/, ''),
      ttlSeconds: parsed.INVITE_TTL_SECONDS,
    },
    events: {
      busName: parsed.EVENT_BUS_NAME,
      trashRetentionDays: parsed.TRASH_RETENTION_DAYS,
      auditRetentionDays: parsed.AUDIT_RETENTION_DAYS,
    },
    webhooks: { allowLocalUrls: parsed.WEBHOOK_ALLOW_LOCAL_URLS === 'true', sqsEndpoint: parsed.SQS_ENDPOINT },
    idempotency: parsed.IDEMPOTENCY_TABLE_NAME ? { tableName: parsed.IDEMPOTENCY_TABLE_NAME } : undefined,
    rateLimits: { tableName: parsed.RATE_LIMIT_TABLE_NAME, defaults, cacheSeconds: parsed.RATE_LIMIT_CACHE_SECONDS },
    transcription: { endpoint: parsed.TRANSCRIBE_ENDPOINT },
    translation: { endpoint: parsed.TRANSLATE_ENDPOINT },
    bedrock: { endpoint: parsed.BEDROCK_ENDPOINT, modelMap: bedrockModelMapOf(parsed.BEDROCK_MODEL_MAP, parsed.FALLBACK_MODEL) },
    stage: parsed.STAGE,
    search: parsed.SEARCH_ENDPOINT
      ? { endpoint: parsed.SEARCH_ENDPOINT, signing: parsed.SEARCH_SIGNING, embeddingModel: parsed.SEARCH_EMBEDDING_MODEL }
      : undefined,
    ask: { dailyDefault: parsed.ASK_DAILY_DEFAULT },
  };
}

/** The active model list alone, for tools that write settings without a function's full config (the CLI). */
export function parseModelCatalog(env: Record<string, string | undefined>): Config['models'] {
  const { ACTIVE_MODELS, FALLBACK_MODEL } = v.parse(v.pick(ConfigSchema, ['ACTIVE_MODELS', 'FALLBACK_MODEL']), env);
  return modelCatalogOf(ACTIVE_MODELS, FALLBACK_MODEL);
}

let cached: Config | undefined;

/** The configuration of this process, parsed on first use (cold start) and kept. */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/**
 * What the invocation subsegment needs (shared/observability/invocation-trace.ts), read apart
 * from `config()` so that a function that parses no config (health) does not parse it for this:
 * whether this function sends subsegments (TRACING=lambda), and the X-Ray daemon's address, which
 * Lambda sets (AWS_XRAY_DAEMON_ADDRESS) on a function with active tracing. Two variables, read
 * at each invocation's start.
 */
export function tracingSettings(): { subsegments: boolean; daemonAddress?: string } {
  return { subsegments: process.env.TRACING === 'lambda', daemonAddress: process.env.AWS_XRAY_DAEMON_ADDRESS };
}

/**
 * The current invocation's X-Ray trace header: not configuration, Lambda's runtime sets it for
 * each invocation (in its invoke store on runtimes that run invocations side by side, else in
 * _X_AMZN_TRACE_ID), so it is read on every call.
 */
export function invocationTraceHeader(): string | undefined {
  const store = (globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId?: () => string | undefined } } }).awslambda?.InvokeStore;
  return store?.getXRayTraceId?.() ?? process.env._X_AMZN_TRACE_ID;
}
