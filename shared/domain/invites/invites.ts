import { createHash } from 'node:crypto';
import { roleAtLeast, type Role } from '../../core/access';
import type { Caller } from '../../auth/policy';
import type { IdTokenPrincipal } from '../../auth/principal';
import { ApiError, ConflictError, ForbiddenError, NotFoundError } from '../../core/errors';
import { pagePagination } from '../../core/page-pagination';
import { newId } from '../../ids';
import { DEFAULT_TIMEZONE } from '../../schemas/common';
import type { TableContext } from '../../storage/dynamo';
import { QUEUED_DELIVERY, type InviteRecord } from '../../storage/invite-items';
import {
  commitInviteAcceptance,
  commitInviteRenewal,
  commitInviteRevocation,
  commitInviteSending,
  findInviteByTokenHash,
  getEmailGuard,
  getInvite,
  listInvites,
} from '../../storage/invites';
import type { Membership } from '../../storage/membership-items';
import { getMembership } from '../../storage/memberships';
import { currentChangeContext, withChangeContext } from '../../storage/change-stamp';
import { WriteConflict } from '../../storage/transactions';
import { findUserIdByEmail, getUser, type User } from '../../storage/users';
import { retryOnWriteConflict } from '../../storage/write-retries';

/**
 * What the invite functions need. No mailer: sending and resending only commit, and the
 * invitation mail consumer (invitation-mail.ts) sends the email from the event.
 */
export interface InviteDeps {
  db: TableContext;
  now: () => Date;
  settings: { ttlSeconds: number };
}

export type InviteStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

/** A stored status, with pending invites past expires_at reported as expired. */
export function statusOf(invite: InviteRecord, now: Date): InviteStatus {
  return invite.status === 'pending' && Date.parse(invite.expires_at) <= now.getTime() ? 'expired' : invite.status;
}

/**
 * The Invite resource of the spec, with the delivery of its invitation email (of the
 * current send: a resend starts it over).
 */
export function inviteView(invite: InviteRecord, now: Date) {
  return {
    id: invite.id,
    email: invite.email,
    role: invite.role,
    status: statusOf(invite, now),
    created_at: invite.created_at,
    expires_at: invite.expires_at,
    email_status: invite.delivery.status,
    email_sent_at: invite.delivery.sent_at,
    email_attempts: invite.delivery.attempts,
    email_last_error: invite.delivery.last_error,
  };
}

/** The SHA-256 (hex) of an invitation token: what the token lookup is keyed by. */
export function hashInviteToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Attempts before a send, revoke or resend that keeps losing races gives up with 409. */
const ATTEMPTS = 10;

/**
 * Runs a read-plan-commit step of an invite change until it commits: a transaction that
 * lost a race (a failed condition, or DynamoDB's TransactionConflict when another
 * transaction wrote one of its items at that moment) is planned again on a fresh read,
 * which decides the answer (the invite revoked meanwhile, say). A step throws its final
 * refusals itself; 409 CONCURRENT_UPDATE only when it keeps losing.
 */
function committed<T>(step: (attempt: number) => Promise<T>): Promise<T> {
  return retryOnWriteConflict(step, {
    attempts: ATTEMPTS,
    exhausted: () => new ConflictError('CONCURRENT_UPDATE', 'The invitation kept changing under this request; retry it.'),
  });
}

/**
 * The invite as a step reads it: after a lost race, strongly consistent, so that the
 * answer is judged on what the winner wrote.
 */
async function readInvite(db: TableContext, orgId: string, inviteId: string, attempt: number): Promise<InviteRecord> {
  const invite = await getInvite(db, orgId, inviteId, { consistent: attempt > 1 });
  if (!invite) throw inviteNotFound(inviteId);
  return invite;
}

/** When an invite sent or resent at `now` stops working. */
const expiryFrom = (now: Date, settings: InviteDeps['settings']) => new Date(now.getTime() + settings.ttlSeconds * 1000).toISOString();

/**
 * Invites an email to the organization: refused when it belongs to an active member
 * (ALREADY_MEMBER) or has a pending, unexpired invite (INVITE_PENDING); only an owner may
 * invite an owner. The invite (its email queued, no token yet) and the
 * one-pending-invite-per-email guard are written in one transaction; the invitation mail
 * consumer sends the email, with the link's token, from the invite.created event.
 */
