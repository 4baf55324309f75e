import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { MemberStatus, Role } from '../auth/access';
import type { TableContext } from './dynamo';
import { changeStamp } from './change-stamp';
import { membershipFromItem, membershipItem, searchText, type Membership } from './membership-items';
import { keys } from './keys';
import { queryAll, queryPage } from './query-all';
import { activeMemberCountChange } from './organizations';
import { commitParts, type TransactionPart, type TransactItem } from './transactions';

export * from './membership-items';

/** Transaction part that refreshes a membership's copy of its user's display name. */
export function membershipDisplayNameChange(db: TableContext, membership: Membership, displayName: string) {
  return {
    Update: {
      TableName: db.tableName,
      Key: keys.membership(membership.org_id, membership.user_id),
      UpdateExpression: 'SET display_name = :name, search_text = :search, last_change = :change',
      ExpressionAttributeValues: { ':name': displayName, ':search': searchText(membership.email, displayName), ':change': changeStamp().last_change },
    },
  };
}

/** A user's membership of an organization, whatever its status, or undefined. */
export async function getMembership(db: TableContext, orgId: string, userId: string): Promise<Membership | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.membership(orgId, userId) }),
  );
  return Item ? membershipFromItem(Item) : undefined;
}

/** What a membership write expects to find: nothing, or the membership in the status (and role) it was read with. */
export type MembershipExpectation = 'absent' | { status: MemberStatus; role?: Role };

/**
 * Transaction part that writes a membership whole, only if the stored one is still as
 * expected: so two writers planning from the same read cannot both win.
 */
export function putMembershipPart(db: TableContext, next: Membership, expected: MembershipExpectation): TransactItem {
  const Item = membershipItem(next);
  if (expected === 'absent') return { Put: { TableName: db.tableName, Item, ConditionExpression: 'attribute_not_exists(PK)' } };
  // The role is checked only when the plan was made from it: an acceptance sets the invite's role whatever it was.
  const checksRole = expected.role !== undefined;
  return {
    Put: {
      TableName: db.tableName,
      Item,
      ConditionExpression: checksRole ? '#status = :status AND #role = :role' : '#status = :status',
      ExpressionAttributeNames: checksRole ? { '#status': 'status', '#role': 'role' } : { '#status': 'status' },
      ExpressionAttributeValues: checksRole ? { ':status': expected.status, ':role': expected.role } : { ':status': expected.status },
    },
  };
}

/** The parts of a membership transaction, by what their condition guards. */
export type MembershipPart = 'membership' | 'user' | 'organization';

/**
 * Creates a membership. In the same transaction: the user must exist, and the org's
 * active member count moves when the membership is active (which also checks the org
 * exists). A failed condition is a WriteConflict naming `membership` (it exists), `user`
 * or `organization` (either is missing).
 */
export async function insertMembership(db: TableContext, membership: Membership): Promise<void> {
  const parts: TransactionPart<MembershipPart>[] = [
    { name: 'membership', write: putMembershipPart(db, membership, 'absent') },
    { name: 'user', write: { ConditionCheck: { TableName: db.tableName, Key: keys.user(membership.user_id), ConditionExpression: 'attribute_exists(PK)' } } },
    {
      name: 'organization',
      write:
        membership.status === 'active'
          ? activeMemberCountChange(db, membership.org_id, 1, membership.created_at)
          : { ConditionCheck: { TableName: db.tableName, Key: keys.organization(membership.org_id), ConditionExpression: 'attribute_exists(PK)' } },
    },
  ];
  await commitParts(db, parts);
}

/**
 * Replaces a membership with `next`, provided it is still as `current` (same status and
 * role), and moves the org's active member count in the same transaction. A membership
 * that changed meanwhile is a WriteConflict naming `membership`.
 */
export async function replaceMembership(db: TableContext, current: Membership, next: Membership): Promise<void> {
  const delta = Number(next.status === 'active') - Number(current.status === 'active');
  const parts: TransactionPart<MembershipPart>[] = [
    { name: 'membership', write: putMembershipPart(db, next, { status: current.status, role: current.role }) },
    ...(delta !== 0 ? [{ name: 'organization' as const, write: activeMemberCountChange(db, next.org_id, delta, next.updated_at) }] : []),
  ];
  await commitParts(db, parts);
}

/**
 * Active members of an org in email order (or reverse order with `descending`), skipping
 * `offset` of them (skipped entries are read and billed: see queryPage).
 */
export async function listActiveMembers(
  db: TableContext,
  orgId: string,
  { offset, limit, descending = false }: { offset: number; limit: number; descending?: boolean },
): Promise<Membership[]> {
  const items = await queryPage(
    db,
    {
      TableName: db.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.activeMembersIndex(orgId).GSI1PK },
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
