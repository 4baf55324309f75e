import { pagePagination } from '../../core/page-pagination';
import * as inviteStore from '../../storage/invites';
import { InviteDeps } from './invite-changes';
import { InviteStatus } from './invite-views';
import { inviteView, statusOf } from './invite-views';

/** The organization's invites, newest first, optionally of one status (expired is derived). */
export async function listInvites(
  deps: Pick<InviteDeps, 'db' | 'now'>,
  orgId: string,
  query: { status?: InviteStatus; page: number; limit: number },
) {
  const now = deps.now();
  const invites = (await inviteStore.listInvites(deps.db, orgId)).filter(
    (invite) => !query.status || statusOf(invite, now) === query.status,
  );
  const offset = (query.page - 1) * query.limit;
  return {
    data: invites.slice(offset, offset + query.limit).map((invite) => inviteView(invite, now)),
    pagination: pagePagination(query.page, query.limit, invites.length),
  };
}
