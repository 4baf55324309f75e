import { isPublicEvent, type DomainEvent } from '../../schemas/event-catalog';
import type { TableContext } from '../../storage/dynamo';
import { insertDeliveryOnce } from '../../storage/webhook-deliveries';
import type { WebhookRecord } from '../../storage/webhook-items';
import { listWebhooks } from '../../storage/webhooks';
import { DELIVERY_RETENTION_SECONDS, newDelivery } from './deliveries';

/** Whether an endpoint receives events of this type: enabled, and subscribed to the type or to `*`. */
export function receives(webhook: Pick<WebhookRecord, 'enabled' | 'events'>, type: string): boolean {
  return webhook.enabled && webhook.events.some((filter) => filter === '*' || filter === type);
}

/**
 * Makes one delivery of a public event per endpoint of its own organization that receives
 * it: one query of the organization's endpoints (at most 10), then one conditional put per
 * delivery. Each delivery's id is fixed by the event and the endpoint, so handling the same
 * event again (the queue redelivers it) makes nothing twice. Returns how many are new.
 */
export async function fanOutWebhookDeliveries(deps: { db: TableContext; now: () => Date }, event: DomainEvent): Promise<number> {
  if (!isPublicEvent(event)) return 0;
  const endpoints = (await listWebhooks(deps.db, event.org_id)).filter((webhook) => receives(webhook, event.type));
  const now = deps.now();
  const expires = Math.floor(now.getTime() / 1000) + DELIVERY_RETENTION_SECONDS;
  const created = await Promise.all(endpoints.map((webhook) => insertDeliveryOnce(deps.db, newDelivery(event, webhook.id, now), expires)));
  return created.filter(Boolean).length;
}
