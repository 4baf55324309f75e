import { changeStamp } from './change-stamp';
import type { TableContext } from './dynamo';
import { type EmailDelivery, InviteRecord, deliveryAttributes, emailGuardItem, inviteItem, tokenItem, ttlOf } from './invite-items';
import { keys } from './keys';
import { commitWithMemberSearch, memberSearchChangeOf } from './member-search';
import type { Membership } from './membership-items';
import { MembershipExpectation, putMembershipPart } from './membership-writes';
import { activeMemberCountChange } from './organizations';
import { TABLE } from './table-definition';
import { type TransactItem, type TransactionPart, commitParts } from './transactions';
import { Identity, type NewUserPart, type User, newUserParts } from './users';

// ---------------------------------------------------------------------------------------
// Invite transitions: the domain plans each one, these commit it all-or-nothing. Each
// updates only the invite attributes it is about, so that transitions made by requests
// and the delivery state written by the invitation mail consumer never undo each other.
// A failed condition is a WriteConflict naming its part:
// - `invite`: the invite is no longer pending (for an acceptance: with the token it was
//   read with; for the invitation email: at the send, token and delivery it was read with),
//   or, for a new invite, its id exists;
// - `emailGuard`: the email's pending slot is held by another invite that has not expired
//   (send, resend), or no longer by this invite (revoke, accept);
// - `token`: the new token's lookup exists (a 256-bit collision: never in practice);
// - `user`, `userEmailGuard`: the new user's id or email was taken meanwhile;
// - `membership`: the membership is no longer as it was read;
// - `organization`: the organization is gone.
/** The parts of any invite transition, by what their condition guards. */
export type InvitePart = 'invite' | 'token' | 'previousToken' | 'emailGuard' | NewUserPart | 'membership' | 'organization';
/** Sending: a new invite (its email queued, no token yet) and its email's pending slot. */
export interface InviteSending {
  invite: InviteRecord;
  /** The instant at which the email's pending slot must be free: absent, or held by an invite expired by then. */
  slotFreeAt: string;
}

/** Revoking: the invite's next state, and the slot it gives back. */
export interface InviteRevocation {
  revoked: InviteRecord;
  /** Whether the invite held its email's slot when read (then the slot is freed, if still held by it). */
  releasesEmailGuard: boolean;
}

/**
 * Resending: a new send of the invite (new expiry, `resent_at`, its email queued anew). The
 * token last emailed stops working at once; the invitation mail consumer emails a new one.
 */
