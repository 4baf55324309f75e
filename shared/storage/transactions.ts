import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Commits writes all-or-nothing (at most 100 items). */
export async function transact(db: TableContext, items: TransactItem[]): Promise<void> {
  await db.client.send(new TransactWriteCommand({ TransactItems: items }));
}

/**
 * The per-item codes of a cancelled TransactWriteItems (in the order of its items, e.g.
 * 'None', 'ConditionalCheckFailed', 'TransactionConflict'), or undefined for any other error.
 */
export function cancellationCodes(error: unknown): (string | undefined)[] | undefined {
  if ((error as Error | undefined)?.name !== 'TransactionCanceledException') return undefined;
  return ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((reason) => reason.Code);
}

/** True when a write failed only because one of its conditions did not hold. */
export function isConditionFailure(error: unknown): boolean {
  return (
    (error as Error | undefined)?.name === 'ConditionalCheckFailedException' ||
    (cancellationCodes(error) ?? []).includes('ConditionalCheckFailed')
  );
}
