import { NotFoundError } from '../core/errors';
import type { TableContext } from '../storage/dynamo';
import { isConditionFailure } from '../storage/transactions';
import { readTranscriptionBudget, setTranscriptionAllowance } from '../storage/transcription-usage';

/* The operator's monthly allowance of transcription minutes (CLI: org set-limits --transcription-minutes; docs/transcription.md). */

/**
 * Gives an organization a monthly allowance of transcription minutes, or removes it (null: no
 * allowance, the default). Applies from the next transcription asked for or uploaded.
 */
export async function setTranscriptionAllowanceOf(
  db: TableContext,
  orgId: string,
  minutes: number | null,
  now: Date,
): Promise<number | null> {
  try {
    await setTranscriptionAllowance(db, orgId, minutes, now.toISOString());
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError('ORG_NOT_FOUND', `Organization ${orgId} does not exist.`);
    throw error;
  }
  return minutes;
}

/** An organization's monthly allowance of transcription minutes (null: none). */
export async function transcriptionAllowanceOf(db: TableContext, orgId: string, now: Date): Promise<number | null> {
  const budget = await readTranscriptionBudget(db, orgId, now.toISOString().slice(0, 7));
  if (!budget.organizationExists) throw new NotFoundError('ORG_NOT_FOUND', `Organization ${orgId} does not exist.`);
  return budget.allowance;
}
