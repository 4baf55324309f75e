import type { Member } from '../../schemas/members';
import { MemberChangeDeps, MemberManager, powersOf, cannotManage, applyChange, ADMIN_MANAGED, article } from './member-changes';

/**
 * Removes a member from the organization: the membership becomes `removed` (the org's active
 * member count moves in the same transaction) and they leave List users; their recordings
 * stay, attributed to them. Any member may remove themselves (leave); owners may remove
 * anyone; admins and org keys members and viewers only. The last active owner can be
 * removed by nobody, themselves included (409 LAST_OWNER).
 *
 * @returns the membership as removed (a List users item with status `removed`)
 */
export async function removeMember(deps: MemberChangeDeps, caller: MemberManager, userId: string): Promise<Member> {
  const leaving = caller.kind === 'id_token' && caller.userId === userId;
  const powers = powersOf(caller);
  if (!leaving && powers === 'none') throw cannotManage('Members and viewers can remove only themselves.');
  return applyChange(deps, caller, userId, (target) => {
    if (!leaving && powers === 'admin' && !ADMIN_MANAGED.includes(target.role))
      throw cannotManage(`Only an owner can remove ${article(target.role)}.`);
    return { kind: 'removal' };
  });
}
