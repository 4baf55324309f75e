import { DeleteCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from '../../shared/storage/dynamo';
import { isConditionFailure } from '../../shared/storage/transactions';
import { TABLE } from '../../shared/storage/table-definition';

/**
 * DynamoDB Local keeps items past their TTL; in AWS a background process removes them (within
 * days) and the stream shows the removal with DynamoDB's service identity. This does the same
 * locally: each item whose TTL is at or before `now` is marked (TABLE.ttlEmulatorMark, which
 * the stream reader takes for that identity) and removed, both conditioned on its TTL as
 * read, so an item rewritten meanwhile stays. `orgId` limits it to one organization's
 * partition (tests use it with a clock of their own, so other tests' items stay).
 *
 * It scans the table: it emulates DynamoDB's own sweep and never serves a request.
 */
export async function expireItems(db: TableContext, options: { now: Date; orgId?: string }): Promise<number> {
  const epoch = Math.floor(options.now.getTime() / 1000);
  const names = { '#ttl': TABLE.ttlAttribute };
  let removed = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      options.orgId
        ? new QueryCommand({
            TableName: db.tableName,
            KeyConditionExpression: 'PK = :pk',
            FilterExpression: '#ttl <= :now',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: { ':pk': `ORG#${options.orgId}`, ':now': epoch },
            ExclusiveStartKey: startKey,
          })
        : new ScanCommand({
            TableName: db.tableName,
            FilterExpression: '#ttl <= :now',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: { ':now': epoch },
            ExclusiveStartKey: startKey,
          }),
    );
    for (const item of page.Items ?? []) {
      if (await expireItem(db, { PK: String(item.PK), SK: String(item.SK) }, item[TABLE.ttlAttribute])) removed++;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return removed;
}

async function expireItem(db: TableContext, key: { PK: string; SK: string }, expiresAt: unknown): Promise<boolean> {
  const names = { '#ttl': TABLE.ttlAttribute, '#mark': TABLE.ttlEmulatorMark };
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: key,
        UpdateExpression: 'SET #mark = :true',
        ConditionExpression: '#ttl = :read',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':true': true, ':read': expiresAt },
      }),
    );
    await db.client.send(
      new DeleteCommand({
        TableName: db.tableName,
        Key: key,
        ConditionExpression: '#mark = :true',
        ExpressionAttributeNames: { '#mark': TABLE.ttlEmulatorMark },
        ExpressionAttributeValues: { ':true': true },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
