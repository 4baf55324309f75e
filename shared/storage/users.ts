import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { keys, withoutKeys } from './keys';

export interface User {
  user_id: string;
  /** Always lower-case; unique across users (guarded by an EMAIL# item). */
  email: string;
  display_name: string;
  /** IANA zone name. */
  timezone: string;
  created_at: string;
  updated_at: string;
}

export async function getUser(db: TableContext, userId: string): Promise<User | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.user(userId) }));
  return Item ? (withoutKeys(Item) as User) : undefined;
}

/** The user id registered for an email, if any. */
export async function findUserIdByEmail(db: TableContext, email: string): Promise<string | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.userEmail(email.toLowerCase()) }),
  );
  return Item?.user_id as string | undefined;
}

/** Creates a user and claims its email in one transaction; fails if either is taken. */
export async function insertUser(db: TableContext, user: User): Promise<void> {
  await db.client.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: db.tableName,
            Item: { ...keys.user(user.user_id), ...user },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Put: {
            TableName: db.tableName,
            Item: { ...keys.userEmail(user.email), user_id: user.user_id },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      ],
    }),
  );
}

/** The user linked to an identity provider subject, if the link exists. */
export async function findUserIdByIdentity(db: TableContext, issuer: string, subject: string): Promise<string | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.identity(issuer, subject) }),
  );
  return Item?.user_id as string | undefined;
}

/** Records that (issuer, subject) is this user; an existing link is left as it is. */
export async function linkIdentity(db: TableContext, issuer: string, subject: string, userId: string, now: string): Promise<void> {
  try {
    await db.client.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...keys.identity(issuer, subject), user_id: userId, issuer, subject, created_at: now },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
}
