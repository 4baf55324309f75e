import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { keys } from './keys';
import { membershipFromItem, type Membership } from './membership-items';
import { batchGetAll, queryAll, queryPage } from './query-all';

/**
 * A user's membership of an organization, whatever its status, or undefined. `consistent`
 * reads the latest committed write (twice the read cost), for a decision that must not act
 * on a state already replaced, such as "this role is already the one asked for".
 */
export async function getMembership(
  db: TableContext,
  orgId: string,
  userId: string,
  { consistent = false } = {},
): Promise<Membership | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.membership(orgId, userId), ...(consistent ? { ConsistentRead: true } : {}) }),
  );
  return Item ? membershipFromItem(Item) : undefined;
}

/**
 * Active members of an org in email order (or reverse order with `descending`), skipping
 * `offset` of them (skipped entries are read and billed: see queryPage), from the first
 * (or with `from`, from that member's entry on).
 */
export async function listActiveMembers(
  db: TableContext,
  orgId: string,
  {
    offset,
    limit,
    descending = false,
    from,
  }: { offset: number; limit: number; descending?: boolean; from?: { email: string; user_id: string } },
): Promise<Membership[]> {
  // `from` starts the read at a member's own entry (found in the member search index), so nothing before it is read.
  const start = from && keys.activeMembersIndex(orgId, from.email, from.user_id).GSI1SK;
  const items = await queryPage(
    db,
    {
      TableName: db.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: start === undefined ? 'GSI1PK = :pk' : `GSI1PK = :pk AND GSI1SK ${descending ? '<=' : '>='} :start`,
      ExpressionAttributeValues: { ':pk': keys.activeMembersIndex(orgId).GSI1PK, ...(start === undefined ? {} : { ':start': start }) },
      ScanIndexForward: !descending,
    },
    { offset, limit },
  );
  return items.map(membershipFromItem);
}

/**
 * Every active member of an org whose email or display name contains `needle`
 * (case-insensitive), in email order. DynamoDB has no substring index, so this reads
 * every active member of the org (docs/data-model.md gives the cost).
 */
export async function searchActiveMembers(db: TableContext, orgId: string, needle: string): Promise<Membership[]> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    FilterExpression: 'contains(search_text, :needle)',
    ExpressionAttributeValues: { ':pk': keys.activeMembersIndex(orgId).GSI1PK, ':needle': needle.toLowerCase() },
  });
  return items.map(membershipFromItem);
}

/**
 * The memberships of these users in an org, in the order given: one BatchGetItem per 100
 * (sent together). A user without a membership there is left out.
 */
export async function getMemberships(db: TableContext, orgId: string, userIds: readonly string[]): Promise<Membership[]> {
  if (!userIds.length) return [];
  const items = await batchGetAll(
    db,
    userIds.map((userId) => keys.membership(orgId, userId)),
  );
  const byUser = new Map(items.map(membershipFromItem).map((membership) => [membership.user_id, membership]));
  return userIds.flatMap((userId) => byUser.get(userId) ?? []);
}

/** Every membership of a user, whatever its status (a user belongs to few organizations). */
export async function listMembershipsOfUser(db: TableContext, userId: string): Promise<Membership[]> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    IndexName: 'GSI2',
    KeyConditionExpression: 'GSI2PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.userOrganizationsIndex(userId).GSI2PK },
  });
  return items.map(membershipFromItem);
}

/**
 * The id of an active owner of the org other than `exceptUserId`, or undefined when there is
 * none. Reads the org's active members index (email order, filtered on the owner role) page
 * by page and stops at the first page holding one: the index entries read before it are
 * billed though filtered out, so the worst case (no other owner) reads every active member.
 * The index is eventually consistent: the caller confirms the answer with a condition.
 */
export async function findOtherActiveOwner(db: TableContext, orgId: string, exceptUserId: string): Promise<string | undefined> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      new QueryCommand({
        TableName: db.tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        FilterExpression: '#role = :owner AND user_id <> :except',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':pk': keys.activeMembersIndex(orgId).GSI1PK, ':owner': 'owner', ':except': exceptUserId },
        ProjectionExpression: 'user_id',
        ExclusiveStartKey: startKey,
      }),
    );
    const found: unknown = page.Items?.[0]?.user_id;
    if (typeof found === 'string') return found;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return undefined;
}

/** The organization's active members as the assignee matching needs them (name and email): one Query of the members index. */
export async function activeMembersForMatching(
  db: TableContext,
  orgId: string,
): Promise<{ user_id: string; display_name: string; email: string }[]> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.activeMembersIndex(orgId).GSI1PK },
  });
  return items.map(membershipFromItem).map(({ user_id, display_name, email }) => ({ user_id, display_name, email }));
}
