import * as webhookStore from '../../storage/webhooks';
import { webhookView } from './webhook-views';
import { WebhookDeps } from './webhook-changes';

/** The organization's endpoints, oldest first. */
export async function listWebhooks(deps: Pick<WebhookDeps, 'db'>, orgId: string) {
  const webhooks = await webhookStore.listWebhooks(deps.db, orgId);
  return { webhooks: webhooks.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id)).map(webhookView) };
}
