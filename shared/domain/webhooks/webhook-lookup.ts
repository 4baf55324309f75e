import { NotFoundError } from '../../core/errors';
import type { TableContext } from '../../storage/dynamo';
import type { WebhookRecord } from '../../storage/webhook-items';
import { getWebhook } from '../../storage/webhooks';

export function webhookNotFound(webhookId: string): NotFoundError {
  return new NotFoundError('WEBHOOK_NOT_FOUND', `Webhook endpoint ${webhookId} does not exist in this organization.`);
}

/** An endpoint of the organization, or 404 WEBHOOK_NOT_FOUND. */
export async function existingWebhook(db: TableContext, orgId: string, webhookId: string): Promise<WebhookRecord> {
  const webhook = await getWebhook(db, orgId, webhookId);
  if (!webhook) throw webhookNotFound(webhookId);
  return webhook;
}
