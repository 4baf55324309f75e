import { existingWebhook } from './webhook-lookup';
import { webhookView } from './webhook-views';
import { WebhookDeps } from './webhook-changes';

export async function getWebhook(deps: Pick<WebhookDeps, 'db'>, orgId: string, webhookId: string) {
  return webhookView(await existingWebhook(deps.db, orgId, webhookId));
}
