import type { Endpoint, RouteAccess } from '../routes/route-definition';
import { ForbiddenError, ValidationError } from '../core/errors';
import type { TableContext } from '../storage/dynamo';
import type { Membership } from '../storage/membership-items';
import { getMembership, listMembershipsOfUser } from '../storage/memberships';
import { roleAtLeast, type CredentialKind, type Role, type Scope } from '../core/access';
import type { Principal } from './principal';

/** A signed-in active member of the organization, by ID token. */
export interface MemberCaller {
  kind: 'id_token';
  /** The organization the request acts on (from the path, or the one the user belongs to on aliases). */
  orgId: string;
  userId: string;
  role: Role;
  /** Who to record as the actor: the user. */
  actor: string;
}

/** A personal API key of an active member: acts as the member, within the key's scopes. */
export interface UserKeyCaller {
  kind: 'user_key';
  orgId: string;
  userId: string;
  keyId: string;
  role: Role;
  scopes: Scope[];
  /** The user, not the key: a personal key acts as its user. */
  actor: string;
}

/** An organization API key: acts for the organization, within its scopes. */
export interface OrgKeyCaller {
  kind: 'org_key';
  orgId: string;
  keyId: string;
  scopes: Scope[];
  /** The key id: there is no user. */
  actor: string;
}

/** The authorized caller of an organization route, as handlers see it, by credential kind. */
export type Caller = MemberCaller | UserKeyCaller | OrgKeyCaller;

/** The credential kinds a route's access rule admits, as a type. */
export type KindsOf<A> =
  | (A extends { idToken: object } ? 'id_token' : never)
  | (A extends { orgKey: object } ? 'org_key' : never)
  | (A extends { userKey: object } ? 'user_key' : never);

/** The callers a route's access rule admits (a personal-key-only route gets a UserKeyCaller). */
export type CallerFor<A> = Extract<Caller, { kind: KindsOf<A> }>;

/** The principals a route's access rule admits (an ID-token-only route gets an IdTokenPrincipal). */
export type PrincipalFor<A> = Extract<Principal, { kind: KindsOf<A> }>;

/**
 * Why a credential kind a route does not accept is refused: a route for API keys only
 * says API_KEY_REQUIRED to ID tokens; a route for ID tokens only says API_KEY_NOT_ALLOWED
 * to keys; otherwise the refused key kind is named.
 */
function refusal(access: RouteAccess, kind: CredentialKind): ForbiddenError {
  if (kind === 'id_token') return new ForbiddenError('API_KEY_REQUIRED', 'This route takes an API key, not an ID token.');
  if (!access.orgKey && !access.userKey)
    return new ForbiddenError('API_KEY_NOT_ALLOWED', 'This route takes a signed-in user’s ID token, not an API key.');
  return kind === 'org_key'
    ? new ForbiddenError('ORG_KEY_NOT_ALLOWED', 'Organization API keys cannot call this route.')
    : new ForbiddenError('USER_KEY_NOT_ALLOWED', 'Personal API keys cannot call this route.');
}

/** The access rule of an authenticated route (public routes have no authorizer, hence no policy). */
function accessOf(endpoint: Endpoint): RouteAccess {
  const { access } = endpoint.route;
  if (access === 'public') throw new Error(`Route ${endpoint.routeName} is public: it has no access policy`);
  return access;
}

/** The rule of the route for the principal's credential kind, or the 403 that refuses the kind. */
function ruleFor<K extends CredentialKind>(access: RouteAccess, kind: K): NonNullable<RouteAccess[KindRule[K]]> {
  const rule = access[KIND_RULES[kind]];
  if (!rule) throw refusal(access, kind);
  return rule;
}
const KIND_RULES = { id_token: 'idToken', org_key: 'orgKey', user_key: 'userKey' } as const;
type KindRule = typeof KIND_RULES;

/** Whether a route's access rule admits a credential kind at all. */
export function admitsKind(access: RouteAccess, kind: CredentialKind): boolean {
  return Boolean(access[KIND_RULES[kind]]);
}

/** The credential kind must be one the route accepts (all an orgless route checks). */
export function requireCredentialKind(endpoint: Endpoint, principal: Principal): void {
  ruleFor(accessOf(endpoint), principal.kind);
}

