import { ROLES, SCOPES, type MemberStatus, type Role, type Scope } from '../../shared/core/access';
import type { Endpoint, RouteAccess } from '../../shared/routes/route-definition';

/**
 * The access rules of the route manifest, restated as one small pure function for the
 * access-matrix test: given an endpoint and a class of credential, what the API must answer.
 * It mirrors docs/decisions.md ("Authentication and access") and docs/authentication.md,
 * not the code of shared/auth/policy.ts, so the matrix checks the code against the rules.
 */

/** Whose organization a credential or a membership belongs to: the one the request names, or another. */
export type OrgSide = 'this' | 'other';

export interface MembershipOf {
  org: OrgSide;
  role: Role;
  status: MemberStatus;
}

/** Why a credential does not authenticate: the authorizer answers 401 to all of them. */
export type Unauthenticated = 'missing' | 'malformed' | 'expired' | 'wrong_signature' | 'alg_none' | 'revoked_key';

/** An API key: an org key of an organization, or a member's personal key, with its scopes. */
export type KeyClass =
  { kind: 'org_key'; org: OrgSide; scopes: readonly Scope[] } | { kind: 'user_key'; membership: MembershipOf; scopes: readonly Scope[] };

/** One class of caller of the matrix. `name` is unique; the test turns each class into a bearer token. */
export type CredentialClass = { name: string } & (
  | {
      kind: 'unauthenticated';
      why: Unauthenticated;
      /** Malformed: the Authorization header sent as is. */
      authorization?: string;
      /** Revoked: the key, as it was before its revocation. */
      revokedKey?: KeyClass;
    }
  /** `membership` undefined: a user the service knows with no membership anywhere; `known` false: a user it has never seen. */
  | { kind: 'id_token'; membership?: MembershipOf; known: boolean }
  | KeyClass
);

/**
 * What a call must get: let through (anything but an access refusal), or refused with this
 * status and code, and a message that names what is missing (`names`: the scopes a key lacks).
 */
export type ExpectedAccess = { allowed: true } | { allowed: false; status: 401 | 403; error: string; names?: string[] };

/** Every error code that means "this caller may not make this call" (the ones ExpectedAccess names). */
export const ACCESS_REFUSAL_CODES = new Set([
  'UNAUTHORIZED',
  'API_KEY_REQUIRED',
  'API_KEY_NOT_ALLOWED',
  'ORG_KEY_NOT_ALLOWED',
  'USER_KEY_NOT_ALLOWED',
  'ORG_KEY_ORG_MISMATCH',
  'USER_KEY_ORG_MISMATCH',
  'INSUFFICIENT_SCOPES',
  'INSUFFICIENT_ROLE',
]);

const ALLOWED: ExpectedAccess = { allowed: true };
const forbidden = (error: string): ExpectedAccess => ({ allowed: false, status: 403, error });

const RANK = (role: Role) => ROLES.indexOf(role);

/** An active member of the named organization with at least the role, else INSUFFICIENT_ROLE (non-members included). */
function roleCheck(membership: MembershipOf | undefined, minRole: Role): ExpectedAccess {
  const acts = membership?.org === 'this' && membership.status === 'active' && RANK(membership.role) >= RANK(minRole);
  return acts ? ALLOWED : forbidden('INSUFFICIENT_ROLE');
}

/**
 * The documented rules, in their documented order: public routes admit anyone; a credential
 * that does not authenticate is 401; a credential kind the route does not list is 403 with a
 * code naming the kind; orgless routes check nothing more; keys must belong to the named
 * organization, then carry every scope; users (ID tokens, personal keys' owners) must be
 * active members of it with at least the route's role. The request always names `this` org
 * (by path, or by `org_id` on endpoints whose organization comes from the credential).
 */
export function expectedAccess(endpoint: Endpoint, credential: CredentialClass): ExpectedAccess {
  const access: RouteAccess | 'public' = endpoint.route.access;
  if (access === 'public') return ALLOWED;
  if (credential.kind === 'unauthenticated') return { allowed: false, status: 401, error: 'UNAUTHORIZED' };

  const rule = credential.kind === 'id_token' ? access.idToken : credential.kind === 'org_key' ? access.orgKey : access.userKey;
  if (!rule) {
    if (credential.kind === 'id_token') return forbidden('API_KEY_REQUIRED');
    if (!access.orgKey && !access.userKey) return forbidden('API_KEY_NOT_ALLOWED');
    return forbidden(credential.kind === 'org_key' ? 'ORG_KEY_NOT_ALLOWED' : 'USER_KEY_NOT_ALLOWED');
  }
  if (endpoint.route.orgless) return ALLOWED;

  if (credential.kind === 'id_token') return roleCheck(credential.membership, access.idToken!.minRole);

  const keyOrg = credential.kind === 'org_key' ? credential.org : credential.membership.org;
  if (keyOrg !== 'this') return forbidden(credential.kind === 'org_key' ? 'ORG_KEY_ORG_MISMATCH' : 'USER_KEY_ORG_MISMATCH');
  const scopes = credential.kind === 'org_key' ? access.orgKey!.scopes : access.userKey!.scopes;
  const missing = scopes.filter((scope) => !credential.scopes.includes(scope));
  if (missing.length) return { allowed: false, status: 403, error: 'INSUFFICIENT_SCOPES', names: missing };
  return credential.kind === 'user_key' ? roleCheck(credential.membership, access.userKey!.minRole) : ALLOWED;
}

