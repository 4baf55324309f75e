import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { MEMBER_STATUSES, ROLES, type MemberStatus, type Role } from '../auth/access';
import type { TableContext } from './dynamo';
import { changeStamp } from './change-stamp';
import { itemFields } from './item-fields';
import { keys } from './keys';
import { queryAll, queryPage } from './query-all';
import { activeMemberCountChange } from './organizations';
import { commitParts, type TransactionPart, type TransactItem } from './transactions';

/**
 * A user's membership of an organization. It carries copies of the user's email and
 * display name so that the members of an org can be listed in email order and
 * searched from one index, without a read per member.
 */
export interface Membership {
  org_id: string;
  user_id: string;
  email: string;
  display_name: string;
  role: Role;
  status: MemberStatus;
  member_since: string;
  created_at: string;
  updated_at: string;
  /** Maintained by recording writes, in the same transaction; never computed by reading recordings. */
  recording_count: number;
  latest_recording_at: string | null;
}

/** The table item of a membership: its keys, index keys (GSI1 only while active) and search text. */
export function membershipItem(membership: Membership) {
  return {
    ...keys.membership(membership.org_id, membership.user_id),
    ...keys.userOrganizationsIndex(membership.user_id, membership.org_id),
    ...(membership.status === 'active'
      ? keys.activeMembersIndex(membership.org_id, membership.email, membership.user_id)
      : {}),
    ...membership,
    search_text: searchText(membership.email, membership.display_name),
    ...changeStamp(),
  };
}

/** Reads a stored membership item (every writer writes every field; `latest_recording_at` is null until a recording). */
export function membershipFromItem(item: Record<string, unknown>): Membership {
  const field = itemFields(item, 'membership');
  return {
    org_id: field.string('org_id'),
    user_id: field.string('user_id'),
    email: field.string('email'),
    display_name: field.string('display_name'),
    role: field.oneOf('role', ROLES),
    status: field.oneOf('status', MEMBER_STATUSES),
    member_since: field.string('member_since'),
    created_at: field.string('created_at'),
    updated_at: field.string('updated_at'),
    recording_count: field.number('recording_count'),
    latest_recording_at: field.nullableString('latest_recording_at'),
  };
}

/** Lower-case text that `q` is matched against (DynamoDB's contains() is case-sensitive). */
function searchText(email: string, displayName: string): string {
  return `${email}\n${displayName}`.toLowerCase();
}

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
