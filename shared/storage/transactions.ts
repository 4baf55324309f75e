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
