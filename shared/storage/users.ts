import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { itemFields } from './item-fields';
import { keys } from './keys';
import { commitWithMemberSearch } from './member-search';
import type { Membership } from './membership-items';
import { membershipDisplayNameChange } from './membership-writes';
import { displayNameSearchChange } from './membership-writes';
import { commitParts, type TransactionPart, type TransactItem } from './transactions';

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

/** An identity provider's (issuer, subject), which an ID token names its person by. */
export interface Identity {
  issuer: string;
  subject: string;
}

/** The user item. */
export function userItem(user: User) {
  return { ...keys.user(user.user_id), ...user };
}

/** The item that reserves an email for one user, and finds the user by email. */
export function userEmailGuardItem(email: string, userId: string) {
  return { ...keys.userEmail(email), user_id: userId };
}

/** The item that maps an identity provider's subject to a user. */
export function identityLinkItem(identity: Identity, userId: string, createdAt: string) {
  return {
    ...keys.identity(identity.issuer, identity.subject),
    ...keys.userIdentitiesIndex(userId, identity.issuer, identity.subject),
    user_id: userId,
    issuer: identity.issuer,
    subject: identity.subject,
    created_at: createdAt,
  };
}

/** Reads a stored user item (every attribute is written by every writer of users). */
export function userFromItem(item: Record<string, unknown>): User {
  const field = itemFields(item, 'user');
  return {
    user_id: field.string('user_id'),
    email: field.string('email'),
    display_name: field.string('display_name'),
    timezone: field.string('timezone'),
    created_at: field.string('created_at'),
    updated_at: field.string('updated_at'),
  };
}

/** The parts of a transaction that creates a user, by what their condition guards. */
export type NewUserPart = 'user' | 'userEmailGuard' | 'identityLink';

/**
 * Transaction parts that create a user: the user and its email guard, each only if absent
 * (an email belongs to one user), and optionally the link from the identity the user
 * signed in with. The link is written whole: a link left to a user that no longer exists
 * then points at the new one.
 */
export function newUserParts(db: TableContext, user: User, identity?: Identity): TransactionPart<NewUserPart>[] {
  const putNew = (Item: Record<string, unknown>): TransactItem => ({
    Put: { TableName: db.tableName, Item, ConditionExpression: 'attribute_not_exists(PK)' },
  });
  return [
    { name: 'user', write: putNew(userItem(user)) },
    { name: 'userEmailGuard', write: putNew(userEmailGuardItem(user.email, user.user_id)) },
    ...(identity
      ? [
          {
            name: 'identityLink' as const,
            write: { Put: { TableName: db.tableName, Item: identityLinkItem(identity, user.user_id, user.created_at) } },
          },
        ]
      : []),
  ];
}

/** One user, or undefined. */
export async function getUser(db: TableContext, userId: string): Promise<User | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.user(userId) }));
  return Item ? userFromItem(Item) : undefined;
}

/** The user id registered for an email, if any. */
export async function findUserIdByEmail(db: TableContext, email: string): Promise<string | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.userEmail(email.toLowerCase()) }));
  return Item ? itemFields(Item, 'user email guard').string('user_id') : undefined;
}

/**
 * Creates a user and claims its email in one transaction. Either taken: a WriteConflict
 * naming `user` (the id) or `userEmailGuard` (the email).
 */
export async function insertUser(db: TableContext, user: User): Promise<void> {
  await commitParts(db, newUserParts(db, user));
}

/** What a profile change of a user sets. */
export interface UserProfileChange {
  user_id: string;
  display_name: string;
  timezone: string;
  updated_at: string;
}

/**
 * Sets a user's display name and time zone, and in the same transaction the copy of the
 * display name each of its memberships keeps (members are listed and searched by it).
 * Only while the user exists (an update of a missing key would create a partial user): a
 * WriteConflict at `user` when it does not.
 *
 * @param memberships every membership of the user, as read
 */
export async function updateUserProfile(db: TableContext, change: UserProfileChange, memberships: Membership[]): Promise<void> {
  const searchChanges = memberships.flatMap((membership) => displayNameSearchChange(membership, change.display_name));
  await commitWithMemberSearch(
    db,
    [
      {
        name: 'user',
        write: {
          Update: {
            TableName: db.tableName,
            Key: keys.user(change.user_id),
            // TIMEZONE is a DynamoDB reserved word: it can only be named through a placeholder.
            UpdateExpression: 'SET display_name = :name, #timezone = :zone, updated_at = :now',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeNames: { '#timezone': 'timezone' },
            ExpressionAttributeValues: { ':name': change.display_name, ':zone': change.timezone, ':now': change.updated_at },
          },
        },
      },
      ...memberships.map((membership) => ({
        name: 'membershipCopy',
        write: membershipDisplayNameChange(db, membership, change.display_name),
      })),
    ],
    searchChanges,
  );
}

/** The user linked to an identity provider subject, if the link exists. */
export async function findUserIdByIdentity(db: TableContext, issuer: string, subject: string): Promise<string | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.identity(issuer, subject) }));
  return Item ? itemFields(Item, 'identity link').string('user_id') : undefined;
}

/** Records that (issuer, subject) is this user; an existing link is left as it is. */
export async function linkIdentity(db: TableContext, issuer: string, subject: string, userId: string, now: string): Promise<void> {
  try {
    await db.client.send(
      new PutCommand({
        TableName: db.tableName,
        Item: identityLinkItem({ issuer, subject }, userId, now),
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
}
