import type { ListWebhookDeliveriesQuery } from '../../schemas/webhooks';
import { queryDeliveries } from '../../storage/webhook-deliveries';
import { DeliveryDeps, deliveryListCursor } from './deliveries';
import { existingWebhook } from './webhook-lookup';
import { deliveryView } from './webhook-views';

/** A page of an endpoint's deliveries, newest first, optionally in one status. */
export async function listWebhookDeliveries(deps: DeliveryDeps, orgId: string, webhookId: string, query: ListWebhookDeliveriesQuery) {
  await existingWebhook(deps.db, orgId, webhookId);
  const list = { orgId, webhookId, status: query.status };
  const after = query.cursor === undefined ? undefined : deliveryListCursor.decode(query.cursor, list);
  const page = await queryDeliveries(deps.db, { orgId, webhookId, status: query.status, limit: query.limit, after });
  return {
    deliveries: page.deliveries.map(deliveryView),
    pagination: { limit: query.limit, next_cursor: page.last ? deliveryListCursor.encode(page.last, list) : null },
  };
}
