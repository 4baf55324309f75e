import { randomBytes } from 'crypto';
import { ConflictError } from '../../core/errors';
import { WEBHOOK_TEST_EVENT_TYPE } from '../../schemas/event-catalog';
import { currentChangeContext } from '../../storage/change-stamp';
import { insertDeliveryOnce } from '../../storage/webhook-deliveries';
import { newDelivery, DELIVERY_RETENTION_SECONDS } from './deliveries';
import { existingWebhook } from './webhook-lookup';
import { deliveryView } from './webhook-views';
import { WebhookDeps } from './webhook-changes';

/**
 * Sends a `webhook.test` event to one endpoint, whatever it subscribes to: a delivery like
 * any other (signed, retried, listed), attempted as soon as the pipeline carries it.
 * 409 WEBHOOK_DISABLED for a disabled endpoint, which receives nothing.
 */
export async function testWebhook(deps: Pick<WebhookDeps, 'db' | 'now'>, orgId: string, webhookId: string) {
  const webhook = await existingWebhook(deps.db, orgId, webhookId);
  if (!webhook.enabled) throw new ConflictError('WEBHOOK_DISABLED', `Webhook endpoint ${webhookId} is disabled; enable it first.`);
  const now = deps.now();
  const context = currentChangeContext();
  const event = {
    id: `evt_${randomBytes(16).toString('hex')}`,
    type: WEBHOOK_TEST_EVENT_TYPE,
    occurred_at: now.toISOString(),
    org_id: orgId,
    actor: context?.actor ?? null,
    correlation_id: context?.correlationId ?? null,
    resource: { type: 'webhook', id: webhookId },
    data: {},
  } as const;
  const delivery = newDelivery(event, webhookId, now);
  await insertDeliveryOnce(deps.db, delivery, Math.floor(now.getTime() / 1000) + DELIVERY_RETENTION_SECONDS);
  return deliveryView(delivery);
}
