import { performance } from 'node:perf_hooks';
import type { TableContext } from '../../shared/storage/dynamo';

/**
 * What each DynamoDB request of a client did (command, input, items read, capacity, attempts):
 * the tests that bound a read's cost (test/domain/*-page-numbers, member-search...) and the
 * benchmarks (test/bench) count with it.
 */

/** One DynamoDB request, as the instrumentation middleware saw it. */
export interface ObservedRequest {
  /** The API name: Query, GetItem, BatchGetItem, TransactWriteItems... */
  command: string;
  /** The command's input as sent (ReturnConsumedCapacity: 'TOTAL' added). */
  input: Record<string, unknown>;
  /** performance.now() when the request was sent and when its answer came (retries included). */
  start: number;
  end: number;
  /** HTTP attempts. */
  attempts: number;
  /** ScannedCount of a Query (COUNT queries included), the items a BatchGetItem returned, 1 per GetItem that found its item. */
  itemsRead: number;
  /** The consumed capacity, summed over its entries; undefined when DynamoDB (Local) reports none. */
  capacityUnits: number | undefined;
}

/**
 * Adds a middleware (named `middlewareName`) to the client that asks each request for its
 * consumed capacity and hands `observe` what the request did.
 */
export function observeRequests(db: TableContext, middlewareName: string, observe: (request: ObservedRequest) => void): void {
  db.client.middlewareStack.add(
    (next, context) => async (args) => {
      const input: Record<string, unknown> = { ...(args.input as Record<string, unknown>), ReturnConsumedCapacity: 'TOTAL' };
      const start = performance.now();
      const result = await next({ ...args, input: input });
      const end = performance.now();
      const output = result.output as {
        $metadata?: { attempts?: number };
        ScannedCount?: number;
        Item?: unknown;
        Responses?: Record<string, unknown[]>;
        ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[];
      };
      const capacities = [output.ConsumedCapacity ?? []]
        .flat()
        .map((entry) => entry.CapacityUnits)
        .filter((units): units is number => units !== undefined);
      observe({
        command: (context.commandName ?? 'Unknown').replace(/Command$/, ''),
        input,
        start,
        end,
        attempts: output.$metadata?.attempts ?? 1,
        itemsRead:
          output.ScannedCount ??
          (output.Responses ? Object.values(output.Responses).reduce((sum, items) => sum + items.length, 0) : output.Item ? 1 : 0),
        capacityUnits: capacities.length ? capacities.reduce((sum, units) => sum + units, 0) : undefined,
      });
      return result;
    },
    { step: 'initialize', name: middlewareName },
  );
}

/**
 * Tallies the client's requests with `add` into a tally `emptyTally` starts. Returns a
 * function that hands over the tally so far and starts a new one.
 */
export function tallyRequests<T>(
  db: TableContext,
  middlewareName: string,
  emptyTally: () => T,
  add: (tally: T, request: ObservedRequest) => void,
): () => T {
  let tally = emptyTally();
  observeRequests(db, middlewareName, (request) => add(tally, request));
  return () => {
    const taken = tally;
    tally = emptyTally();
    return taken;
  };
}
