/**
 * The reference of test/bench/bundles.bench.ts: the least a function that reads DynamoDB can
 * be, one Query through the document client and a JSON answer. No middleware, validation,
 * logging, metrics or tracing: what a function of the stack adds to it is what the bench weighs.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));

/** Lists an organization's first page of items. */
export async function handler(event: { pathParameters?: { orgId?: string } }): Promise<{ statusCode: number; body: string }> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: process.env.TABLE_NAME,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `ORG#${event.pathParameters?.orgId ?? ''}` },
      Limit: 25,
    }),
  );
  return { statusCode: 200, body: JSON.stringify({ items: Items }) };
}
