import * as v from 'valibot';
import { EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE } from '../events/event-catalog';
import { integerParam } from '../http/validation';
import { Id, Timestamp } from './common';

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
export const DELIVERY_ERRORS = ['timeout', 'connection_refused', 'tls_error', 'non_2xx', 'dns_failure', 'address_not_allowed', 'connection_error', 'endpoint_disabled'] as const;
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
  v.check((value) => !CONTROL_CHARACTERS.test(value), 'must not contain control characters (tab, line feed and carriage return are allowed)'),
);

const EventFilters = v.pipe(
  v.array(v.picklist(WEBHOOK_EVENT_FILTERS, 'must be an event type of docs/events.md, or *'), 'must be an array of event types'),
  v.minLength(1, 'must name at least one event type, or *'),
  v.check((events) => new Set(events).size === events.length, 'must not repeat an event type'),
  v.description('The event types the endpoint receives, or `["*"]` for every type, including types added later.'),
);

export const CreateWebhookBody = v.strictObject({
  url: EndpointUrl,
  description: v.optional(Description, ''),
  events: EventFilters,
  enabled: v.optional(v.boolean('must be true or false'), true),
});
export type CreateWebhookBody = v.InferOutput<typeof CreateWebhookBody>;

/** PATCH: every field optional, at least one. `enabled: true` re-enables an endpoint that was disabled, for whatever reason. */
export const UpdateWebhookBody = v.pipe(
  v.strictObject({
    url: v.optional(EndpointUrl),
    description: v.optional(Description),
    events: v.optional(EventFilters),
    enabled: v.optional(v.boolean('must be true or false')),
  }),
  v.check((body) => Object.keys(body).length > 0, 'give at least one of url, description, events, enabled'),
);
export type UpdateWebhookBody = v.InferOutput<typeof UpdateWebhookBody>;

export const ListWebhookDeliveriesQuery = v.strictObject({
  status: v.optional(v.pipe(v.picklist(DELIVERY_STATUSES, `must be one of ${DELIVERY_STATUSES.join(', ')}`), v.description('Only deliveries in this state.'))),
  limit: integerParam({ defaultValue: DELIVERY_PAGE.defaultLimit, min: 1, max: DELIVERY_PAGE.maxLimit }),
  cursor: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(500), v.description("The previous page's `next_cursor`, with the same `status`."))),
});
export type ListWebhookDeliveriesQuery = v.InferOutput<typeof ListWebhookDeliveriesQuery>;

/** A webhook endpoint as the API shows it: never its secret. */
export const Webhook = v.strictObject({
  id: Id,
  url: v.string(),
  description: v.string(),
  events: v.array(v.picklist(WEBHOOK_EVENT_FILTERS)),
  enabled: v.boolean(),
  disabled_reason: v.pipe(v.nullable(v.picklist(DISABLED_REASONS)), v.description('Null while enabled; `manual` when disabled through the API, `failing` when every delivery failed for 3 days.')),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Webhook = v.InferOutput<typeof Webhook>;

const SigningSecret = v.pipe(v.string(), v.regex(/^whsec_[A-Za-z0-9+/]{43}=$/), v.description('The signing secret (Standard Webhooks): shown only here. Store it; verify each delivery with it.'));

/** The answer of create: the endpoint and, this once, its signing secret. */
export const CreatedWebhook = v.strictObject({ ...Webhook.entries, secret: SigningSecret });

/** The answer of rotate-secret: the new secret, and until when the previous one still signs beside it. */
export const RotatedWebhookSecret = v.strictObject({
  ...Webhook.entries,
  secret: SigningSecret,
  previous_secret_expires_at: v.pipe(Timestamp, v.description('Until then every delivery carries a signature by the previous secret too.')),
});

export const WebhookList = v.strictObject({ webhooks: v.array(Webhook) });

/** One delivery of one event to one endpoint, with the outcome of its last attempt. */
export const WebhookDelivery = v.strictObject({
  id: Id,
  event_id: v.string(),
  event_type: v.picklist([...EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE]),
  status: v.picklist(DELIVERY_STATUSES),
  attempts: v.number(),
  created_at: Timestamp,
  last_attempt_at: v.nullable(Timestamp),
  next_attempt_at: v.pipe(v.nullable(Timestamp), v.description('When the next attempt is due, while pending; null otherwise.')),
  response_status: v.pipe(v.nullable(v.number()), v.description("The HTTP status of the last attempt's answer; null when none came.")),
  response_ms: v.nullable(v.number()),
  error: v.pipe(v.nullable(v.picklist(DELIVERY_ERRORS)), v.description('Why the last attempt failed; null after a success or before the first attempt.')),
});
export type WebhookDelivery = v.InferOutput<typeof WebhookDelivery>;

export const WebhookDeliveryList = v.strictObject({
  deliveries: v.array(WebhookDelivery),
  pagination: v.strictObject({ limit: v.number(), next_cursor: v.nullable(v.string()) }),
});
