import * as v from 'valibot';
import { EVENT_TYPES, EventId, WEBHOOK_TEST_EVENT_TYPE } from './event-catalog';
import { integerParam } from './validation';
import { admitsAtMost, Id, Timestamp } from './common';

/**
 * Webhook endpoints and their deliveries: the one place their request rules, response
 * shapes and OpenAPI documentation come from (docs/webhooks.md tells the story).
 */
export const WEBHOOK_LIMITS = {
  /** Endpoints per organization (Stripe allows 16, Svix's free tier 50): enough for a few systems and environments. */
  endpointsPerOrganization: 10,
  url: 2048,
  description: 500,
} as const;

/** What `events` may hold: every public event type, or `*` for all of them (present and future). */
export const WEBHOOK_EVENT_FILTERS = ['*', ...EVENT_TYPES] as const;
export type WebhookEventFilter = (typeof WEBHOOK_EVENT_FILTERS)[number];

/** Why an endpoint is disabled: through the API (`manual`), or because every delivery failed for 3 days (`failing`). */
export const DISABLED_REASONS = ['manual', 'failing'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * Why the last attempt failed: what the sender saw (shared/webhooks/http-sender.ts), or
 * `endpoint_disabled` for a delivery whose endpoint was disabled before it could be sent.
 */
export const DELIVERY_ERRORS = [
  'timeout',
  'connection_refused',
  'tls_error',
  'non_2xx',
  'dns_failure',
  'address_not_allowed',
  'connection_error',
  'endpoint_disabled',
] as const;
export type DeliveryError = (typeof DELIVERY_ERRORS)[number];

/** The page size of a delivery list. */
export const DELIVERY_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;

const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** The syntax of an endpoint URL; whether its host may be called is the domain's check (shared/webhooks/endpoint-address.ts). */
const EndpointUrl = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'must not be empty'),
  v.maxLength(WEBHOOK_LIMITS.url, `must be at most ${WEBHOOK_LIMITS.url} characters`),
  v.check((value) => URL.canParse(value), 'must be an absolute URL such as https://example.com/webhooks'),
  v.description('The HTTPS URL deliveries are POSTed to. Its host must resolve to public addresses only.'),
);

const Description = v.pipe(
  v.string('must be a string'),
  v.maxLength(WEBHOOK_LIMITS.description, `must be at most ${WEBHOOK_LIMITS.description} characters`),
  v.check(
    (value) => !CONTROL_CHARACTERS.test(value),
    'must not contain control characters (tab, line feed and carriage return are allowed)',
  ),
);

const EventFilters = v.pipe(
  v.array(v.picklist(WEBHOOK_EVENT_FILTERS, 'must be an event type of docs/events.md, or *'), 'must be an array of event types'),
  v.minLength(1, 'must name at least one event type, or *'),
  // Already so without repeats: stated for the document's maxItems.
  v.maxLength(WEBHOOK_EVENT_FILTERS.length, `must name at most ${WEBHOOK_EVENT_FILTERS.length} event types`),
  v.check((events) => new Set(events).size === events.length, 'must not repeat an event type'),
  v.description('The event types the endpoint receives, or `["*"]` for every type, including types added later.'),
);

const DESCRIPTION_TEXT = `What the endpoint is for: at most ${WEBHOOK_LIMITS.description} characters, no control characters but tab, line feed and carriage return.`;

export const CreateWebhookBody = v.strictObject({
  url: EndpointUrl,
  description: v.pipe(v.optional(Description, ''), v.description(`${DESCRIPTION_TEXT} Default empty.`)),
  events: EventFilters,
  enabled: v.pipe(v.optional(v.boolean('must be true or false'), true), v.description('Whether deliveries are made to it (default true).')),
});
export type CreateWebhookBody = v.InferOutput<typeof CreateWebhookBody>;

/** PATCH: every field optional, at least one. `enabled: true` re-enables an endpoint that was disabled, for whatever reason. */
export const UpdateWebhookBody = v.pipe(
  v.strictObject({
    url: v.optional(EndpointUrl),
    description: v.pipe(v.optional(Description), v.description(DESCRIPTION_TEXT)),
    events: v.optional(EventFilters),
    enabled: v.pipe(
      v.optional(v.boolean('must be true or false')),
      v.description(
        'false disables the endpoint (`disabled_reason: manual`); true enables it again, whatever disabled it, and starts its failure count over.',
      ),
    ),
  }),
  v.check((body) => Object.keys(body).length > 0, 'give at least one of url, description, events, enabled'),
);
export type UpdateWebhookBody = v.InferOutput<typeof UpdateWebhookBody>;

export const ListWebhookDeliveriesQuery = v.strictObject({
  status: v.optional(
    v.pipe(
      v.picklist(DELIVERY_STATUSES, `must be one of ${DELIVERY_STATUSES.join(', ')}`),
      v.description('Only deliveries in this state.'),
    ),
  ),
  limit: integerParam({
    defaultValue: DELIVERY_PAGE.defaultLimit,
    min: 1,
    max: DELIVERY_PAGE.maxLimit,
    description: 'Deliveries per page.',
  }),
  cursor: v.optional(
    v.pipe(v.string(), v.minLength(1), v.maxLength(500), v.description("The previous page's `next_cursor`, with the same `status`.")),
  ),
});
export type ListWebhookDeliveriesQuery = v.InferOutput<typeof ListWebhookDeliveriesQuery>;

