import { randomBytes } from 'node:crypto';
import type { DomainEvent } from '../../schemas/event-catalog';
import { ConflictError, NotFoundError } from '../../core/errors';
import { keysetCursor } from '../../core/keyset-cursor';
import type { ListWebhookDeliveriesQuery } from '../../schemas/webhooks';
import type { TableContext } from '../../storage/dynamo';
import { WriteConflict } from '../../storage/transactions';
import { getDelivery, queryDeliveries, requestDeliveryRetry } from '../../storage/webhook-deliveries';
import { DELIVERY_ID, deliveryIdFor, type DeliveryRecord } from '../../storage/webhook-items';
import { deliveryView } from './webhook-views';
import { existingWebhook } from './webhook-lookup';

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

function deliveryNotFound(deliveryId: string): NotFoundError {
  return new NotFoundError('WEBHOOK_DELIVERY_NOT_FOUND', `Delivery ${deliveryId} does not exist for this webhook endpoint.`);
}

/** List deliveries' cursor: the last delivery id of the page, bound to the endpoint and the status filter. */
export const deliveryListCursor = keysetCursor<string, { orgId: string; webhookId: string; status?: string }>({
  bindsTo: ({ orgId, webhookId, status }) => ['deliveries', orgId, webhookId, status ?? null],
  write: (lastId) => ({ a: lastId }),
  read: ({ a }) => (typeof a === 'string' && DELIVERY_ID.test(a) ? a : undefined),
});

/** A page of an endpoint's deliveries, newest first, optionally in one status. */
export async function listDeliveries(deps: DeliveryDeps, orgId: string, webhookId: string, query: ListWebhookDeliveriesQuery) {
  await existingWebhook(deps.db, orgId, webhookId);
  const list = { orgId, webhookId, status: query.status };
  const after = query.cursor === undefined ? undefined : deliveryListCursor.decode(query.cursor, list);
  const page = await queryDeliveries(deps.db, { orgId, webhookId, status: query.status, limit: query.limit, after });
  return {
    deliveries: page.deliveries.map(deliveryView),
    pagination: { limit: query.limit, next_cursor: page.last ? deliveryListCursor.encode(page.last, list) : null },
  };
}

/**
 * Sends a delivery again now, whatever its status: a failed one (the endpoint is fixed), or
 * a succeeded one (the receiver lost it: a replay, with the same event id). It goes back to
 * pending and continues from its attempts so far: one more attempt, and the schedule's
 * remaining retries if that fails. 409 WEBHOOK_DISABLED when the endpoint is disabled,
 * 409 DELIVERY_IN_PROGRESS while an attempt is under way.
 */
export async function retryDelivery(deps: DeliveryDeps, orgId: string, webhookId: string, deliveryId: string) {
  const webhook = await existingWebhook(deps.db, orgId, webhookId);
  if (!DELIVERY_ID.test(deliveryId)) throw deliveryNotFound(deliveryId);
  const delivery = await getDelivery(deps.db, orgId, webhookId, deliveryId);
  if (!delivery) throw deliveryNotFound(deliveryId);
  if (!webhook.enabled) throw new ConflictError('WEBHOOK_DISABLED', `Webhook endpoint ${webhookId} is disabled; enable it first.`);
  try {
    return deliveryView(await requestDeliveryRetry(deps.db, delivery, newDispatchId(), deps.now().toISOString()));
  } catch (error) {
    if (error instanceof WriteConflict)
      throw new ConflictError('DELIVERY_IN_PROGRESS', `Delivery ${deliveryId} is being attempted right now; try again in a minute.`);
    throw error;
  }
}
