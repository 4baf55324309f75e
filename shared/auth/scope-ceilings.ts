import { ROUTES, type RouteAccess, type RouteDefinition } from '../routes';
import { ROLES, SCOPES, roleAtLeast, type Role, type Scope } from './access';

/**
 * Which scopes a new key may carry, computed from the route manifest so that a new route
 * moves it and nobody keeps a second table:
 * - an organization key may carry a scope when its creator may, in person (ID token), do
 *   everything the scope lets a key do: the highest minimum role of the routes that ask org
 *   keys for it;
 * - a personal key may carry a scope that some personal-key route asks for, at the lowest
 *   minimum role of those routes (a scope no personal-key route asks for would grant nothing).
 */
const accessRules = (Object.values(ROUTES) as RouteDefinition[]).flatMap((route) => (route.access === 'public' ? [] : [route.access as RouteAccess]));

const highest = (roles: Role[]): Role | undefined => [...ROLES].reverse().find((role) => roles.includes(role));
const lowest = (roles: Role[]): Role | undefined => ROLES.find((role) => roles.includes(role));

/** The role an organization key's creator needs for each scope (owner when no route says). */
export const ORG_KEY_SCOPE_ROLES = Object.fromEntries(
  SCOPES.map((scope) => [scope, highest(accessRules.flatMap((access) => (access.orgKey?.scopes.includes(scope) && access.idToken ? [access.idToken.minRole] : []))) ?? 'owner']),
) as Record<Scope, Role>;

/** The role a personal key's user needs for each scope; absent for scopes no personal-key route asks for. */
export const PERSONAL_KEY_SCOPE_ROLES = Object.fromEntries(
  SCOPES.flatMap((scope) => {
    const role = lowest(accessRules.flatMap((access) => (access.userKey?.scopes.includes(scope) ? [access.userKey.minRole] : [])));
    return role ? [[scope, role]] : [];
  }),
) as Partial<Record<Scope, Role>>;

/** The scopes a key of this kind may carry when its ceiling is this role (a personal key's user, an organization key's creator). */
export function scopesAllowedFor(kind: 'org' | 'personal', role: Role): Scope[] {
  const needed: Partial<Record<Scope, Role>> = kind === 'org' ? ORG_KEY_SCOPE_ROLES : PERSONAL_KEY_SCOPE_ROLES;
  return SCOPES.filter((scope) => needed[scope] !== undefined && roleAtLeast(role, needed[scope]));
}