/**
 * The one access check of every organization route, driven by the route manifest:
 * the credential kind must be allowed, keys must belong to the organization and carry
 * the scopes, and users must be active members with at least the minimum role.
 *
 * @param requestedOrgId the {orgId} path parameter, or the `org_id` query parameter on public aliases
 */
export async function authorizeCaller(
  endpoint: Endpoint,
  principal: Principal,
  requestedOrgId: string | undefined,
  db: TableContext,
): Promise<Caller> {
  const access = accessOf(endpoint);

  if (principal.kind === 'id_token') {
    const { minRole } = ruleFor(access, principal.kind);
    // An ID token of someone who is not a user yet is a member of nothing.
    const userId = principal.userId;
    const membership = !userId
      ? undefined
      : requestedOrgId
        ? await activeMembership(db, requestedOrgId, userId)
        : await soleAdministeredMembership(db, userId, minRole);
    const member = requireRole(membership, minRole);
    return { kind: 'id_token', orgId: member.org_id, userId: member.user_id, role: member.role, actor: member.user_id };
  }

  const rule = ruleFor(access, principal.kind);
  const { orgId } = principal;
  if (requestedOrgId && requestedOrgId !== orgId) {
    const code = principal.kind === 'org_key' ? 'ORG_KEY_ORG_MISMATCH' : 'USER_KEY_ORG_MISMATCH';
    throw new ForbiddenError(code, 'The API key belongs to a different organization.');
  }
  const missing = rule.scopes.filter((scope) => !principal.scopes.includes(scope));
  if (missing.length > 0) {
    throw new ForbiddenError('INSUFFICIENT_SCOPES', `The API key lacks the scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`);
  }
  if (principal.kind === 'user_key') {
    const member = requireRole(await activeMembership(db, orgId, principal.userId), ruleFor(access, principal.kind).minRole);
    return {
      kind: 'user_key',
      orgId,
      userId: principal.userId,
      keyId: principal.keyId,
      role: member.role,
      scopes: principal.scopes,
      actor: principal.userId,
    };
  }
  return { kind: 'org_key', orgId, keyId: principal.keyId, scopes: principal.scopes, actor: principal.keyId };
}

async function activeMembership(db: TableContext, orgId: string, userId: string): Promise<Membership | undefined> {
  const membership = await getMembership(db, orgId, userId);
  return membership?.status === 'active' ? membership : undefined;
}

/** Public aliases called with an ID token and no org_id: the one org the user can act on. */
async function soleAdministeredMembership(db: TableContext, userId: string, minRole: Role): Promise<Membership | undefined> {
  const eligible = (await listMembershipsOfUser(db, userId)).filter(
    (membership) => membership.status === 'active' && roleAtLeast(membership.role, minRole),
  );
  if (eligible.length > 1) {
    throw ValidationError.field('org_id', 'missing', 'is required: you belong to several organizations, name one', 'ORG_ID_REQUIRED');
  }
  return eligible[0];
}

/**
 * A further check inside a route for what only some of its callers may do (e.g. the
 * trash of List recordings): users need the role, org keys the scope.
 */
export function requireCallerAccess(caller: Caller, minRole: Role, scope: Scope, what: string): void {
  if (caller.kind === 'org_key') {
    if (!caller.scopes.includes(scope)) throw new ForbiddenError('INSUFFICIENT_SCOPES', `${what} needs the scope ${scope}.`);
  } else if (!roleAtLeast(caller.role, minRole)) {
    throw new ForbiddenError('INSUFFICIENT_ROLE', `${what} needs the ${minRole} role or higher.`);
  }
}

/** The active membership, if it has at least the role; else the 403 that says why not. */
function requireRole(membership: Membership | undefined, minRole: Role): Membership {
  if (!membership) throw new ForbiddenError('INSUFFICIENT_ROLE', 'You are not an active member of this organization.');
  if (!roleAtLeast(membership.role, minRole)) {
    throw new ForbiddenError('INSUFFICIENT_ROLE', `This route needs the ${minRole} role or higher.`);
  }
  return membership;
}
