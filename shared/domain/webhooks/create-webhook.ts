import { ConflictError } from '../../core/errors';
import { newId } from '../../ids';
import { type CreateWebhookBody, WEBHOOK_LIMITS } from '../../schemas/webhooks';
import { WriteConflict } from '../../storage/transactions';
import type { WebhookRecord } from '../../storage/webhook-items';
import { insertWebhook } from '../../storage/webhooks';
import { newSigningSecret } from '../../webhooks/signature';
import { webhookView } from './webhook-views';
import { WebhookDeps, checkUrl, countedWrite } from './webhook-changes';

/**
 * Subscribes an endpoint: its signing secret is made here, stored encrypted, and returned
 * this once. 409 WEBHOOK_LIMIT_REACHED when the organization already has the maximum.
 */
export async function createWebhook(deps: WebhookDeps, orgId: string, body: CreateWebhookBody) {
  await checkUrl(deps, body.url);
  const now = deps.now().toISOString();
  const id = newId('wh');
  const secret = newSigningSecret();
  const webhook: WebhookRecord = {
    id,
    org_id: orgId,
    url: body.url,
    description: body.description,
    events: body.events,
    enabled: body.enabled,
    disabled_reason: body.enabled ? null : 'manual',
    created_at: now,
    updated_at: now,
    secrets: [{ ciphertext: await deps.cipher.encrypt(secret, { orgId, webhookId: id }), created_at: now }],
    failing_since: null,
  };
  await countedWrite(async () => {
    try {
      await insertWebhook(deps.db, webhook, WEBHOOK_LIMITS.endpointsPerOrganization);
    } catch (error) {
      if (error instanceof WriteConflict && error.failedAt('count')) {
        throw new ConflictError(
          'WEBHOOK_LIMIT_REACHED',
          `An organization can have at most ${WEBHOOK_LIMITS.endpointsPerOrganization} webhook endpoints; delete one first.`,
        );
      }
      throw error;
    }
  });
  return { ...webhookView(webhook), secret };
}
