import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ROLES, type Role } from '../auth/access';
import type { TableContext } from './dynamo';
import { changeStamp } from './change-stamp';
import { itemFields } from './item-fields';
import { keys } from './keys';
import { putMembershipPart, type Membership, type MembershipExpectation } from './memberships';
import { activeMemberCountChange } from './organizations';
import { queryAll } from './query-all';
import { TABLE } from './table-definition';
import { commitParts, type TransactionPart, type TransactItem } from './transactions';
import { newUserParts, type Identity, type NewUserPart, type User } from './users';

/** Stored invite states; `expired` is derived (pending past expires_at). */
export const STORED_INVITE_STATUSES = ['pending', 'accepted', 'revoked'] as const;
export type StoredInviteStatus = (typeof STORED_INVITE_STATUSES)[number];

export interface InviteRecord {
  id: string;
  org_id: string;
  email: string;
  role: Role;
  status: StoredInviteStatus;
  created_at: string;
  updated_at: string;
  expires_at: string;
  invited_by: string;
  token_hash: string;
  accepted_at?: string;
  accepted_by?: string;
  revoked_at?: string;
}

/** The one-pending-invite-per-email guard of an organization: which invite holds the email, until when. */
export interface InviteEmailGuard {
  invite_id: string;
  expires_at: string;
}

/** Epoch seconds for the TTL attribute: DynamoDB removes the item some time after. */
export const ttlOf = (isoTimestamp: string) => ({ [TABLE.ttlAttribute]: Math.floor(Date.parse(isoTimestamp) / 1000) });

/** The invite item; pending and revoked invites expire from the table, accepted ones stay. */
export function inviteItem(invite: InviteRecord) {
  return {
    ...keys.invite(invite.org_id, invite.id),
    ...keys.invitesIndex(invite.org_id, invite.created_at, invite.id),
    ...invite,
    ...(invite.status === 'accepted' ? {} : ttlOf(invite.expires_at)),
    ...changeStamp(),
  };
}

/** The lookup from the hash of an invite's current token to the invite; it expires with the invite. */
export function tokenItem(invite: InviteRecord) {
  return { ...keys.inviteToken(invite.token_hash), org_id: invite.org_id, invite_id: invite.id, ...ttlOf(invite.expires_at) };
}

/** The guard that holds the invite's email for it while it is pending (see InviteEmailGuard). */
export function emailGuardItem(invite: InviteRecord) {
  return { ...keys.inviteEmailGuard(invite.org_id, invite.email), invite_id: invite.id, expires_at: invite.expires_at, ...ttlOf(invite.expires_at) };
}

/** Reads a stored invite; acceptance and revocation fields exist only once they happened. */
export function inviteFromItem(item: Record<string, unknown>): InviteRecord {
  const field = itemFields(item, 'invite');
  return {
    id: field.string('id'),
    org_id: field.string('org_id'),
    email: field.string('email'),
    role: field.oneOf('role', ROLES),
    status: field.oneOf('status', STORED_INVITE_STATUSES),
    created_at: field.string('created_at'),
    updated_at: field.string('updated_at'),
    expires_at: field.string('expires_at'),
    invited_by: field.string('invited_by'),
    token_hash: field.string('token_hash'),
    accepted_at: field.optionalString('accepted_at'),
    accepted_by: field.optionalString('accepted_by'),
    revoked_at: field.optionalString('revoked_at'),
  };
}

function emailGuardFromItem(item: Record<string, unknown>): InviteEmailGuard {
  const field = itemFields(item, 'invite email guard');
  return { invite_id: field.string('invite_id'), expires_at: field.string('expires_at') };
}

/** One invite of an organization, or undefined. */
export async function getInvite(db: TableContext, orgId: string, inviteId: string): Promise<InviteRecord | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.invite(orgId, inviteId) }));
  return Item ? inviteFromItem(Item) : undefined;
}

