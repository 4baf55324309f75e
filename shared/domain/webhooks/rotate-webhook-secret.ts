import { WriteConflict } from '../../storage/transactions';
import { updateWebhookFields } from '../../storage/webhooks';
import { newSigningSecret } from '../../webhooks/signature';
import { existingWebhook, webhookNotFound } from './webhook-lookup';
import { webhookView } from './webhook-views';
import { WebhookDeps, SECRET_OVERLAP_MS } from './webhook-changes';

/**
 * Replaces the signing secret and returns the new one, this once. The previous current
 * secret keeps signing beside it for 24 hours (both signatures in every delivery), so
 * receivers can switch without missing one; any older secret stops now.
 */
export async function rotateWebhookSecret(deps: WebhookDeps, orgId: string, webhookId: string) {
  const current = await existingWebhook(deps.db, orgId, webhookId);
  const now = deps.now();
  const previousExpiresAt = new Date(now.getTime() + SECRET_OVERLAP_MS).toISOString();
  const secret = newSigningSecret();
  const secrets = [
    { ciphertext: await deps.cipher.encrypt(secret, { orgId, webhookId }), created_at: now.toISOString() },
    { ciphertext: current.secrets[0].ciphertext, created_at: current.secrets[0].created_at, expires_at: previousExpiresAt },
  ];
  try {
    const updated = await updateWebhookFields(deps.db, orgId, webhookId, { secrets }, now.toISOString());
    return { ...webhookView(updated), secret, previous_secret_expires_at: previousExpiresAt };
  } catch (error) {
    if (error instanceof WriteConflict && error.failedAt('webhook')) throw webhookNotFound(webhookId);
    throw error;
  }
}
