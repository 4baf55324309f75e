import type { Caller } from '../../auth/policy';
import { roleAtLeast } from '../../core/access';
import { ForbiddenError, NotFoundError } from '../../core/errors';

/**
 * Who may ask for, and read, a member's export: owners and admins (by ID token) for any
 * member, any member for themselves, and organization keys with governance:write (the route's
 * access checks the scope). The route admits ID tokens of every role so that a member can
 * export their own data; this refuses the rest as the policy refuses a role too low.
 */
export function requireExportAccess(caller: Caller, userId: string): void {
  if (caller.kind !== 'id_token') return;
  if (roleAtLeast(caller.role, 'admin') || caller.userId === userId) return;
  throw new ForbiddenError('INSUFFICIENT_ROLE', "Only owners and admins export another member's data; members export their own.");
}

/** 404 EXPORT_NOT_FOUND: unknown, another member's, or removed after its 7 days. */
export function exportNotFound(exportId: string): NotFoundError {
  return new NotFoundError(
    'EXPORT_NOT_FOUND',
    `Export ${exportId} does not exist for this member (exports are removed 7 days after they finish).`,
  );
}
