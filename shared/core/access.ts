/** Roles in increasing order of power; a route's minimum role admits every role at or above it. */
export const ROLES = ['viewer', 'member', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** Membership statuses; only active members act or are listed. */
export const MEMBER_STATUSES = ['active', 'pending', 'removed'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** Every API key scope. An org key with all of them can do whatever an owner can through the API. */
export const SCOPES = [
  'users:read',
  'users:write',
  'recordings:read',
  'recordings:write',
  'templates:read',
  'templates:write',
  'invites:read',
  'invites:write',
  'audit:read',
  'webhooks:read',
  'webhooks:write',
  'usage:read',
  'governance:read',
  'governance:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/** Kinds of credential the authorizer recognises. */
export type CredentialKind = 'id_token' | 'org_key' | 'user_key';

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minimum);
}

export function isRole(value: unknown): value is Role {
  return (ROLES as readonly unknown[]).includes(value);
}

export function isScope(value: unknown): value is Scope {
  return (SCOPES as readonly unknown[]).includes(value);
}