export async function sendInvite(deps: InviteDeps, caller: Caller, request: { email: string; role: Role }) {
  const { db } = deps;
  if (request.role === 'owner' && (caller.kind === 'org_key' || !roleAtLeast(caller.role, 'owner'))) {
    throw new ForbiddenError('INSUFFICIENT_ROLE', 'Only an owner can invite an owner.');
  }
  return committed(async () => {
    const userId = await findUserIdByEmail(db, request.email);
    const membership = userId ? await getMembership(db, caller.orgId, userId) : undefined;
    if (membership?.status === 'active')
      throw new ConflictError('ALREADY_MEMBER', `${request.email} is already a member of this organization.`);

    const now = deps.now();
    const invite: InviteRecord = {
      id: newId('inv'),
      org_id: caller.orgId,
      email: request.email,
      role: request.role,
      status: 'pending',
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      expires_at: expiryFrom(now, deps.settings),
      invited_by: caller.actor,
      delivery: QUEUED_DELIVERY,
    };
    try {
      // The email's pending slot may be taken over from an invite that has expired by now.
      await commitInviteSending(db, { invite, slotFreeAt: now.toISOString() });
    } catch (error) {
      // The slot is held by a pending invite (maybe a concurrent send's): final. Anything else is planned again.
      if (error instanceof WriteConflict && error.failedAt('emailGuard')) {
        throw new ConflictError('INVITE_PENDING', `${request.email} already has a pending invitation to this organization.`);
      }
      throw error;
    }
    return inviteView(invite, now);
  });
}

function inviteNotFound(inviteId: string) {
  return new NotFoundError('INVITE_NOT_FOUND', `Invitation ${inviteId} does not exist in this organization.`);
}

function notPending(invite: InviteRecord, now: Date) {
  return new ConflictError('INVITE_NOT_PENDING', `Invitation ${invite.id} is ${statusOf(invite, now)}, not pending.`);
}

/**
 * Whether the invite holds its email's pending slot: a newer invite may have taken it over
 * once this one expired, and then leaving this invite must not free it.
 */
async function holdsEmailSlot(db: TableContext, invite: InviteRecord): Promise<boolean> {
  return (await getEmailGuard(db, invite.org_id, invite.email))?.invite_id === invite.id;
}

/** Revokes a pending invite: its link stops working at once. */
export async function revokeInvite(deps: Pick<InviteDeps, 'db' | 'now'>, orgId: string, inviteId: string): Promise<void> {
  const { db } = deps;
  // Accepted or revoked meanwhile, or its slot changed hands: the fresh read of the next attempt says what to do.
  await committed(async (attempt) => {
    const invite = await readInvite(db, orgId, inviteId, attempt);
    const now = deps.now();
    if (invite.status !== 'pending') throw notPending(invite, now);
    const revoked: InviteRecord = { ...invite, status: 'revoked', revoked_at: now.toISOString(), updated_at: now.toISOString() };
    await commitInviteRevocation(db, { revoked, releasesEmailGuard: await holdsEmailSlot(db, invite) });
  });
}

/**
 * Sends a pending invite again (also one that expired, or whose email failed): a new send
 * with a new expiry, its email queued anew. The link emailed before stops working at once;
 * the invitation mail consumer emails a new one from the invite.resent event.
 */
export async function resendInvite(deps: InviteDeps, caller: Caller, inviteId: string): Promise<void> {
  const { db } = deps;
  await committed(async (attempt) => {
    const invite = await readInvite(db, caller.orgId, inviteId, attempt);
    const now = deps.now();
    if (invite.status !== 'pending') throw notPending(invite, now);
    const { token_hash: _previous, ...unchanged } = invite;
    const renewed: InviteRecord = {
      ...unchanged,
      expires_at: expiryFrom(now, deps.settings),
      updated_at: now.toISOString(),
      resent_at: now.toISOString(),
      delivery: QUEUED_DELIVERY,
    };
    try {
      // The invite keeps its email's pending slot, or takes it back if it is free or expired by now.
      await commitInviteRenewal(db, { renewed, previousTokenHash: invite.token_hash, slotFreeAt: now.toISOString() });
    } catch (error) {
      // A newer invite holds the slot: final. The invite no longer pending (accepted or revoked
      // meanwhile), or a concurrent resend's transaction: planned again on a fresh read, so a
      // resend that lost to another resend sends once more, and never reports a pending
      // invite as not pending.
      if (error instanceof WriteConflict && error.failedAt('emailGuard') && !error.failedAt('invite')) {
        throw new ConflictError('INVITE_PENDING', `${invite.email} has a newer pending invitation.`);
      }
      throw error;
    }
  });
}

