import { WriteConflict } from '../../storage/transactions';
import { removeWebhook } from '../../storage/webhooks';
import { webhookNotFound } from './webhook-lookup';
import { WebhookDeps, countedWrite } from './webhook-changes';

/** Deletes an endpoint: no delivery is made to it any more, pending ones included. */
export async function deleteWebhook(deps: Pick<WebhookDeps, 'db' | 'now'>, orgId: string, webhookId: string): Promise<void> {
  await countedWrite(async () => {
    try {
      await removeWebhook(deps.db, orgId, webhookId, deps.now().toISOString());
    } catch (error) {
      if (error instanceof WriteConflict && error.failedAt('webhook')) throw webhookNotFound(webhookId);
      throw error;
    }
  });
}