/** The invite a token opens, if the token is current. */
export async function findInviteByTokenHash(db: TableContext, tokenHash: string): Promise<InviteRecord | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.inviteToken(tokenHash), ConsistentRead: true }));
  if (!Item) return undefined;
  const lookup = itemFields(Item, 'invite token');
  const invite = await getInvite(db, lookup.string('org_id'), lookup.string('invite_id'));
  // A token replaced by a resend opens nothing.
  return invite?.token_hash === tokenHash ? invite : undefined;
}

/** Which invite holds an email's pending slot in an organization, if any (an expired holder included). */
export async function getEmailGuard(db: TableContext, orgId: string, email: string): Promise<InviteEmailGuard | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.inviteEmailGuard(orgId, email) }));
  return Item ? emailGuardFromItem(Item) : undefined;
}

/** Every invite of an organization, newest first (an organization keeps few: see the data model). */
export async function listInvites(db: TableContext, orgId: string): Promise<InviteRecord[]> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.invitesIndex(orgId).GSI1PK },
    ScanIndexForward: false,
  });
  return items.map(inviteFromItem);
}

// ---------------------------------------------------------------------------------------
// Invite transitions: the domain plans each one, these commit it all-or-nothing. A failed
// condition is a WriteConflict naming its part:
// - `invite`: the invite is no longer pending with the token it was read with (or, for a
//   new invite, its id exists);
// - `emailGuard`: the email's pending slot is held by another invite that has not expired
//   (send, resend), or no longer by this invite (revoke, accept);
// - `token`: the new token's lookup exists (a 256-bit collision: never in practice);
// - `user`, `userEmailGuard`: the new user's id or email was taken meanwhile;
// - `membership`: the membership is no longer as it was read;
// - `organization`: the organization is gone.

/** The parts of any invite transition, by what their condition guards. */
export type InvitePart = 'invite' | 'token' | 'previousToken' | 'emailGuard' | NewUserPart | 'membership' | 'organization';

/** Sending: a new invite, the lookup of its token, and its email's pending slot. */
export interface InviteSending {
  invite: InviteRecord;
  /** The instant at which the email's pending slot must be free: absent, or held by an invite expired by then. */
  slotFreeAt: string;
}

/** Revoking: the invite's next state, and the slot it gives back. */
export interface InviteRevocation {
  revoked: InviteRecord;
  /** The token the invite was read with: the write applies only while it is still pending with it. */
  readTokenHash: string;
  /** Whether the invite held its email's slot when read (then the slot is freed, if still held by it). */
  releasesEmailGuard: boolean;
}

/** Resending: the invite with a new token and expiry, the new token's lookup replacing the old one. */
export interface InviteRenewal {
  renewed: InviteRecord;
  readTokenHash: string;
  /** The invite keeps its email's slot, or takes it back if free or expired at this instant. */
  slotFreeAt: string;
}

/** Accepting: the invite, the slot, the user (when new) and the membership, together. */
export interface InviteAcceptance {
  accepted: InviteRecord;
  readTokenHash: string;
  releasesEmailGuard: boolean;
  /** A person who is not a user yet: created with its email guard and the link from the identity that accepted. */
  newUser?: { user: User; identity: Identity };
  membership: Membership;
  /** The membership as read: absent, or in the status it had (an existing membership is reactivated). */
  membershipExpected: MembershipExpectation;
  /** True when the membership becomes active by this acceptance: the org's active member count moves. */
  joinsActiveMembers: boolean;
}

/** Sends an invite: invite, token lookup and email guard in one transaction (see InvitePart). */
export async function commitInviteSending(db: TableContext, { invite, slotFreeAt }: InviteSending): Promise<void> {
  const parts: TransactionPart<InvitePart>[] = [
    { name: 'invite', write: putNew(db, inviteItem(invite)) },
    { name: 'token', write: putNew(db, tokenItem(invite)) },
    {
      name: 'emailGuard',
      write: {
        Put: {
          TableName: db.tableName,
          Item: emailGuardItem(invite),
          ConditionExpression: 'attribute_not_exists(PK) OR expires_at <= :now',
          ExpressionAttributeValues: { ':now': slotFreeAt },
        },
      },
    },
  ];
  await commitParts(db, parts);
}

