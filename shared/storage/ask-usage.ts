import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { keys } from './keys';
import { TABLE } from './table-definition';
import { isConditionFailure } from './transactions';

/** An organization's own daily allowance of questions (`org set-limits --ask-daily`), or undefined: the default applies. */
export async function readAskAllowance(db: TableContext, orgId: string): Promise<number | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.organization(orgId), ProjectionExpression: 'ask_daily_allowance' }),
  );
  return typeof Item?.ask_daily_allowance === 'number' ? Item.ask_daily_allowance : undefined;
}

/** Sets or removes (null) an organization's daily allowance of questions; ConditionalCheckFailed when it does not exist. */
export async function setAskAllowance(db: TableContext, orgId: string, perDay: number | null, now: string): Promise<void> {
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.organization(orgId),
      UpdateExpression:
        perDay === null ? 'REMOVE ask_daily_allowance SET updated_at = :now' : 'SET ask_daily_allowance = :allowance, updated_at = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':now': now, ...(perDay === null ? {} : { ':allowance': perDay }) },
    }),
  );
}

/**
 * Counts one question against the day's allowance in one conditional write: false, and nothing
 * counted, when the day's questions already reach it. The counter goes by TTL two days later.
 */
export async function countQuestion(db: TableContext, orgId: string, day: string, allowance: number): Promise<boolean> {
  // No counter exists before the day's first question: an allowance of none refuses it without a write.
  if (allowance <= 0) return false;
  const expires = Math.floor(Date.parse(`${day}T00:00:00.000Z`) / 1000) + 3 * 86_400;
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.askUsage(orgId, day),
        UpdateExpression: 'ADD asked :one SET #ttl = :expires',
        ConditionExpression: 'attribute_not_exists(asked) OR asked < :allowance',
        ExpressionAttributeNames: { '#ttl': TABLE.ttlAttribute },
        ExpressionAttributeValues: { ':one': 1, ':allowance': allowance, ':expires': expires },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
