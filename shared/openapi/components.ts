import type * as v from 'valibot';
import { PublicDomainEventSchema } from '../schemas/event-catalog';
import { ApiKey } from '../schemas/api-keys';
import { AuditEntry } from '../schemas/audit';
import { Webhook, WebhookDelivery } from '../schemas/webhooks';

/**
 * Schemas the document names in its components: every response that holds one refers to it
 * by `$ref`. `DomainEvent` is the envelope of the events the service publishes
 * (docs/events.md): no route answers with it, so it is the one component Redocly's
 * no-unused-components is told to accept (test/support/openapi-lint.mjs).
 */
export const SCHEMA_COMPONENTS: Record<string, v.GenericSchema> = {
  AuditEntry,
  DomainEvent: PublicDomainEventSchema,
  Webhook,
  WebhookDelivery,
  ApiKey,
};
