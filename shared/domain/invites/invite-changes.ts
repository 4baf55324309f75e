import { ConflictError, NotFoundError } from '../../core/errors';
import type { TableContext } from '../../storage/dynamo';
import { type InviteRecord } from '../../storage/invite-items';
import { getEmailGuard, getInvite } from '../../storage/invites';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { statusOf } from './invite-views';

/**
 * What the invite functions need. No mailer: sending and resending only commit, and the
 * invitation mail consumer (invitation-mail.ts) sends the email from the event.
 */
export interface InviteDeps {
  db: TableContext;
  now: () => Date;
  settings: { ttlSeconds: number };
}

/** Attempts before a send, revoke or resend that keeps losing races gives up with 409. */
const ATTEMPTS = 10;

/**
 * Runs a read-plan-commit step of an invite change until it commits: a transaction that
 * lost a race (a failed condition, or DynamoDB's TransactionConflict when another
 * transaction wrote one of its items at that moment) is planned again on a fresh read,
 * which decides the answer (the invite revoked meanwhile, say). A step throws its final
 * refusals itself; 409 CONCURRENT_UPDATE only when it keeps losing.
 */
export function committed<T>(step: (attempt: number) => Promise<T>): Promise<T> {
  return retryOnWriteConflict(step, {
    attempts: ATTEMPTS,
    exhausted: () => new ConflictError('CONCURRENT_UPDATE', 'The invitation kept changing under this request; retry it.'),
  });
}

/**
 * The invite as a step reads it: after a lost race, strongly consistent, so that the
 * answer is judged on what the winner wrote.
 */
export async function readInvite(db: TableContext, orgId: string, inviteId: string, attempt: number): Promise<InviteRecord> {
  const invite = await getInvite(db, orgId, inviteId, { consistent: attempt > 1 });
  if (!invite) throw inviteNotFound(inviteId);
  return invite;
}

/** When an invite sent or resent at `now` stops working. */
export const expiryFrom = (now: Date, settings: InviteDeps['settings']) =>
  new Date(now.getTime() + settings.ttlSeconds * 1000).toISOString();

function inviteNotFound(inviteId: string) {
  return new NotFoundError('INVITE_NOT_FOUND', `Invitation ${inviteId} does not exist in this organization.`);
}

export function notPending(invite: InviteRecord, now: Date) {
  return new ConflictError('INVITE_NOT_PENDING', `Invitation ${invite.id} is ${statusOf(invite, now)}, not pending.`);
}

/**
 * Whether the invite holds its email's pending slot: a newer invite may have taken it over
 * once this one expired, and then leaving this invite must not free it.
 */
export async function holdsEmailSlot(db: TableContext, invite: InviteRecord): Promise<boolean> {
  return (await getEmailGuard(db, invite.org_id, invite.email))?.invite_id === invite.id;
}
