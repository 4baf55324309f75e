import { NotFoundError } from '../core/errors';
import type { ApiKey } from '../schemas/api-keys';
import type { Member } from '../schemas/members';
import { listApiKeys, type ApiKeyPosition } from '../storage/api-keys';
import type { TableContext } from '../storage/dynamo';
import { getOrganization, type Organization } from '../storage/organizations';
import { apiKeyView } from '../domain/api-keys/api-key-views';
import { type InviteStatus } from '../domain/invites/invite-views';
import { inviteView } from '../domain/invites/invite-views';
import { listInvites } from '../domain/invites/list-invites';
import { listUsers } from '../domain/members/list-users';

/**
 * What an operator lists with the CLI (`key list`, `member list`, `invite list`): the whole
 * collection at once, read by the functions behind the API's list routes, with their views
 * (never a key's secret or hash, nor an invite's token). An organization that does not exist
 * is ORG_NOT_FOUND rather than an empty list, so a mistyped id is noticed.
 */

/** The largest page the API serves of keys: the CLI reads that many per query. */
const KEY_PAGE_SIZE = 100;
/** Members who may join while the list is read: it reads until the index ends, up to this many past the count. */
const JOINING_MARGIN = 100;

async function existingOrganization(db: TableContext, orgId: string): Promise<Organization> {
  const org = await getOrganization(db, orgId);
  if (!org) throw new NotFoundError('ORG_NOT_FOUND', `Organization ${orgId} does not exist.`);
  return org;
}

/**
 * Every API key of an organization (or only one member's personal keys), newest first, as
 * List API keys shows them: revoked and expired ones included, with their status. Follows the
 * route's keyset pages (one query each), so the cost grows with the number of keys only.
 */
export async function listAllApiKeys(db: TableContext, orgId: string, filter: { userId?: string }, now: Date): Promise<ApiKey[]> {
  await existingOrganization(db, orgId);
  const views: ApiKey[] = [];
  let after: ApiKeyPosition | undefined;
  for (;;) {
    const page = await listApiKeys(db, orgId, { userId: filter.userId, limit: KEY_PAGE_SIZE, after });
    views.push(...page.keys.map((key) => apiKeyView(key, now)));
    const last = page.keys.at(-1);
    if (!page.hasMore || !last) return views;
    after = { created_at: last.created_at, key_id: last.key_id };
  }
}

/**
 * Every active member of an organization by email, as List users shows them. One page larger
 * than the organization's maintained member count (by a margin for members joining meanwhile),
 * read in one pass of the index: the route's later pages skip the entries before them, which
 * a walk through every page would pay again and again. Pending and removed memberships are
 * not listed, as in List users.
 */
export async function listAllMembers(db: TableContext, orgId: string): Promise<Member[]> {
  const org = await existingOrganization(db, orgId);
  const { members } = await listUsers(db, orgId, { page: 1, limit: org.active_member_count + JOINING_MARGIN });
  return members;
}

/**
 * Every invitation of an organization, newest first, optionally of one status (expired is
 * derived at `now`), as List invites shows them. List invites reads every invite and pages
 * them in memory: here one page holds them all.
 */
export async function listAllInvites(
  db: TableContext,
  orgId: string,
  filter: { status?: InviteStatus },
  now: Date,
): Promise<ReturnType<typeof inviteView>[]> {
  await existingOrganization(db, orgId);
  const { data } = await listInvites({ db, now: () => now }, orgId, {
    status: filter.status,
    page: 1,
    limit: Number.MAX_SAFE_INTEGER,
  });
  return data;
}