/** Revokes an invite: its next state, and its email guard released (see InvitePart). */
export async function commitInviteRevocation(db: TableContext, revocation: InviteRevocation): Promise<void> {
  await commitParts(db, [
    replacePendingInvite(db, revocation.revoked, revocation.readTokenHash),
    ...(revocation.releasesEmailGuard ? [releaseEmailGuard(db, revocation.revoked)] : []),
  ]);
}

/** Renews an invite: new state, old token lookup removed, new one added, slot kept or taken back (see InvitePart). */
export async function commitInviteRenewal(db: TableContext, { renewed, readTokenHash, slotFreeAt }: InviteRenewal): Promise<void> {
  await commitParts(db, [
    replacePendingInvite(db, renewed, readTokenHash),
    { name: 'previousToken', write: { Delete: { TableName: db.tableName, Key: keys.inviteToken(readTokenHash) } } },
    { name: 'token', write: putNew(db, tokenItem(renewed)) },
    {
      name: 'emailGuard',
      write: {
        Put: {
          TableName: db.tableName,
          Item: emailGuardItem(renewed),
          ConditionExpression: 'attribute_not_exists(PK) OR invite_id = :id OR expires_at <= :now',
          ExpressionAttributeValues: { ':id': renewed.id, ':now': slotFreeAt },
        },
      },
    },
  ]);
}

/**
 * Accepts an invite: the invite, its email guard released, the new user (with its email
 * guard and identity link), the membership created or reactivated and the org's active
 * member count, in one transaction (see InvitePart). The token lookup stays until its TTL,
 * so the link then reports the invite accepted.
 */
export async function commitInviteAcceptance(db: TableContext, acceptance: InviteAcceptance): Promise<void> {
  const { accepted, membership } = acceptance;
  await commitParts<InvitePart>(db, [
    replacePendingInvite(db, accepted, acceptance.readTokenHash),
    ...(acceptance.releasesEmailGuard ? [releaseEmailGuard(db, accepted)] : []),
    ...(acceptance.newUser ? newUserParts(db, acceptance.newUser.user, acceptance.newUser.identity) : []),
    { name: 'membership', write: putMembershipPart(db, membership, acceptance.membershipExpected) },
    ...(acceptance.joinsActiveMembers
      ? [{ name: 'organization' as const, write: activeMemberCountChange(db, membership.org_id, 1, membership.updated_at) }]
      : []),
  ]);
}

const putNew = (db: TableContext, Item: Record<string, unknown>): TransactItem => ({
  Put: { TableName: db.tableName, Item, ConditionExpression: 'attribute_not_exists(PK)' },
});

/**
 * Writes an invite's next state, only if it is still pending with the token it was read
 * with (so revoke, resend and accept cannot both win).
 */
function replacePendingInvite(db: TableContext, next: InviteRecord, readTokenHash: string): TransactionPart<'invite'> {
  return {
    name: 'invite',
    write: {
      Put: {
        TableName: db.tableName,
        Item: inviteItem(next),
        ConditionExpression: '#status = :pending AND token_hash = :hash',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pending': 'pending', ':hash': readTokenHash },
      },
    },
  };
}

/**
 * Frees the invite's email for a new invitation, only while this invite holds it. The
 * token lookup stays (until TTL), so the link reports revoked or accepted.
 */
function releaseEmailGuard(db: TableContext, invite: InviteRecord): TransactionPart<'emailGuard'> {
  return {
    name: 'emailGuard',
    write: {
      Delete: {
        TableName: db.tableName,
        Key: keys.inviteEmailGuard(invite.org_id, invite.email),
        ConditionExpression: 'invite_id = :id',
        ExpressionAttributeValues: { ':id': invite.id },
      },
    },
  };
}
