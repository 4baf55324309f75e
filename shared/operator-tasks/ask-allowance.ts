import { NotFoundError } from '../core/errors';
import { readAskAllowance, setAskAllowance } from '../storage/ask-usage';
import type { TableContext } from '../storage/dynamo';
import { isConditionFailure } from '../storage/transactions';

/* The operator's daily allowance of questions (CLI: org set-limits --ask-daily; docs/search.md). */

/** Gives an organization its own daily allowance of questions, or puts it back on the default (null). */
export async function setAskAllowanceOf(db: TableContext, orgId: string, perDay: number | null, now: Date): Promise<void> {
  try {
    await setAskAllowance(db, orgId, perDay, now.toISOString());
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError('ORG_NOT_FOUND', `Organization ${orgId} does not exist.`);
    throw error;
  }
}

/** An organization's own daily allowance of questions; null: the deployment's default applies. */
export async function askAllowanceOf(db: TableContext, orgId: string): Promise<number | null> {
  return (await readAskAllowance(db, orgId)) ?? null;
}
