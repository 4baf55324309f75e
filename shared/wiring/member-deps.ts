import type { MemberChangeDeps } from '../domain/members/member-changes';
import { table } from '../storage/dynamo';

/**
 * The members area's composition root (List users, Update member, Remove member): the table and
 * the clock, built on first use and kept for the warm function. The member settings routes have
 * their own (member-settings-deps.ts): the module of the profile cipher adds about 50 KB to every
 * bundle that imports it, even one that never calls it.
 */

let members: MemberChangeDeps | undefined;

export function memberDeps(): MemberChangeDeps {
  return (members ??= { db: table(), now: () => new Date() });
}
