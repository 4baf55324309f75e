import { randomBytes } from 'node:crypto';
import type { DomainEvent } from '../../schemas/event-catalog';
import { NotFoundError } from '../../core/errors';
import { keysetCursor } from '../../core/keyset-cursor';
import type { TableContext } from '../../storage/dynamo';
import { DELIVERY_ID, deliveryIdFor, type DeliveryRecord } from '../../storage/webhook-items';

/** How long delivery records are kept (DynamoDB TTL from their creation). */
export const DELIVERY_RETENTION_SECONDS = 30 * 86_400;

/** An event's envelope as endpoints receive it: a public event, or the test event. */
export type DeliverableEvent = Omit<DomainEvent, 'type' | 'resource'> & {
  type: DeliveryRecord['event_type'];
  resource: { type: string; id: string };
};

/** A new dispatch id: the cue for one more attempt. */
export function newDispatchId(): string {
  return randomBytes(8).toString('hex');
}

/**
 * The delivery of an event to an endpoint, not yet attempted. Its id comes from the event
 * (its time and id) and the endpoint, so the same pair always makes the same delivery.
 */
export function newDelivery(event: DeliverableEvent, webhookId: string, now: Date): DeliveryRecord {
  return {
    id: deliveryIdFor(new Date(event.occurred_at), webhookId, event.id),
    org_id: event.org_id,
    webhook_id: webhookId,
    event_id: event.id,
    event_type: event.type,
    payload: JSON.stringify(event),
    status: 'pending',
    attempts: 0,
    created_at: now.toISOString(),
    last_attempt_at: null,
    next_attempt_at: now.toISOString(),
    response_status: null,
    response_ms: null,
    error: null,
    dispatch_id: newDispatchId(),
  };
}

export interface DeliveryDeps {
  db: TableContext;
  now: () => Date;
}

export function deliveryNotFound(deliveryId: string): NotFoundError {
  return new NotFoundError('WEBHOOK_DELIVERY_NOT_FOUND', `Delivery ${deliveryId} does not exist for this webhook endpoint.`);
}

/** List deliveries' cursor: the last delivery id of the page, bound to the endpoint and the status filter. */
export const deliveryListCursor = keysetCursor<string, { orgId: string; webhookId: string; status?: string }>({
  bindsTo: ({ orgId, webhookId, status }) => ['deliveries', orgId, webhookId, status ?? null],
  write: (lastId) => ({ a: lastId }),
  read: ({ a }) => (typeof a === 'string' && DELIVERY_ID.test(a) ? a : undefined),
});