/** The organization's invites, newest first, optionally of one status (expired is derived). */
export async function listOrganizationInvites(
  deps: Pick<InviteDeps, 'db' | 'now'>,
  orgId: string,
  query: { status?: InviteStatus; page: number; limit: number },
) {
  const now = deps.now();
  const invites = (await listInvites(deps.db, orgId)).filter((invite) => !query.status || statusOf(invite, now) === query.status);
  const offset = (query.page - 1) * query.limit;
  return {
    data: invites.slice(offset, offset + query.limit).map((invite) => inviteView(invite, now)),
    pagination: pagePagination(query.page, query.limit, invites.length),
  };
}

/**
 * Accepts an invitation for the signed-in caller, whose verified email must be the
 * invite's. In one transaction: the invite becomes accepted (only if still pending with
 * this token), the caller's user is created from the token's claims when missing, the
 * membership becomes active with the invite's role (the org's member count follows), and
 * the email guard is released. Of two concurrent accepts, one commits.
 */
export async function acceptInvite(deps: Pick<InviteDeps, 'db' | 'now'>, principal: IdTokenPrincipal, token: string) {
  const { db } = deps;
  const hash = hashInviteToken(token);
  // A lost race (another accept, a revoke or resend, the membership changed, or DynamoDB's
  // TransactionConflict) is planned again on a fresh read, which says what the invite is now.
  return committed(async () => {
    const invite = await findInviteByTokenHash(db, hash);
    const now = deps.now();
    if (!invite) throw new NotFoundError('INVITE_NOT_FOUND', 'No invitation matches this token.');
    checkAcceptable(invite, now, principal);

    const timestamp = now.toISOString();
    const existingUserId = principal.userId ?? (await findUserIdByEmail(db, invite.email));
    const user: User | undefined = existingUserId ? await getUser(db, existingUserId) : undefined;
    const userId = user?.user_id ?? newId('usr');
    const [membership, releasesEmailGuard] = await Promise.all([
      user ? getMembership(db, invite.org_id, userId) : undefined,
      holdsEmailSlot(db, invite),
    ]);
    const accepted: InviteRecord = { ...invite, status: 'accepted', accepted_at: timestamp, accepted_by: userId, updated_at: timestamp };
    const next: Membership = {
      org_id: invite.org_id,
      user_id: userId,
      email: user?.email ?? invite.email,
      display_name: user?.display_name ?? principal.name ?? invite.email.split('@')[0],
      role: invite.role,
      status: 'active',
      member_since: membership?.status === 'active' ? membership.member_since : timestamp,
      created_at: membership?.created_at ?? timestamp,
      updated_at: timestamp,
      recording_count: membership?.recording_count ?? 0,
      latest_recording_at: membership?.latest_recording_at ?? null,
    };
    const newUser: User | undefined = user
      ? undefined
      : {
          user_id: userId,
          email: invite.email,
          display_name: next.display_name,
          timezone: DEFAULT_TIMEZONE,
          created_at: timestamp,
          updated_at: timestamp,
        };
    // The accepting user is the actor, also when this acceptance creates them.
    const context = { correlationId: currentChangeContext()?.correlationId ?? null, actor: { kind: 'user' as const, id: userId } };
    await withChangeContext(context, () =>
      commitInviteAcceptance(db, {
        accepted,
        readTokenHash: hash,
        releasesEmailGuard,
        newUser: newUser && { user: newUser, identity: { issuer: principal.issuer, subject: principal.subject } },
        membership: next,
        // A membership that exists (pending, removed, or active with another role) is taken over as read.
        membershipExpected: membership ? { status: membership.status } : 'absent',
        joinsActiveMembers: membership?.status !== 'active',
      }),
    );
    return { org_id: invite.org_id, role: invite.role, status: 'active' as const };
  });
}

function checkAcceptable(invite: InviteRecord, now: Date, principal: IdTokenPrincipal): void {
  if (invite.status === 'revoked') throw new ApiError(410, 'INVITE_REVOKED', 'This invitation was revoked.');
  if (invite.status === 'accepted') throw new ConflictError('INVITE_ALREADY_ACCEPTED', 'This invitation was already accepted.');
  if (statusOf(invite, now) === 'expired') throw new ApiError(410, 'INVITE_EXPIRED', 'This invitation has expired; ask for a new one.');
  if (!principal.emailVerified || principal.email !== invite.email) {
    throw new ForbiddenError('INVITE_EMAIL_MISMATCH', 'This invitation was sent to another email address than your verified one.');
  }
}
