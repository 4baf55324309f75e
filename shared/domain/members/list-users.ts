import type { TableContext } from '../../storage/dynamo';
import { pagePagination, type PagePagination } from '../../core/page-pagination';
import { entryAtPosition, matchMembers, readMemberSearchIndex } from '../../storage/member-search';
import type { Membership } from '../../storage/membership-items';
import { getMemberships, listActiveMembers, searchActiveMembers } from '../../storage/memberships';
import { getOrganization } from '../../storage/organizations';
import type { ListUsersQuery, Member } from '../../schemas/members';

/**
 * One page of an organization's active members, by email ascending.
 *
 * Without `q` the total is the organization's maintained active-member count and the
 * page reads only its own items (a deep page number, at most the member search index
 * besides: deepPage). With `q` (DynamoDB has no substring index), the
 * organization's member search index is read whole, matched and paged here, and only the
 * page's memberships are read: two round trips (searchMembers).
 */
export async function listUsers(
  db: TableContext,
  orgId: string,
  { q, page, limit }: ListUsersQuery,
): Promise<{ members: Member[]; pagination: PagePagination }> {
  const offset = (page - 1) * limit;
  if (q) {
    const { members, total } = await searchMembers(db, orgId, q, { offset, limit });
    return { members: members.map(toMember), pagination: pagePagination(page, limit, total) };
  }
  // The first page (the common case) reads the count and the page side by side; a deeper
  // page needs the count first, to read nothing past the end and to start where the page is.
  const [organization, firstPage] = await Promise.all([
    getOrganization(db, orgId),
    offset === 0 ? listActiveMembers(db, orgId, { offset: 0, limit }) : undefined,
  ]);
  const total = organization?.active_member_count ?? 0;
  const indexed = Boolean(organization?.member_search_index_at);
  const members = firstPage ?? (offset < total ? await deepPage(db, orgId, { offset, limit, total, indexed }) : []);
  return { members: members.map(toMember), pagination: pagePagination(page, limit, total) };
}

/**
 * The active members matching `q`, a page of them and their number. The index (about 20
 * bytes a member) and the organization are read side by side, then the page's memberships
 * in one batch. An organization created before the index existed, until it is rebuilt
 * (`voice-org reindex`), is searched by reading every active membership instead.
 */
async function searchMembers(
  db: TableContext,
  orgId: string,
  q: string,
  { offset, limit }: { offset: number; limit: number },
): Promise<{ members: Membership[]; total: number }> {
  const [organization, entries] = await Promise.all([getOrganization(db, orgId), readMemberSearchIndex(db, orgId)]);
  if (!organization?.member_search_index_at) {
    const matches = await searchActiveMembers(db, orgId, q);
    return { members: matches.slice(offset, offset + limit), total: matches.length };
  }
  const matches = matchMembers(entries, q);
  const page = matches.slice(offset, offset + limit);
  // The index is read eventually consistent, as the active members index is: a member removed since is left out.
  const members = (
    await getMemberships(
      db,
      orgId,
      page.map((entry) => entry.user_id),
    )
  ).filter((membership) => membership.status === 'active');
  return { members, total: matches.length };
}

/**
 * What skipping one membership costs, in member search index entries read: a membership
 * item is about 600 bytes, an entry of the index about 25 (compressed). A page that would
 * skip fewer memberships than the index holds entries / 20 reads them; a deeper one reads
 * the index instead (docs/data-model.md, "Access patterns").
 */
const SKIPPED_MEMBERSHIP_IN_INDEX_ENTRIES = 20;

/**
 * A page past the first. Skipped index entries are read and billed, so the page is read
 * from the nearer end of the list (backwards from the end in its second half). When that
 * would still skip more than the member search index costs to read (and the index is
 * complete: `indexed`), the index says which member is at the page's offset and the page is
 * read from that member's entry on: the index, then the page, whatever the page number.
 */
async function deepPage(
  db: TableContext,
  orgId: string,
  { offset, limit, total, indexed }: { offset: number; limit: number; total: number; indexed: boolean },
): Promise<Membership[]> {
  const pageSize = Math.min(limit, total - offset);
  const after = total - offset - pageSize;
  if (indexed && Math.min(offset, after) * SKIPPED_MEMBERSHIP_IN_INDEX_ENTRIES > total) {
    // The index is read eventually consistent, as the active members index is; one shorter than the count (a member
    // who left meanwhile) has no entry at the page's offset, and the page is read as without it.
    const first = entryAtPosition(await readMemberSearchIndex(db, orgId), offset);
    if (first) return listActiveMembers(db, orgId, { offset: 0, limit: pageSize, from: first });
  }
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