export interface InviteRenewal {
  renewed: InviteRecord;
  /** The token hash the invite was read with, whose lookup is removed. */
  previousTokenHash?: string;
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

/** Sends an invite: the invite and its email guard in one transaction (see InvitePart); its token comes with its email. */
export async function commitInviteSending(db: TableContext, { invite, slotFreeAt }: InviteSending): Promise<void> {
  const parts: TransactionPart<InvitePart>[] = [
    { name: 'invite', write: putNew(db, inviteItem(invite)) },
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

/** Revokes a pending invite: its status, and its email guard released (see InvitePart). */
export async function commitInviteRevocation(db: TableContext, { revoked, releasesEmailGuard }: InviteRevocation): Promise<void> {
  await commitParts(db, [
    updateInvite(db, revoked, { set: { status: revoked.status, revoked_at: revoked.revoked_at, updated_at: revoked.updated_at } }, PENDING),
    ...(releasesEmailGuard ? [releaseEmailGuard(db, revoked)] : []),
  ]);
}

/** Renews a pending invite: a new send, the old token lookup removed, the slot kept or taken back (see InvitePart). */
export async function commitInviteRenewal(db: TableContext, { renewed, previousTokenHash, slotFreeAt }: InviteRenewal): Promise<void> {
  const change = {
    set: {
      expires_at: renewed.expires_at,
      ...ttlOf(renewed.expires_at),
      updated_at: renewed.updated_at,
      resent_at: renewed.resent_at,
      ...deliveryAttributes(renewed.delivery),
    },
    remove: ['token_hash'],
  };
  await commitParts(db, [
    updateInvite(db, renewed, change, PENDING),
    ...(previousTokenHash
      ? [{ name: 'previousToken' as const, write: { Delete: { TableName: db.tableName, Key: keys.inviteToken(previousTokenHash) } } }]
      : []),
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
  // Accepted invites stay: the TTL goes.
  const change = {
    set: { status: accepted.status, accepted_at: accepted.accepted_at, accepted_by: accepted.accepted_by, updated_at: accepted.updated_at },
    remove: [TABLE.ttlAttribute],
  };
  await commitWithMemberSearch<InvitePart>(
    db,
    [
      updateInvite(db, accepted, change, {
        expression: `${PENDING.expression} AND token_hash = :hash`,
        values: { ...PENDING.values, ':hash': acceptance.readTokenHash },
      }),
      ...(acceptance.releasesEmailGuard ? [releaseEmailGuard(db, accepted)] : []),
      ...(acceptance.newUser ? newUserParts(db, acceptance.newUser.user, acceptance.newUser.identity) : []),
      { name: 'membership', write: putMembershipPart(db, membership, acceptance.membershipExpected) },
      ...(acceptance.joinsActiveMembers
        ? [{ name: 'organization' as const, write: activeMemberCountChange(db, membership.org_id, 1, membership.updated_at) }]
        : []),
    ],
    [memberSearchChangeOf(membership)],
  );
}

/**
 * Gives the invite a new token for the email about to be sent: the invite's token hash
 * replaced, the new lookup added and the previous one removed (a link emailed before stops
 * working). Only while the invite is as read: pending, at the same send (`resent_at`),
 * its email still queued and its token the one read (so that of two deliveries of the
 * same email racing, one goes on). See InvitePart.
 */
export async function commitInvitationToken(
  db: TableContext,
  { invite, tokenHash }: { invite: InviteRecord; tokenHash: string },
): Promise<void> {
  const condition = {
    expression: [
      PENDING.expression,
      'email_status = :queued',
      invite.resent_at === undefined ? 'attribute_not_exists(resent_at)' : 'resent_at = :resentAt',
      invite.token_hash === undefined ? 'attribute_not_exists(token_hash)' : 'token_hash = :readHash',
    ].join(' AND '),
    values: {
      ...PENDING.values,
      ':queued': 'queued',
      ...(invite.resent_at === undefined ? {} : { ':resentAt': invite.resent_at }),
      ...(invite.token_hash === undefined ? {} : { ':readHash': invite.token_hash }),
    },
  };
  await commitParts<InvitePart>(db, [
    updateInvite(db, invite, { set: { token_hash: tokenHash } }, condition),
    { name: 'token', write: putNew(db, tokenItem(invite, tokenHash)) },
    ...(invite.token_hash
      ? [{ name: 'previousToken' as const, write: { Delete: { TableName: db.tableName, Key: keys.inviteToken(invite.token_hash) } } }]
      : []),
  ]);
}

/**
 * Records how the email with this token went, only while the invite still has this token
 * (a resend, or another delivery of the same email, records its own). A WriteConflict at
 * `invite` when it no longer has.
 */
export async function commitEmailDelivery(
  db: TableContext,
  { invite, tokenHash, delivery }: { invite: InviteRecord; tokenHash: string; delivery: EmailDelivery },
): Promise<void> {
  await commitParts<InvitePart>(db, [
    updateInvite(db, invite, { set: deliveryAttributes(delivery) }, { expression: 'token_hash = :hash', values: { ':hash': tokenHash } }),
  ]);
}
export const putNew = (db: TableContext, Item: Record<string, unknown>): TransactItem => ({
  Put: { TableName: db.tableName, Item, ConditionExpression: 'attribute_not_exists(PK)' },
});
/** A condition on the invite's attributes (names as they are stored, values by placeholder). */
export interface InviteCondition {
  expression: string;
  values: Record<string, unknown>;
}

/** The invite is (still) pending. */
export const PENDING: InviteCondition = { expression: '#status = :pending', values: { ':pending': 'pending' } };
/**
 * Updates only the named attributes of an invite (and its change stamp), under a condition.
 * Attribute names are all aliased (`#a0`...), the condition may name `#status`; an
 * undefined value is left out.
 */
export function updateInvite(
  db: TableContext,
  invite: Pick<InviteRecord, 'org_id' | 'id'>,
  change: { set: Record<string, unknown>; remove?: string[] },
  condition: InviteCondition,
): TransactionPart<'invite'> {
  // DynamoDB refuses a name or value the expressions do not use.
  const names: Record<string, string> = condition.expression.includes('#status') ? { '#status': 'status' } : {};
  const values: Record<string, unknown> = { ...condition.values };
  let aliases = 0;
  const alias = (name: string) => {
    const placeholder = `#a${aliases++}`;
    names[placeholder] = name;
    return placeholder;
  };
  const set = Object.entries({ ...change.set, ...changeStamp() })
    .filter(([, value]) => value !== undefined)
    .map(([name, value], index) => {
      values[`:v${index}`] = value;
      return `${alias(name)} = :v${index}`;
    });
  const remove = (change.remove ?? []).map(alias);
  return {
    name: 'invite',
    write: {
      Update: {
        TableName: db.tableName,
        Key: keys.invite(invite.org_id, invite.id),
        UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
        ConditionExpression: condition.expression,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  };
}

/**
 * Frees the invite's email for a new invitation, only while this invite holds it. The
 * token lookup stays (until TTL), so the link reports revoked or accepted.
 */
export function releaseEmailGuard(db: TableContext, invite: InviteRecord): TransactionPart<'emailGuard'> {
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
