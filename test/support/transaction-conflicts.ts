import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from '../../shared/storage/dynamo';

/**
 * DynamoDB cancels a transaction that touches an item another transaction is writing at
 * that moment (`TransactionConflict`); DynamoDB Local runs transactions one after the
 * other and never does. These tables give the real SDK path, against the emulator, the
 * conflicts DynamoDB would raise: the same TransactionCanceledException, with its
 * cancellation reasons, as the SDK throws it.
 */

/** The exception DynamoDB answers a cancelled transaction of `count` items with, `TransactionConflict` at `conflictAt`. */
export function transactionConflict(count: number, conflictAt = 0): TransactionCanceledException {
  return new TransactionCanceledException({
    message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: Array.from({ length: count }, (_, index) =>
      index === conflictAt ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' } : { Code: 'None' },
    ),
  });
}

type Send = TableContext['client']['send'];

/** A table whose client hands each TransactWriteItems to `transaction` (numbered from 1), every other command to the table. */
function interceptedTable(
  db: TableContext,
  transaction: (command: TransactWriteCommand, number: number, send: () => Promise<unknown>) => Promise<unknown>,
) {
  let count = 0;
  const client = new Proxy(db.client, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return (async (command: Parameters<Send>[0]) => {
        if (!(command instanceof TransactWriteCommand)) return target.send(command);
        return transaction(command, ++count, () => target.send(command));
      }) as Send;
    },
  });
  return { table: { ...db, client }, transactions: () => count };
}

/** A table on which `interfere` runs another writer's change through the real table before each transaction (numbered from 1) goes out. */
export function tableWithInterference(db: TableContext, interfere: (transaction: number) => Promise<void>) {
  return interceptedTable(db, async (_command, number, send) => {
    await interfere(number);
    return send();
  });
}

/**
 * A table on which the transactions numbered in `conflicting` (from 1; every one when
 * `'always'`) are cancelled with TransactionConflict, writing nothing, as if another
 * writer's transaction held their first item; `transactions()` counts those sent.
 */
export function tableWithConflicts(db: TableContext, conflicting: readonly number[] | 'always') {
  return interceptedTable(db, async (command, number, send) => {
    if (conflicting === 'always' || conflicting.includes(number)) throw transactionConflict(command.input.TransactItems?.length ?? 1);
    return send();
  });
}

/** An item a transaction writes or checks, by table and key. */
function itemsOf(command: TransactWriteCommand): string[] {
  return (command.input.TransactItems ?? []).map((entry) => {
    const [write] = Object.values(entry) as { TableName?: string; Key?: Record<string, unknown>; Item?: Record<string, unknown> }[];
    const key = write?.Key ?? { PK: write?.Item?.PK, SK: write?.Item?.SK };
    return `${write?.TableName} ${String(key.PK)} ${String(key.SK)}`;
  });
}

/**
 * A table whose transactions conflict as in DynamoDB: one sent while another transaction
 * on one of its items is in flight is cancelled with TransactionConflict at that item.
 * The first `gather` transactions are held until all of them have been sent, so that they
 * overlap for certain: of those sharing an item, the first goes on, the others conflict.
 */
export function tableWithRacingTransactions(db: TableContext, gather: number) {
  const inFlight = new Set<string>();
  let release: () => void = () => undefined;
  const gathered = new Promise<void>((resolve) => (release = resolve));
  let conflicts = 0;
  const intercepted = interceptedTable(db, async (command, number, send) => {
    if (number <= gather) {
      if (number === gather) release();
      await gathered;
    }
    const items = itemsOf(command);
    const busy = items.findIndex((item) => inFlight.has(item));
    if (busy !== -1) {
      conflicts++;
      throw transactionConflict(items.length, busy);
    }
    items.forEach((item) => inFlight.add(item));
    try {
      return await send();
    } finally {
      items.forEach((item) => inFlight.delete(item));
    }
  });
  return { ...intercepted, conflicts: () => conflicts };
}