/** A webhook endpoint as the API shows it: never its secret. */
export const Webhook = v.strictObject({
  id: v.pipe(Id, v.description("The endpoint's id (`wh_…`).")),
  url: v.pipe(v.string(), v.description('The HTTPS URL deliveries are POSTed to.')),
  description: v.pipe(v.string(), v.description('What the endpoint is for (may be empty).')),
  events: v.pipe(
    v.array(v.picklist(WEBHOOK_EVENT_FILTERS)),
    v.description('The event types it receives; `["*"]`: every type, including types added later.'),
  ),
  enabled: v.pipe(v.boolean(), v.description('Whether deliveries are made to it.')),
  disabled_reason: v.pipe(
    v.nullable(v.picklist(DISABLED_REASONS)),
    v.description('Null while enabled; `manual` when disabled through the API, `failing` when every delivery failed for 3 days.'),
  ),
  created_at: v.pipe(Timestamp, v.description('When the endpoint was created (ISO 8601 UTC).')),
  updated_at: v.pipe(Timestamp, v.description('When it last changed (ISO 8601 UTC).')),
});
export type Webhook = v.InferOutput<typeof Webhook>;

const SigningSecret = v.pipe(
  v.string(),
  v.regex(/^whsec_[A-Za-z0-9+/]{43}=$/),
  v.description('The signing secret (Standard Webhooks): shown only here. Store it; verify each delivery with it.'),
);

/** The answer of create: the endpoint and, this once, its signing secret. */
export const CreatedWebhook = v.strictObject({ ...Webhook.entries, secret: SigningSecret });

/** The answer of rotate-secret: the new secret, and until when the previous one still signs beside it. */
export const RotatedWebhookSecret = v.strictObject({
  ...Webhook.entries,
  secret: SigningSecret,
  previous_secret_expires_at: v.pipe(Timestamp, v.description('Until then every delivery carries a signature by the previous secret too.')),
});

export const WebhookList = v.strictObject({
  webhooks: v.pipe(v.array(Webhook), v.description("The organization's endpoints (at most 10).")),
});

/** One delivery of one event to one endpoint, with the outcome of its last attempt. */
export const WebhookDelivery = v.strictObject({
  id: v.pipe(Id, v.description("The delivery's id (`dlv_…`).")),
  event_id: v.pipe(
    v.string(),
    v.description('The event delivered (`evt_…`): the `webhook-id` header of each attempt, the same across retries.'),
  ),
  event_type: v.pipe(v.picklist([...EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE]), v.description('Its type; `webhook.test` for a test event.')),
  status: v.pipe(
    v.picklist(DELIVERY_STATUSES),
    v.description(
      '`pending` while attempts remain, `succeeded` once the endpoint answered 2xx, `failed` after the last attempt (about 30 hours of retries).',
    ),
  ),
  attempts: v.pipe(v.number(), v.description('Attempts made so far.')),
  created_at: v.pipe(Timestamp, v.description('When the delivery was created (ISO 8601 UTC).')),
  last_attempt_at: v.pipe(v.nullable(Timestamp), v.description('When the last attempt was made; null before the first.')),
  next_attempt_at: v.pipe(v.nullable(Timestamp), v.description('When the next attempt is due, while pending; null otherwise.')),
  response_status: v.pipe(v.nullable(v.number()), v.description("The HTTP status of the last attempt's answer; null when none came.")),
  response_ms: v.pipe(
    v.nullable(v.number()),
    v.description("How long the last attempt's answer took, in milliseconds; null when none came."),
  ),
  error: v.pipe(
    v.nullable(v.picklist(DELIVERY_ERRORS)),
    v.description('Why the last attempt failed; null after a success or before the first attempt.'),
  ),
});
export type WebhookDelivery = v.InferOutput<typeof WebhookDelivery>;

export const WebhookDeliveryList = v.strictObject({
  deliveries: v.pipe(v.array(WebhookDelivery), v.description('This page of deliveries, newest first.')),
  pagination: v.pipe(
    v.strictObject({
      limit: v.pipe(v.number(), v.description('The page size asked for (or its default).')),
      next_cursor: v.pipe(v.nullable(v.string()), v.description('Pass it as `cursor` for the next page; null on the last page.')),
    }),
    v.description('How to read the next page.'),
  ),
});

/** Unix seconds: ten digits until the year 2286. */
const UNIX_SECONDS_DIGITS = 10;
/** One signature: `v1,` and the base64 of an HMAC-SHA256 digest (32 bytes: 43 characters and one `=`). */
const SIGNATURE = 'v1,[A-Za-z0-9+/]{43}=';
const SIGNATURE_LENGTH = 'v1,'.length + 44;
/** The endpoint's current secret signs, and the previous one too while a rotation overlaps. */
const SIGNATURES_MAX = 2;

/**
 * The Standard Webhooks headers of every delivery, as shared/webhooks/signature.ts writes them:
 * the parameters of the document's webhook, which test/unit/documented-bounds.test.ts holds the signer to.
 */
export const WebhookDeliveryHeaders = v.object({
  'webhook-id': v.pipe(EventId, v.description('The event id (`evt_…`): the same on every retry; deduplicate on it.')),
  'webhook-timestamp': v.pipe(
    v.string(),
    v.regex(new RegExp(`^\\d{1,${UNIX_SECONDS_DIGITS}}$`)),
    admitsAtMost(UNIX_SECONDS_DIGITS),
    v.description('When this attempt was sent, in Unix seconds: refuse one more than 5 minutes off.'),
  ),
  'webhook-signature': v.pipe(
    v.string(),
    v.regex(new RegExp(`^${SIGNATURE}( ${SIGNATURE}){0,${SIGNATURES_MAX - 1}}$`)),
    admitsAtMost(SIGNATURES_MAX * (SIGNATURE_LENGTH + 1) - 1),
    v.description(
      '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the secret; two space-separated entries while a rotated secret still signs.',
    ),
  ),
});
