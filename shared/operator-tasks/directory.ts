import type { MemberStatus, Role } from '../core/access';
import type { ErrorCode } from '../core/error-codes';
import { ConflictError, NotFoundError } from '../core/errors';
import { newId } from '../ids';
import { DEFAULT_TIMEZONE } from '../schemas/common';
import type { TableContext } from '../storage/dynamo';
import { isConditionFailure, WriteConflict } from '../storage/transactions';
import type { Membership } from '../storage/membership-items';
import { getMembership, listMembershipsOfUser } from '../storage/memberships';
import { replaceMembership } from '../storage/membership-writes';
import { insertMembership } from '../storage/membership-writes';
import { getOrganization, insertOrganization, renameOrganization, type Organization } from '../storage/organizations';
import { findUserIdByEmail, getUser, insertUser, updateUserProfile, type User } from '../storage/users';

/** What an idempotent "ensure" did: fixtures report these so a second load shows no change. */
export type EnsureOutcome = 'created' | 'updated' | 'unchanged';

/** Creates an organization (operators bootstrap the first one with the CLI). */
export async function createOrganization(db: TableContext, input: { id?: string; name: string }, now: Date): Promise<Organization> {
  const timestamp = now.toISOString();
  // A new organization's derived indexes are complete from the start: every write keeps them.
  const org: Organization = {
    org_id: input.id ?? newId('org'),
    name: input.name,
    active_member_count: 0,
    created_at: timestamp,
    updated_at: timestamp,
    member_search_index_at: timestamp,
    recording_days_index_at: timestamp,
    retention_index_at: timestamp,
    templates_index_at: timestamp,
  };
  await conflictOnTaken(insertOrganization(db, org), 'ORG_EXISTS', `Organization ${org.org_id} already exists.`);
  return org;
}

/** Creates a user; the email (lower-cased) must not belong to another user. */
export async function createUser(
  db: TableContext,
  input: { id?: string; email: string; display_name: string; timezone?: string },
  now: Date,
): Promise<User> {
  const timestamp = now.toISOString();
  const user: User = {
    user_id: input.id ?? newId('usr'),
    email: input.email.toLowerCase(),
    display_name: input.display_name,
    timezone: input.timezone ?? DEFAULT_TIMEZONE,
    created_at: timestamp,
    updated_at: timestamp,
  };
  await conflictOnTaken(insertUser(db, user), 'USER_EXISTS', `A user with id ${user.user_id} or email ${user.email} already exists.`);
  return user;
}

/** Adds a user to an organization; the org's active member count follows in the same transaction. */
export async function addMember(
  db: TableContext,
  input: { orgId: string; userId: string; role: Role; status?: MemberStatus; memberSince?: string },
  now: Date,
): Promise<Membership> {
  const [org, user] = await Promise.all([getOrganization(db, input.orgId), getUser(db, input.userId)]);
  if (!org) throw new NotFoundError('ORG_NOT_FOUND', `Organization ${input.orgId} does not exist.`);
  if (!user) throw new NotFoundError('USER_NOT_FOUND', `User ${input.userId} does not exist.`);
  const timestamp = now.toISOString();
  const membership: Membership = {
    org_id: org.org_id,
    user_id: user.user_id,
    email: user.email,
    display_name: user.display_name,
    role: input.role,
    status: input.status ?? 'active',
    member_since: input.memberSince ?? timestamp,
    created_at: timestamp,
    updated_at: timestamp,
    recording_count: 0,
    latest_recording_at: null,
  };
  await conflictOnTaken(
    insertMembership(db, membership),
    'MEMBER_EXISTS',
    `User ${user.user_id} is already in organization ${org.org_id}.`,
  );
  return membership;
}

/** Creates the organization, or renames it to match; reports what it did. */
export async function ensureOrganization(db: TableContext, input: { id: string; name: string }, now: Date): Promise<EnsureOutcome> {
  const existing = await getOrganization(db, input.id);
  if (!existing) return (await createOrganization(db, input, now), 'created');
  if (existing.name === input.name) return 'unchanged';
  await renameOrganization(db, input.id, input.name, now.toISOString());
  return 'updated';
}

/**
 * Creates the user, or updates its display name and time zone to match (also on the
 * copies its memberships keep). A different email for an existing id is refused.
 */
export async function ensureUser(
  db: TableContext,
  input: { id: string; email: string; display_name: string; timezone?: string },
  now: Date,
): Promise<EnsureOutcome> {
  const existing = await getUser(db, input.id);
  if (!existing) {
    const owner = await findUserIdByEmail(db, input.email);
    if (owner) throw new ConflictError('EMAIL_TAKEN', `Email ${input.email} already belongs to user ${owner}.`);
    return (await createUser(db, input, now), 'created');
  }
  if (existing.email !== input.email.toLowerCase()) {
    throw new ConflictError('EMAIL_MISMATCH', `User ${input.id} exists with another email; changing it is not supported.`);
  }
  const timezone = input.timezone ?? existing.timezone;
  if (existing.display_name === input.display_name && existing.timezone === timezone) return 'unchanged';
  const memberships = await listMembershipsOfUser(db, input.id);
  try {
    await updateUserProfile(
      db,
      { user_id: input.id, display_name: input.display_name, timezone, updated_at: now.toISOString() },
      memberships,
    );
  } catch (error) {
    // Gone since it was read: refused, rather than created again as a partial user.
    if (error instanceof WriteConflict && error.failedAt('user'))
      throw new NotFoundError('USER_NOT_FOUND', `User ${input.id} no longer exists.`);
    throw error;
  }
  return 'updated';
}

/** Adds the membership, or sets its role, status and member_since to match. */
export async function ensureMembership(
  db: TableContext,
  input: { orgId: string; userId: string; role: Role; status: MemberStatus; memberSince?: string },
  now: Date,
): Promise<EnsureOutcome> {
  const existing = await getMembership(db, input.orgId, input.userId);
  if (!existing) return (await addMember(db, input, now), 'created');
  const memberSince = input.memberSince ?? existing.member_since;
  if (existing.role === input.role && existing.status === input.status && existing.member_since === memberSince) return 'unchanged';
  await replaceMembership(db, existing, {
    ...existing,
    role: input.role,
    status: input.status,
    member_since: memberSince,
    updated_at: now.toISOString(),
  });
  return 'updated';
}

/** Turns DynamoDB's "already exists" into a 409 with a clear message. */
export async function conflictOnTaken<T>(write: Promise<T>, code: ErrorCode, message: string): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError(code, message);
    throw error;
  }
}