const member = (role: Role, status: MemberStatus = 'active', org: OrgSide = 'this'): MembershipOf => ({ org, role, status });

/**
 * The credential classes of the matrix, generated from the roles and scopes of
 * shared/core/access.ts: every way a credential can fail to authenticate, ID tokens of every
 * role and standing, org keys with no scope, each single scope, every scope but one and all of
 * them, and personal keys of every role (all scopes) and of an owner with each single scope.
 * A pending or removed membership is tried with the lowest role and with the highest: an owner
 * who is not active is refused for the standing alone, whatever role the route asks.
 */
export function credentialClasses(): CredentialClass[] {
  const all = [...SCOPES];
  return [
    { name: 'none', kind: 'unauthenticated', why: 'missing' },
    { name: 'malformed: "Bearer"', kind: 'unauthenticated', why: 'malformed', authorization: 'Bearer' },
    { name: 'malformed: "Basic abc"', kind: 'unauthenticated', why: 'malformed', authorization: 'Basic abc' },
    { name: 'malformed: "Bearer a b"', kind: 'unauthenticated', why: 'malformed', authorization: 'Bearer a b' },
    { name: 'expired ID token', kind: 'unauthenticated', why: 'expired' },
    { name: 'ID token signed by another key', kind: 'unauthenticated', why: 'wrong_signature' },
    { name: 'ID token with alg none', kind: 'unauthenticated', why: 'alg_none' },
    { name: 'revoked org key', kind: 'unauthenticated', why: 'revoked_key', revokedKey: { kind: 'org_key', org: 'this', scopes: all } },
    {
      name: 'revoked personal key',
      kind: 'unauthenticated',
      why: 'revoked_key',
      revokedKey: { kind: 'user_key', membership: member('owner'), scopes: all },
    },
    ...ROLES.map((role): CredentialClass => ({ name: `ID token: ${role}`, kind: 'id_token', membership: member(role), known: true })),
    { name: 'ID token: pending member', kind: 'id_token', membership: member('member', 'pending'), known: true },
    { name: 'ID token: removed member', kind: 'id_token', membership: member('member', 'removed'), known: true },
    { name: 'ID token: pending owner', kind: 'id_token', membership: member('owner', 'pending'), known: true },
    { name: 'ID token: removed owner', kind: 'id_token', membership: member('owner', 'removed'), known: true },
    { name: 'ID token: owner of another org', kind: 'id_token', membership: member('owner', 'active', 'other'), known: true },
    { name: 'ID token: user with no membership', kind: 'id_token', known: true },
    { name: 'ID token: unknown user', kind: 'id_token', known: false },
    { name: 'org key: no scope', kind: 'org_key', org: 'this', scopes: [] },
    ...SCOPES.map((scope): CredentialClass => ({ name: `org key: ${scope}`, kind: 'org_key', org: 'this', scopes: [scope] })),
    // Many scopes, but not the one the route asks: refused like a key with none.
    ...SCOPES.map((missing): CredentialClass => ({
      name: `org key: every scope but ${missing}`,
      kind: 'org_key',
      org: 'this',
      scopes: all.filter((scope) => scope !== missing),
    })),
    { name: 'org key: all scopes', kind: 'org_key', org: 'this', scopes: all },
    { name: 'org key of another org: all scopes', kind: 'org_key', org: 'other', scopes: all },
    ...ROLES.map((role): CredentialClass => ({
      name: `personal key: ${role}, all scopes`,
      kind: 'user_key',
      membership: member(role),
      scopes: all,
    })),
    ...SCOPES.map((scope): CredentialClass => ({
      name: `personal key: owner, ${scope}`,
      kind: 'user_key',
      membership: member('owner'),
      scopes: [scope],
    })),
    { name: 'personal key: pending member, all scopes', kind: 'user_key', membership: member('member', 'pending'), scopes: all },
    { name: 'personal key: removed member, all scopes', kind: 'user_key', membership: member('member', 'removed'), scopes: all },
    { name: 'personal key: pending owner, all scopes', kind: 'user_key', membership: member('owner', 'pending'), scopes: all },
    { name: 'personal key: removed owner, all scopes', kind: 'user_key', membership: member('owner', 'removed'), scopes: all },
    {
      name: 'personal key of another org: owner, all scopes',
      kind: 'user_key',
      membership: member('owner', 'active', 'other'),
      scopes: all,
    },
  ];
}
