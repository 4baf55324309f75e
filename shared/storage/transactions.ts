import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One write of a transaction, named so that a cancellation can say whose condition failed. */
export interface TransactionPart<Name extends string = string> {
  name: Name;
  write: TransactItem;
}

/**
 * A transaction (or conditional write) that did not apply because the data moved under it:
 * `failed` names the parts whose condition no longer held (empty when another transaction
 * merely touched the same items at the same time).
 */
export class WriteConflict<Name extends string = string> extends Error {
  override readonly name = 'WriteConflict';
  constructor(
    readonly failed: readonly Name[],
    options?: { cause?: unknown },
  ) {
    super(failed.length ? `Write conditions failed: ${failed.join(', ')}` : 'Write conflicted with another transaction', options);
  }

  /** True when the named part's condition failed. */
  failedAt(name: Name): boolean {
    return this.failed.includes(name);
  }
}

/** Commits writes all-or-nothing (at most 100 items). */
export async function transact(db: TableContext, items: TransactItem[]): Promise<void> {
  await db.client.send(new TransactWriteCommand({ TransactItems: items }));
}

/**
 * Commits named parts all-or-nothing (at most 100). A cancellation caused by failed
 * conditions or a concurrent transaction becomes a WriteConflict naming the failed parts;
 * any other error is rethrown as it is.
 */
export async function commitParts<Name extends string>(db: TableContext, parts: readonly TransactionPart<Name>[]): Promise<void> {
  try {
    await transact(
      db,
      parts.map((part) => part.write),
    );
  } catch (error) {
    const codes = cancellationCodes(error);
    if (!codes) throw error;
    const failed = parts.filter((_, index) => codes[index] === 'ConditionalCheckFailed').map((part) => part.name);
    if (failed.length || codes.includes('TransactionConflict')) throw new WriteConflict<Name>(failed, { cause: error });
    throw error;
  }
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
    (error instanceof WriteConflict && error.failed.length > 0) ||
    (cancellationCodes(error) ?? []).includes('ConditionalCheckFailed')
  );
}

/**
 * Sends a conditional write and tells whether it applied: false when only its condition
 * failed (the state it guards against is there), any other error rethrown.
 */
export async function appliedUnlessConditionFails(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
