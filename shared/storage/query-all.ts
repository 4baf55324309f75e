import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';

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
