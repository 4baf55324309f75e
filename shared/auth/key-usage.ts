import { logger } from '../observability/logger';
import type { ApiKeySecretRecord } from '../storage/api-key-items';
import { recordApiKeyUse } from '../storage/api-keys';
import type { TableContext } from '../storage/dynamo';

/** How precise `last_used_at` is: a use is recorded at most once per key in this time. */
export const KEY_USE_INTERVAL_MS = 3_600_000;

/** Keys whose last recorded use a warm authorizer remembers, so it does not even try to write again within the hour. */
const REMEMBERED_KEYS = 10_000;

export type KeyUseRecorder = (secret: ApiKeySecretRecord, now: Date) => Promise<void>;

/**
 * Records that API keys are used, cheaply: a warm authorizer writes a key's `last_used_at` at
 * most once an hour (and the write's condition keeps it to once an hour across all of them).
 * A failed write is logged and forgotten: it must never refuse a valid key.
 */
export function keyUseRecorder(db: TableContext): KeyUseRecorder {
  const recordedAt = new Map<string, number>();
  return async (secret, now) => {
    const last = recordedAt.get(secret.key_id);
    if (last !== undefined && now.getTime() - last < KEY_USE_INTERVAL_MS) return;
    if (recordedAt.size >= REMEMBERED_KEYS) recordedAt.clear();
    recordedAt.set(secret.key_id, now.getTime());
    try {
      await recordApiKeyUse(
        db,
        secret.org_id,
        secret.key_id,
        now.toISOString(),
        new Date(now.getTime() - KEY_USE_INTERVAL_MS).toISOString(),
      );
    } catch (error) {
      logger.warn('could not record an API key use', { key_id: secret.key_id, error: (error as Error).name });
    }
  };
}
