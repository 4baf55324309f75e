import type { RouteAccess } from '../routes/route-definition';
import { ROLES, SCOPES, roleAtLeast, type Role, type Scope } from '../core/access';

/**
 * Which scopes a new key may carry. The rule follows the routes' access rules:
 * - an organization key may carry a scope when its creator may, in person (ID token), do
 *   everything the scope lets a key do: the highest minimum role of the routes that ask org
 *   keys for it;
 * - a personal key may carry a scope that some personal-key route asks for, at the lowest
 *   minimum role of those routes (a scope no personal-key route asks for would grant nothing).
 *
 * The tables below are what `scopeCeilingsOf` derives from the manifest, written out so that
 * the API key functions need no other route's definition in their bundle; test/unit/routes.test.ts
 * derives them from the manifest and fails, naming this file, when a route changes them.
 */

/** The role an organization key's creator needs for each scope (owner when no route says). */
export const ORG_KEY_SCOPE_ROLES: Record<Scope, Role> = {
  'users:read': 'admin',
  'users:write': 'admin',
  'recordings:read': 'member',
  'recordings:write': 'admin',
  'templates:read': 'member',
  'templates:write': 'admin',
  'invites:read': 'admin',
  'invites:write': 'admin',
  'audit:read': 'admin',
  'webhooks:read': 'admin',
  'webhooks:write': 'admin',
  'usage:read': 'admin',
  'governance:read': 'admin',
  'governance:write': 'owner',
};

/** The role a personal key's user needs for each scope; absent for scopes no personal-key route asks for. */
export const PERSONAL_KEY_SCOPE_ROLES: Partial<Record<Scope, Role>> = {
  'recordings:read': 'viewer',
  'recordings:write': 'member',
};

const highest = (roles: Role[]): Role | undefined => [...ROLES].reverse().find((role) => roles.includes(role));
const lowest = (roles: Role[]): Role | undefined => ROLES.find((role) => roles.includes(role));

/** The ceilings the access rules of a list of routes give (public routes have none): what the tables above must hold for the manifest. */
export function scopeCeilingsOf(accessRules: readonly (RouteAccess | 'public')[]): {
  org: Record<Scope, Role>;
  personal: Partial<Record<Scope, Role>>;
} {
  const rules = accessRules.filter((access): access is RouteAccess => access !== 'public');
  const org = Object.fromEntries(
    SCOPES.map((scope) => [
      scope,
      highest(rules.flatMap((access) => (access.orgKey?.scopes.includes(scope) && access.idToken ? [access.idToken.minRole] : []))) ??
        'owner',
    ]),
  ) as Record<Scope, Role>;
  const personal = Object.fromEntries(
    SCOPES.flatMap((scope) => {
      const role = lowest(rules.flatMap((access) => (access.userKey?.scopes.includes(scope) ? [access.userKey.minRole] : [])));
      return role ? [[scope, role]] : [];
    }),
  ) as Partial<Record<Scope, Role>>;
  return { org, personal };
}

/** The scopes a key of this kind may carry when its ceiling is this role (a personal key's user, an organization key's creator). */
export function scopesAllowedFor(kind: 'org' | 'personal', role: Role): Scope[] {
  const needed: Partial<Record<Scope, Role>> = kind === 'org' ? ORG_KEY_SCOPE_ROLES : PERSONAL_KEY_SCOPE_ROLES;
  return SCOPES.filter((scope) => needed[scope] !== undefined && roleAtLeast(role, needed[scope]));
}
