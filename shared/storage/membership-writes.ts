import type { MemberStatus, Role } from '../core/access';
import { changeStamp } from './change-stamp';
import type { TableContext } from './dynamo';
import { keys } from './keys';
import { commitWithMemberSearch, type MemberSearchChange, memberSearchChangeOf } from './member-search';
import { Membership, membershipItem, searchText } from './membership-items';
import { activeMemberCountChange } from './organizations';
import type { TransactionPart, TransactItem } from './transactions';

/** The member search index change of a membership's new display name (none unless it is active). */
export function displayNameSearchChange(membership: Membership, displayName: string): MemberSearchChange[] {
  return membership.status === 'active' ? [memberSearchChangeOf({ ...membership, display_name: displayName })] : [];
}

/** Transaction part that refreshes a membership's copy of its user's display name. */
export function membershipDisplayNameChange(db: TableContext, membership: Membership, displayName: string) {
  return {
    Update: {
      TableName: db.tableName,
      Key: keys.membership(membership.org_id, membership.user_id),
      UpdateExpression: 'SET display_name = :name, search_text = :search, last_change = :change',
      ExpressionAttributeValues: {
        ':name': displayName,
        ':search': searchText(membership.email, displayName),
        ':change': changeStamp().last_change,
      },
    },
  };
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
    {
      name: 'user',
      write: {
        ConditionCheck: { TableName: db.tableName, Key: keys.user(membership.user_id), ConditionExpression: 'attribute_exists(PK)' },
      },
    },
    {
      name: 'organization',
      write:
        membership.status === 'active'
          ? activeMemberCountChange(db, membership.org_id, 1, membership.created_at)
          : {
              ConditionCheck: {
                TableName: db.tableName,
                Key: keys.organization(membership.org_id),
                ConditionExpression: 'attribute_exists(PK)',
              },
            },
    },
  ];
  await commitWithMemberSearch(db, parts, [memberSearchChangeOf(membership)]);
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
  await commitWithMemberSearch(db, parts, [memberSearchChangeOf(next)]);
}

/** What another member (or an org key) changes in an active membership: its role, or its removal. */
export type MemberChange = { kind: 'role'; role: Role } | { kind: 'removal' };
/** The parts of a member change, by what their condition guards. */
export type MemberChangePart = 'membership' | 'remainingOwner' | 'organization';
/**
 * Changes an active membership's role, or removes it (status `removed`, out of the active
 * members index, the org's active member count - 1), provided it is still active with the
 * role it was read with. An update, not a put: the recording counters and the display name
 * copy that other writers keep on the item are left as they are.
 *
 * `remainingOwnerId` names an active owner other than this member who must still be one
 * when the change commits: the last-owner guard. Transactions are serializable, so two
 * owners demoting (or removing) each other cannot both commit.
 *
 * A failed condition is a WriteConflict naming `membership` (it changed) or
 * `remainingOwner` (that owner no longer is one).
 */
export async function commitMemberChange(
  db: TableContext,
  current: Membership,
  change: MemberChange,
  { now, remainingOwnerId }: { now: string; remainingOwnerId?: string },
): Promise<void> {
  const key = keys.membership(current.org_id, current.user_id);
  const guard = {
    ConditionExpression: '#status = :active AND #role = :readRole',
    ExpressionAttributeNames: { '#status': 'status', '#role': 'role' },
  };
  const stamp = { ':now': now, ':change': changeStamp().last_change, ':active': 'active', ':readRole': current.role };
  const membership: TransactItem =
    change.kind === 'role'
      ? {
          Update: {
            TableName: db.tableName,
            Key: key,
            UpdateExpression: 'SET #role = :role, updated_at = :now, last_change = :change',
            ...guard,
            ExpressionAttributeValues: { ...stamp, ':role': change.role },
          },
        }
      : {
          Update: {
            TableName: db.tableName,
            Key: key,
            // Leaving GSI1 is what takes the member out of List users.
            UpdateExpression: 'SET #status = :removed, updated_at = :now, last_change = :change REMOVE GSI1PK, GSI1SK',
            ...guard,
            ExpressionAttributeValues: { ...stamp, ':removed': 'removed' },
          },
        };
  const parts: TransactionPart<MemberChangePart>[] = [
    { name: 'membership', write: membership },
    ...(remainingOwnerId
      ? [
          {
            name: 'remainingOwner' as const,
            write: {
              ConditionCheck: {
                TableName: db.tableName,
                Key: keys.membership(current.org_id, remainingOwnerId),
                ConditionExpression: '#status = :active AND #role = :owner',
                ExpressionAttributeNames: { '#status': 'status', '#role': 'role' },
                ExpressionAttributeValues: { ':active': 'active', ':owner': 'owner' },
              },
            },
          },
        ]
      : []),
    ...(change.kind === 'removal' ? [{ name: 'organization' as const, write: activeMemberCountChange(db, current.org_id, -1, now) }] : []),
  ];
  // A role is not in the search index; a removal takes the member out of it.
  await commitWithMemberSearch(db, parts, change.kind === 'removal' ? [memberSearchChangeOf({ ...current, status: 'removed' })] : []);
}
