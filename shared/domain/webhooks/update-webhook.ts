import type { UpdateWebhookBody } from '../../schemas/webhooks';
import { WriteConflict } from '../../storage/transactions';
import { type WebhookChanges, updateWebhookFields } from '../../storage/webhooks';
import { existingWebhook, webhookNotFound } from './webhook-lookup';
import { webhookView } from './webhook-views';
import { WebhookDeps, checkUrl } from './webhook-changes';

/**
 * Changes the fields given. Disabling records `manual` as the reason; enabling clears the
 * reason and the failures counted toward disabling, whatever disabled it.
 */
export async function updateWebhook(deps: Omit<WebhookDeps, 'cipher'>, orgId: string, webhookId: string, body: UpdateWebhookBody) {
  if (body.url !== undefined) await checkUrl(deps, body.url);
  const current = await existingWebhook(deps.db, orgId, webhookId);
  const changes: WebhookChanges = { url: body.url, description: body.description, events: body.events };
  if (body.enabled === false && current.enabled) Object.assign(changes, { enabled: false, disabled_reason: 'manual' });
  if (body.enabled === true && !current.enabled) Object.assign(changes, { enabled: true, disabled_reason: null, clearFailing: true });
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as WebhookChanges;
  try {
    return webhookView(await updateWebhookFields(deps.db, orgId, webhookId, defined, deps.now().toISOString()));
  } catch (error) {
    if (error instanceof WriteConflict && error.failedAt('webhook')) throw webhookNotFound(webhookId); // deleted meanwhile
    throw error;
  }
}
