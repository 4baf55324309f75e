import {
  BatchGetCommand,
  BatchWriteCommand,
  QueryCommand,
  type BatchWriteCommandInput,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { sendUntilProcessed } from './write-retries';

/**
 * Every item a query matches, following LastEvaluatedKey across DynamoDB's 1 MB pages.
 * For collections known to be small, or where reading all is the point (a search).
 */
export async function queryAll(db: TableContext, input: QueryCommandInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/**
 * One page of a query's results, after skipping `offset` of them. The skip uses COUNT
 * queries: they return no items, but DynamoDB still reads (and bills) every skipped
 * entry, so callers keep `offset` small.
 */
export async function queryPage(
  db: TableContext,
  input: QueryCommandInput,
  { offset, limit }: { offset: number; limit: number },
): Promise<Record<string, unknown>[]> {
  let startKey: Record<string, unknown> | undefined;
  let toSkip = offset;
  while (toSkip > 0) {
    const skipped = await db.client.send(new QueryCommand({ ...input, Select: 'COUNT', Limit: toSkip, ExclusiveStartKey: startKey }));
    toSkip -= skipped.Count ?? 0;
    startKey = skipped.LastEvaluatedKey;
    if (!startKey) return [];
  }
  const items: Record<string, unknown>[] = [];
  while (items.length < limit) {
    const page = await db.client.send(new QueryCommand({ ...input, Limit: limit - items.length, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
    if (!startKey) break;
  }
  return items;
}

/** Every item of a set of keys: one BatchGetItem per 100 keys, sent together (retrying unprocessed keys). */
export async function batchGetAll(db: TableContext, keys: Record<string, string>[]): Promise<Record<string, unknown>[]> {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < keys.length; i += 100) chunks.push(keys.slice(i, i + 100));
  const results = await Promise.all(
    chunks.map(async (chunk) => {
      const items: Record<string, unknown>[] = [];
      await sendUntilProcessed(chunk, async (pending) => {
        const result = await db.client.send(new BatchGetCommand({ RequestItems: { [db.tableName]: { Keys: pending } } }));
        items.push(...(result.Responses?.[db.tableName] ?? []));
        return result.UnprocessedKeys?.[db.tableName]?.Keys ?? [];
      });
      return items;
    }),
  );
  return results.flat();
}

/** One put or delete of a BatchWriteItem. */
export type BatchWriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

/** Writes every request: one BatchWriteItem per 25, one after the other (retrying unprocessed items). Not conditional: for rebuilds of derived items only. */
export async function batchWriteAll(db: TableContext, requests: BatchWriteRequest[]): Promise<void> {
  for (let i = 0; i < requests.length; i += 25) {
    await sendUntilProcessed(requests.slice(i, i + 25), async (batch) => {
      const { UnprocessedItems } = await db.client.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: batch } }));
      return UnprocessedItems?.[db.tableName] ?? [];
    });
  }
}
