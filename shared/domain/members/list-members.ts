import type { TableContext } from '../../storage/dynamo';
import { pagePagination, type PagePagination } from '../../http/responses';
import { listActiveMembers, searchActiveMembers, type Membership } from '../../storage/memberships';
import { getOrganization } from '../../storage/organizations';
import type { ListUsersQuery, Member } from '../../schemas/members';

/**
 * One page of an organization's active members, by email ascending.
 *
 * Without `q` the total is the organization's maintained active-member count and the
 * page reads only its own items. With `q`, every active member is matched in the index
 * (DynamoDB has no substring index) and the matches are counted and paged here.
 */
export async function listMembers(
  db: TableContext,
  orgId: string,
  { q, page, limit }: ListUsersQuery,
): Promise<{ members: Member[]; pagination: PagePagination }> {
  const offset = (page - 1) * limit;
  if (q) {
    const matches = await searchActiveMembers(db, orgId, q);
    return {
      members: matches.slice(offset, offset + limit).map(toMember),
      pagination: pagePagination(page, limit, matches.length),
    };
  }
  // The first page (the common case) reads the count and the page side by side; a deeper
  // page needs the count first, to skip nothing past the end and to come from the nearer end.
  const [organization, firstPage] = await Promise.all([
    getOrganization(db, orgId),
    offset === 0 ? listActiveMembers(db, orgId, { offset: 0, limit }) : undefined,
  ]);
  const total = organization?.active_member_count ?? 0;
  const members = firstPage ?? (offset < total ? await deepPage(db, orgId, offset, limit, total) : []);
  return { members: members.map(toMember), pagination: pagePagination(page, limit, total) };
}

/**
 * A page past the first. Skipped index entries are read and billed, so a page in the
 * second half of the list is read backwards from the end: the worst case skips half the
 * members, and the last page skips none.
 */
async function deepPage(db: TableContext, orgId: string, offset: number, limit: number, total: number): Promise<Membership[]> {
  const pageSize = Math.min(limit, total - offset);
  const after = total - offset - pageSize;
  if (after >= offset) return listActiveMembers(db, orgId, { offset, limit: pageSize });
  return (await listActiveMembers(db, orgId, { offset: after, limit: pageSize, descending: true })).reverse();
}

/** The public shape of a membership (List users item). */
export function toMember(membership: Membership): Member {
  return {
    user_id: membership.user_id,
    email: membership.email,
    display_name: membership.display_name,
    role: membership.role,
    status: membership.status,
    is_active: membership.status === 'active',
    created_at: membership.created_at,
    updated_at: membership.updated_at,
    member_since: membership.member_since,
    recording_count: membership.recording_count,
    latest_recording_at: membership.latest_recording_at,
  };
}
