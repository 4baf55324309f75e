import { table } from '../../storage/dynamo';
import type { ApiKeyDeps } from './api-keys';

/** The key routes' dependencies in a function: the configured table and the clock. */
export function apiKeyDeps(): ApiKeyDeps {
  return { db: table(), now: () => new Date() };
}
