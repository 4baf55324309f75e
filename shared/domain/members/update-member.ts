import type { Role } from '../../core/access';
import { ForbiddenError } from '../../core/errors';
import type { Member } from '../../schemas/members';
import { MemberChangeDeps, MemberManager, powersOf, cannotManage, ADMIN_MANAGED, applyChange, article } from './member-changes';

/**
 * Gives an active member another role. Owners may give any role to anyone; admins and org
 * keys may change members and viewers only, to member or viewer. The last active owner
 * cannot be demoted (409 LAST_OWNER), also when owners demote each other at the same time.
 * The same role as now changes nothing (no write, no event).
 *
 * @returns the member as the change left them (a List users item)
 */
export async function updateMember(deps: MemberChangeDeps, caller: MemberManager, userId: string, role: Role): Promise<Member> {
  const powers = powersOf(caller);
  if (powers === 'none') throw cannotManage('Only owners and admins can change roles.');
  if (powers === 'admin' && !ADMIN_MANAGED.includes(role)) {
    throw new ForbiddenError('CANNOT_ASSIGN_ROLE', `Only an owner can make someone ${role === 'admin' ? 'an admin' : 'an owner'}.`);
  }
  return applyChange(deps, caller, userId, (target) => {
    if (powers === 'admin' && !ADMIN_MANAGED.includes(target.role))
      throw cannotManage(`Only an owner can change the role of ${article(target.role)}.`);
    return target.role === role ? undefined : { kind: 'role', role };
  });
}
