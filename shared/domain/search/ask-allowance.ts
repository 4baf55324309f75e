import { RateLimitedError } from '../../core/errors';
import { countQuestion, readAskAllowance } from '../../storage/ask-usage';
import type { TableContext } from '../../storage/dynamo';

export interface AskAllowanceDeps {
  db: TableContext;
  now: () => Date;
  /** Questions a day for an organization without its own allowance (ASK_DAILY_DEFAULT). */
  defaultPerDay: number;
}

/**
 * Takes one question from the organization's allowance of the UTC day, or refuses with 429
 * QUOTA_EXCEEDED until midnight UTC, as the other quotas do.
 */
export async function takeQuestion(deps: AskAllowanceDeps, orgId: string): Promise<void> {
  const now = deps.now();
  const allowance = (await readAskAllowance(deps.db, orgId)) ?? deps.defaultPerDay;
  if (await countQuestion(deps.db, orgId, now.toISOString().slice(0, 10), allowance)) return;
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  throw new RateLimitedError(
    'QUOTA_EXCEEDED',
    `The organization has asked its ${allowance} questions of today (UTC); the allowance renews at midnight UTC.`,
    Math.max(1, Math.ceil((midnight - now.getTime()) / 1000)),
    allowance,
  );
}
