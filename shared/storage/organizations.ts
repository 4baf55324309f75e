import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { keys, withoutKeys } from './keys';

export interface Organization {
  org_id: string;
  name: string;
  /** Maintained in the same transaction as every membership change that moves it. */
  active_member_count: number;
  created_at: string;
  updated_at: string;
}

export async function getOrganization(db: TableContext, orgId: string): Promise<Organization | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.organization(orgId) }));
  return Item ? (withoutKeys(Item) as Organization) : undefined;
}

/** Creates an organization; fails with ConditionalCheckFailed if the id is taken. */
export async function insertOrganization(db: TableContext, org: Organization): Promise<void> {
  await db.client.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: db.tableName,
            Item: { ...keys.organization(org.org_id), ...org },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      ],
    }),
  );
}

export async function renameOrganization(db: TableContext, orgId: string, name: string, now: string): Promise<void> {
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.organization(orgId),
      UpdateExpression: 'SET #name = :name, updated_at = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#name': 'name' },
      ExpressionAttributeValues: { ':name': name, ':now': now },
    }),
  );
}

/** Transaction part that moves the org's active member count by `delta` (org must exist). */
export function activeMemberCountChange(db: TableContext, orgId: string, delta: number, now: string) {
  return {
    Update: {
      TableName: db.tableName,
      Key: keys.organization(orgId),
      UpdateExpression: 'ADD active_member_count :delta SET updated_at = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':delta': delta, ':now': now },
    },
  };
}
