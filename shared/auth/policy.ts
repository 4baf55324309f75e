import type { Endpoint, RouteAccess } from '../routes';
import { ForbiddenError, ValidationError } from '../http/errors';
import type { TableContext } from '../storage/dynamo';
import { getMembership, listMembershipsOfUser, type Membership } from '../storage/memberships';
import { roleAtLeast, type CredentialKind, type Role, type Scope } from './access';
import type { Principal } from './principal';

/** The authorized caller of an organization route, as handlers see it. */
export interface Caller {
  kind: CredentialKind;
  /** The organization the request acts on (from the path, or from the credential on aliases). */
  orgId: string;
  userId?: string;
  keyId?: string;
  /** The caller's role in the organization (ID tokens and personal keys). */
  role?: Role;
  scopes: Scope[];
  /** Who to record as the actor: the user id, else the org key id. */
  actor: string;
}

/**
 * Why a credential kind a route does not accept is refused: a route for API keys only
 * says API_KEY_REQUIRED to ID tokens; a route for ID tokens only says API_KEY_NOT_ALLOWED
 * to keys; otherwise the refused key kind is named.
 */
function refusal(access: RouteAccess, kind: CredentialKind): ForbiddenError {
  if (kind === 'id_token') return new ForbiddenError('API_KEY_REQUIRED', 'This route takes an API key, not an ID token.');
  if (!access.orgKey && !access.userKey) return new ForbiddenError('API_KEY_NOT_ALLOWED', 'This route takes a signed-in user’s ID token, not an API key.');
  return kind === 'org_key'
    ? new ForbiddenError('ORG_KEY_NOT_ALLOWED', 'Organization API keys cannot call this route.')
    : new ForbiddenError('USER_KEY_NOT_ALLOWED', 'Personal API keys cannot call this route.');
}

/** The credential kind must be one the route accepts (all an orgless route checks). */
export function requireCredentialKind(endpoint: Endpoint, principal: Principal): void {
  const access = endpoint.route.access as RouteAccess;
  const rule = principal.kind === 'id_token' ? access.idToken : principal.kind === 'org_key' ? access.orgKey : access.userKey;
  if (!rule) throw refusal(access, principal.kind);
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
  requireCredentialKind(endpoint, principal);
  const access = endpoint.route.access as RouteAccess;

  if (principal.kind === 'id_token') {
    const membership = requestedOrgId
      ? await activeMembership(db, requestedOrgId, principal.userId)
      : await soleAdministeredMembership(db, principal.userId, access.idToken!.minRole);
    requireRole(membership, access.idToken!.minRole);
    return { kind: 'id_token', orgId: membership!.org_id, userId: principal.userId, role: membership!.role, scopes: [], actor: principal.userId! };
  }

  const orgId = principal.orgId!;
  if (requestedOrgId && requestedOrgId !== orgId) {
    const code = principal.kind === 'org_key' ? 'ORG_KEY_ORG_MISMATCH' : 'USER_KEY_ORG_MISMATCH';
    throw new ForbiddenError(code, 'The API key belongs to a different organization.');
  }
  const required = (principal.kind === 'org_key' ? access.orgKey : access.userKey)!.scopes;
  const missing = required.filter((scope) => !principal.scopes.includes(scope));
  if (missing.length > 0) {
    throw new ForbiddenError('INSUFFICIENT_SCOPES', `The API key lacks the scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`);
  }
  if (principal.kind === 'user_key') {
    const membership = await activeMembership(db, orgId, principal.userId);
    requireRole(membership, access.userKey!.minRole);
    return { kind: 'user_key', orgId, userId: principal.userId, keyId: principal.keyId, role: membership!.role, scopes: principal.scopes, actor: principal.userId! };
  }
  return { kind: 'org_key', orgId, keyId: principal.keyId, scopes: principal.scopes, actor: principal.keyId! };
}

async function activeMembership(db: TableContext, orgId: string, userId: string | undefined): Promise<Membership | undefined> {
  if (!userId) return undefined;
  const membership = await getMembership(db, orgId, userId);
  return membership?.status === 'active' ? membership : undefined;
}

/** Public aliases called with an ID token and no org_id: the one org the user can act on. */
async function soleAdministeredMembership(db: TableContext, userId: string | undefined, minRole: Role): Promise<Membership | undefined> {
  if (!userId) return undefined;
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
  } else if (!caller.role || !roleAtLeast(caller.role, minRole)) {
    throw new ForbiddenError('INSUFFICIENT_ROLE', `${what} needs the ${minRole} role or higher.`);
  }
}

function requireRole(membership: Membership | undefined, minRole: Role): void {
  if (!membership) throw new ForbiddenError('INSUFFICIENT_ROLE', 'You are not an active member of this organization.');
  if (!roleAtLeast(membership.role, minRole)) {
    throw new ForbiddenError('INSUFFICIENT_ROLE', `This route needs the ${minRole} role or higher.`);
  }
}
