import type { Webhook, WebhookDelivery } from '../../schemas/webhooks';
import type { DeliveryRecord, WebhookRecord } from '../../storage/webhook-items';

/** The Webhook resource: never its secrets, nor the dispatcher's bookkeeping. */
export function webhookView(webhook: WebhookRecord): Webhook {
  return {
    id: webhook.id,
    url: webhook.url,
    description: webhook.description,
    events: [...webhook.events],
    enabled: webhook.enabled,
    disabled_reason: webhook.enabled ? null : webhook.disabled_reason,
    created_at: webhook.created_at,
    updated_at: webhook.updated_at,
  };
}

/** The Delivery resource: the outcome of its last attempt, never the payload or the endpoint's answer. */
export function deliveryView(delivery: DeliveryRecord): WebhookDelivery {
  return {
    id: delivery.id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    status: delivery.status,
    attempts: delivery.attempts,
    created_at: delivery.created_at,
    last_attempt_at: delivery.last_attempt_at,
    next_attempt_at: delivery.status === 'pending' ? delivery.next_attempt_at : null,
    response_status: delivery.response_status,
    response_ms: delivery.response_ms,
    error: delivery.error,
  };
}
