import type { ApiKeyDeps } from '../domain/api-keys/api-key-views';
import { table } from '../storage/dynamo';

/**
 * The API keys area's composition root (the key routes, and the revocation of a removed member's keys): the
 * table and the clock, built on first use and kept.
 */

let keys: ApiKeyDeps | undefined;

export function apiKeyDeps(): ApiKeyDeps {
  return (keys ??= { db: table(), now: () => new Date() });
}
