import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { MemberStatus, Role } from '../../shared/core/access';
import type { Caller } from '../../shared/auth/policy';
import type { IdTokenPrincipal } from '../../shared/auth/principal';
import { addMember, createOrganization, createUser, ensureMembership } from '../../shared/operator-tasks/directory';
import { sendInvitationEmail, type InvitationMailDeps } from '../../shared/domain/invites/send-invitation-email';
import { type InviteDeps } from '../../shared/domain/invites/invite-changes';
import { type InviteStatus } from '../../shared/domain/invites/invite-views';
import { hashInviteToken } from '../../shared/domain/invites/invite-tokens';
import { acceptInvite } from '../../shared/domain/invites/accept-invite';
import { listInvites } from '../../shared/domain/invites/list-invites';
import { resendInvite } from '../../shared/domain/invites/resend-invite';
import { revokeInvite } from '../../shared/domain/invites/revoke-invite';
import { sendInvite } from '../../shared/domain/invites/send-invite';
import { eventConsumer, type Delivery } from '../../shared/events/event-consumer';
import type { Actor, DomainEvent } from '../../shared/schemas/event-catalog';
import { MailError, type Email, type Mailer } from '../../shared/mail/mailer';
import type { TableContext } from '../../shared/storage/dynamo';
import { emailGuardItem, inviteItem, tokenItem, type InviteRecord } from '../../shared/storage/invite-items';
import { getInvite } from '../../shared/storage/invites';
import { keys } from '../../shared/storage/keys';
import { getMembership } from '../../shared/storage/memberships';
import { getOrganization } from '../../shared/storage/organizations';
import { findUserIdByEmail, findUserIdByIdentity, getUser } from '../../shared/storage/users';
import { localDeployment, sentEmails, unique } from '../support/api';
import { domainEvent, queuedEvents } from '../support/events';
import { isolatedTable } from '../support/invite-mail';
import { tableWithConflicts } from '../support/transaction-conflicts';

/**
 * The invite functions (shared/domain/invites/invites.ts) and the invitation mail consumer
 * (invitation-mail.ts) called directly, with a clock the tests move (expiry without
 * sleeping) and a mailer stub that keeps the emails, from which the tests read the accept
 * links as the invitee would. They run on a table of their own on the emulator, which no
 * event pipeline reads: the tests deliver the invite.created / invite.resent events to the
 * consumer themselves (as the processor derives them: docs/events.md), when and as often
 * as they choose, with a mailer that fails when they choose.
 */
const TTL_SECONDS = 3600;
const HOUR_MS = 3_600_000;
const ISSUER = 'https://issuer.example.com';
const APP_URL = 'https://app.example.com';
const MAX_ATTEMPTS = 5; // EVENT_CONSUMERS.sendInvitationEmail.maxAttempts

/**
 * A clock that starts at the real time (so the TTL attribute of what the tests write lies in
 * the future, and the emulator keeps it) and moves only when a test moves it.
 */
function testClock() {
  let current = Date.now();
  return {
    now: () => new Date(current),
    set: (at: string | number) => {
      current = typeof at === 'number' ? at : Date.parse(at);
    },
    advance: (ms: number) => {
      current += ms;
    },
  };
}

let db: TableContext;
let clock: ReturnType<typeof testClock>;
let mail: jest.Mock<Promise<void>, [Email]>;
let deps: InviteDeps;
let mailDeps: InvitationMailDeps;

beforeAll(async () => {
  db = await isolatedTable('invite-mail');
});

beforeEach(() => {
  clock = testClock();
  mail = jest.fn(async (_email: Email) => undefined);
  deps = { db, now: clock.now, settings: { ttlSeconds: TTL_SECONDS } };
  mailDeps = { db, mail, now: clock.now, settings: { appUrl: APP_URL } };
});

/** The token of the accept link in an email, as the invitee's app reads it. */
function tokenIn(email: Email | undefined): string {
  const link = email?.text.match(/https:\/\/app\.example\.com\/invites\/accept\?token=(\S+)/);
  if (!link?.[1]) throw new Error(`no accept link in ${JSON.stringify(email?.text)}`);
  return decodeURIComponent(link[1]);
}
const lastToken = () => tokenIn(mail.mock.calls.at(-1)?.[0]);

// ---------------------------------------------------------------------------------------
// Events and the consumer

const stored = async (orgId: string, inviteId: string): Promise<InviteRecord> => {
  const invite = await getInvite(db, orgId, inviteId);
  if (!invite) throw new Error(`no invite ${inviteId}`);
  return invite;
};

/** The event of the invite's current send, as the processor derives it from the invite's item (docs/events.md). */
async function sendEvent(
  orgId: string,
  inviteId: string,
  options: { actor?: Actor | null; correlationId?: string } = {},
): Promise<DomainEvent> {
  const invite = await stored(orgId, inviteId);
  return domainEvent({
    type: invite.resent_at ? 'invite.resent' : 'invite.created',
    org_id: orgId,
    resource: { type: 'invite', id: inviteId },
    occurred_at: invite.resent_at ?? invite.created_at,
    actor: options.actor ?? null,
    correlation_id: options.correlationId ?? null,
    data: { email: invite.email, role: invite.role, expires_at: invite.expires_at },
  });
}

const first: Delivery = { attempt: 1, last: false };

/** Delivers the event of the invite's current send once, as its first delivery; returns the outcome. */
async function deliver(orgId: string, inviteId: string, actor: Actor | null = null) {
  return sendInvitationEmail(mailDeps, await sendEvent(orgId, inviteId, { actor }), first);
}

/** The consumer's Lambda handler as the stack builds it (the same wrapper), with this test's table, clock and a mailer. */
const consumerWith = (mailer: Mailer) =>
  eventConsumer('sendInvitationEmail', async (event, delivery) => {
    await sendInvitationEmail({ ...mailDeps, mail: mailer }, event, delivery);
  });

const delivery = async (orgId: string, inviteId: string) => {
  const { email_status, email_sent_at, email_attempts, email_last_error } =
    (await listInvites(deps, orgId, { page: 1, limit: 100 })).data.find((i) => i.id === inviteId) ?? {};
  return { email_status, email_sent_at, email_attempts, email_last_error };
};

// ---------------------------------------------------------------------------------------
// Organizations and people

/** An organization with an owner, an admin, and a former member (removed). */
async function orgWithPeople(label: string) {
  const suffix = unique();
  const createdAt = clock.now();
  const org = await createOrganization(db, { id: `org_dinv_${label}_${suffix}`, name: `Invites ${label}` }, createdAt);
  const person = async (name: string, role: Role, status: MemberStatus = 'active') => {
    const user = await createUser(
      db,
      { id: `usr_${name}_${label}_${suffix}`, email: `${name}.${label}.${suffix}@example.com`, display_name: `${name} ${label}` },
      createdAt,
    );
    await addMember(db, { orgId: org.org_id, userId: user.user_id, role, status }, createdAt);
    return user;
  };
  const owner = await person('olga', 'owner');
  const admin = await person('adam', 'admin');
  const former = await person('fred', 'member', 'removed');
  const memberCaller = (user: { user_id: string }, role: Role): Caller => ({
    kind: 'id_token',
    orgId: org.org_id,
    userId: user.user_id,
    role,
    actor: user.user_id,
  });
  return {
    orgId: org.org_id,
    owner,
    admin,
    former,
    asOwner: memberCaller(owner, 'owner'),
    asAdmin: memberCaller(admin, 'admin'),
    /** The admin as events name them. */
    adminActor: { kind: 'user', id: admin.user_id } satisfies Actor,
    asOrgKey: {
      kind: 'org_key',
      orgId: org.org_id,
      keyId: `key_${suffix}`,
      scopes: ['invites:write'],
      actor: `key_${suffix}`,
    } satisfies Caller,
    /** A fresh address nobody uses yet. */
    address: (name: string) => `${name}.${label}.${suffix}@invitee.example.com`,
  };
}
type Org = Awaited<ReturnType<typeof orgWithPeople>>;

/** Sends an invite and delivers its email (the consumer's first delivery); returns the Invite as Send answered. */
async function sendAndMail(org: Org, caller: Caller, request: { email: string; role: Role }) {
  const sent = await sendInvite(deps, caller, request);
  await deliver(org.orgId, sent.id, caller === org.asAdmin ? org.adminActor : null);
  return sent;
}

/** Someone signed in with a verified email, as the authorizer resolves them. */
const signedIn = (email: string, extra: Partial<IdTokenPrincipal> = {}): IdTokenPrincipal => ({
  kind: 'id_token',
  issuer: ISSUER,
  subject: `sub_${unique()}`,
  email,
  emailVerified: true,
  name: 'Nina Newcomer',
  ...extra,
});

const statusesOf = async (orgId: string, email: string) =>
  (await listInvites(deps, orgId, { page: 1, limit: 100 })).data.filter((invite) => invite.email === email).map((invite) => invite.status);
const listed = async (orgId: string, status: InviteStatus) => (await listInvites(deps, orgId, { status, page: 1, limit: 100 })).data;
const activeMemberCount = async (orgId: string) => (await getOrganization(db, orgId))?.active_member_count;
const rawInvite = async (orgId: string, inviteId: string) =>
  (await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.invite(orgId, inviteId) }))).Item;
const anyToken = () => randomBytes(32).toString('base64url');

// ---------------------------------------------------------------------------------------

describe('sendInvite', () => {
  it('only commits: a pending invite whose email is queued, with no token yet (no link opens it) and no mailer involved', async () => {
    const org = await orgWithPeople('send');
    const email = org.address('nina');
    const sent = await sendInvite(deps, org.asAdmin, { email, role: 'member' });

    expect(sent).toEqual({
      id: expect.stringMatching(/^inv_/),
      email,
      role: 'member',
      status: 'pending',
      created_at: clock.now().toISOString(),
      expires_at: new Date(clock.now().getTime() + TTL_SECONDS * 1000).toISOString(),
      email_status: 'queued',
      email_sent_at: null,
      email_attempts: 0,
      email_last_error: null,
    });
    expect(mail).not.toHaveBeenCalled();
    expect(await rawInvite(org.orgId, sent.id)).not.toHaveProperty('token_hash');
    await expect(acceptInvite(deps, signedIn(email), anyToken())).rejects.toMatchObject({ statusCode: 404, code: 'INVITE_NOT_FOUND' });
  });

  it('the invitation mail consumer then emails a link that opens it, and records the email as sent', async () => {
    const org = await orgWithPeople('mailed');
    const email = org.address('nina');
    const sent = await sendInvite(deps, org.asAdmin, { email, role: 'member' });
    clock.advance(1500);

    await expect(deliver(org.orgId, sent.id, org.adminActor)).resolves.toEqual({ outcome: 'sent', attempts: 1 });

    expect(mail).toHaveBeenCalledTimes(1);
    expect(mail.mock.calls[0]?.[0]).toMatchObject({ to: email, subject: 'adam mailed invited you to join Invites mailed on Voice Org' });
    expect(await delivery(org.orgId, sent.id)).toEqual({
      email_status: 'sent',
      email_sent_at: clock.now().toISOString(),
      email_attempts: 1,
      email_last_error: null,
    });
    // Only the hash of the emailed token is stored.
    expect((await rawInvite(org.orgId, sent.id))?.token_hash).toBe(hashInviteToken(lastToken()));
    await expect(acceptInvite(deps, signedIn(email), lastToken())).resolves.toEqual({
      org_id: org.orgId,
      role: 'member',
      status: 'active',
    });
  });

  it('refuses a second invite to an email whose invite is pending (INVITE_PENDING)', async () => {
    const org = await orgWithPeople('guard');
    const email = org.address('twice');
    await sendInvite(deps, org.asAdmin, { email, role: 'member' });
    clock.advance(TTL_SECONDS * 1000 - 1);

    await expect(sendInvite(deps, org.asOwner, { email, role: 'admin' })).rejects.toMatchObject({
      statusCode: 409,
      code: 'INVITE_PENDING',
    });
    expect(await statusesOf(org.orgId, email)).toEqual(['pending']);
  });

  it('lets only an owner invite an owner', async () => {
    const org = await orgWithPeople('owner');
    for (const caller of [org.asAdmin, org.asOrgKey]) {
      await expect(sendInvite(deps, caller, { email: org.address('boss'), role: 'owner' })).rejects.toMatchObject({
        statusCode: 403,
        code: 'INSUFFICIENT_ROLE',
      });
    }
    await expect(sendInvite(deps, org.asOwner, { email: org.address('boss'), role: 'owner' })).resolves.toMatchObject({
      role: 'owner',
      status: 'pending',
    });
    // An org key invites the other roles.
    await expect(sendInvite(deps, org.asOrgKey, { email: org.address('helper'), role: 'admin' })).resolves.toMatchObject({ role: 'admin' });
  });

  it('refuses the email of an active member (ALREADY_MEMBER) but invites a former member back', async () => {
    const org = await orgWithPeople('member');
    await expect(sendInvite(deps, org.asOwner, { email: org.admin.email, role: 'member' })).rejects.toMatchObject({
      statusCode: 409,
      code: 'ALREADY_MEMBER',
    });
    await expect(sendInvite(deps, org.asOwner, { email: org.former.email, role: 'member' })).resolves.toMatchObject({
      email: org.former.email,
      status: 'pending',
    });
  });
});

describe('expiry, by moving the clock', () => {
  it('is pending until expires_at, then expired: not acceptable, and its email can be invited again', async () => {
    const org = await orgWithPeople('expiry');
    const email = org.address('late');
    const sent = await sendAndMail(org, org.asAdmin, { email, role: 'member' });
    const firstToken = lastToken();

    clock.set(Date.parse(sent.expires_at) - 1);
    expect(await statusesOf(org.orgId, email)).toEqual(['pending']);

    clock.set(sent.expires_at);
    expect((await listed(org.orgId, 'expired')).map((invite) => invite.id)).toEqual([sent.id]);
    await expect(acceptInvite(deps, signedIn(email), firstToken)).rejects.toMatchObject({ statusCode: 410, code: 'INVITE_EXPIRED' });

    // From that instant on, a new invite takes the expired invite's pending slot over.
    const again = await sendAndMail(org, org.asAdmin, { email, role: 'viewer' });
    expect(await statusesOf(org.orgId, email)).toEqual(['pending', 'expired']);
    await expect(acceptInvite(deps, signedIn(email), lastToken())).resolves.toMatchObject({ role: again.role });
  });
});

describe('resendInvite', () => {
  it('takes back the slot of an expired invite: pending again with a new expiry and its email queued; the old link stops at once, only the new one works', async () => {
    const org = await orgWithPeople('resend');
    const email = org.address('again');
    const sent = await sendAndMail(org, org.asAdmin, { email, role: 'member' });
    const oldToken = lastToken();

    clock.advance(2 * HOUR_MS);
    expect(await statusesOf(org.orgId, email)).toEqual(['expired']);
    await resendInvite(deps, org.asAdmin, sent.id);

    const [renewed] = await listed(org.orgId, 'pending');
    expect(renewed).toEqual({ ...sent, expires_at: new Date(clock.now().getTime() + TTL_SECONDS * 1000).toISOString() });
    expect(await stored(org.orgId, sent.id)).toMatchObject({ resent_at: clock.now().toISOString(), token_hash: undefined });
    // Before the consumer has run: the old link is dead, there is no new one yet.
    await expect(acceptInvite(deps, signedIn(email), oldToken)).rejects.toMatchObject({ statusCode: 404, code: 'INVITE_NOT_FOUND' });

    await expect(deliver(org.orgId, sent.id, org.adminActor)).resolves.toEqual({ outcome: 'sent', attempts: 1 });
    expect(mail).toHaveBeenCalledTimes(2);
    const newToken = lastToken();
    expect(newToken).not.toBe(oldToken);
    // The renewed invite holds the email again.
    await expect(sendInvite(deps, org.asAdmin, { email, role: 'member' })).rejects.toMatchObject({ code: 'INVITE_PENDING' });
    await expect(acceptInvite(deps, signedIn(email), oldToken)).rejects.toMatchObject({ statusCode: 404, code: 'INVITE_NOT_FOUND' });
    await expect(acceptInvite(deps, signedIn(email), newToken)).resolves.toMatchObject({ status: 'active' });
  });

  it('refuses when a newer invite took the expired slot (INVITE_PENDING), leaving the newer one working', async () => {
    const org = await orgWithPeople('newer');
    const email = org.address('newer');
    const older = await sendAndMail(org, org.asAdmin, { email, role: 'member' });
    clock.advance(2 * HOUR_MS);
    await sendAndMail(org, org.asAdmin, { email, role: 'viewer' });
    const newerToken = lastToken();

    await expect(resendInvite(deps, org.asAdmin, older.id)).rejects.toMatchObject({ statusCode: 409, code: 'INVITE_PENDING' });
    expect(await delivery(org.orgId, older.id)).toMatchObject({ email_status: 'sent' });
    await expect(acceptInvite(deps, signedIn(email), newerToken)).resolves.toMatchObject({ role: 'viewer' });
  });
});

describe('revokeInvite', () => {
  it('stops the link at once and frees the email for a new invite', async () => {
    const org = await orgWithPeople('revoke');
    const email = org.address('gone');
    const sent = await sendAndMail(org, org.asAdmin, { email, role: 'member' });
    const token = lastToken();

    clock.advance(60_000);
    await revokeInvite(deps, org.orgId, sent.id);
    await expect(acceptInvite(deps, signedIn(email), token)).rejects.toMatchObject({ statusCode: 410, code: 'INVITE_REVOKED' });
    await expect(revokeInvite(deps, org.orgId, sent.id)).rejects.toMatchObject({ statusCode: 409, code: 'INVITE_NOT_PENDING' });
    await expect(resendInvite(deps, org.asAdmin, sent.id)).rejects.toMatchObject({ statusCode: 409, code: 'INVITE_NOT_PENDING' });
    await expect(sendInvite(deps, org.asAdmin, { email, role: 'member' })).resolves.toMatchObject({ status: 'pending' });
    expect(await statusesOf(org.orgId, email)).toEqual(['pending', 'revoked']);
    // The email's delivery stays as it was.
    expect(await delivery(org.orgId, sent.id)).toMatchObject({ email_status: 'sent', email_attempts: 1 });
  });

  it('of an expired invite whose slot a newer invite holds, leaves the newer invite holding it', async () => {
    const org = await orgWithPeople('keep');
    const email = org.address('keep');
    const older = await sendInvite(deps, org.asAdmin, { email, role: 'member' });
    clock.advance(2 * HOUR_MS);
    await sendInvite(deps, org.asAdmin, { email, role: 'member' });

    await revokeInvite(deps, org.orgId, older.id);
    await expect(sendInvite(deps, org.asAdmin, { email, role: 'member' })).rejects.toMatchObject({ code: 'INVITE_PENDING' });
  });

  it('says INVITE_NOT_FOUND for an id of no invite of the organization', async () => {
    const org = await orgWithPeople('none');
    await expect(revokeInvite(deps, org.orgId, 'inv_missing')).rejects.toMatchObject({ statusCode: 404, code: 'INVITE_NOT_FOUND' });
  });
});

describe('acceptInvite', () => {
  it('creates a new person as a user with their email guard and identity link, and an active member', async () => {
    const org = await orgWithPeople('newuser');
    const email = org.address('nina');
    await sendAndMail(org, org.asAdmin, { email, role: 'member' });
    const before = await activeMemberCount(org.orgId);
    clock.advance(60_000);
    const acceptedAt = clock.now().toISOString();
    const nina = signedIn(email);

    await expect(acceptInvite(deps, nina, lastToken())).resolves.toEqual({ org_id: org.orgId, role: 'member', status: 'active' });

    const userId = await findUserIdByEmail(db, email);
    expect(userId).toMatch(/^usr_/);
    expect(await findUserIdByIdentity(db, ISSUER, nina.subject)).toBe(userId);
    expect(await getUser(db, userId ?? '')).toEqual({
      user_id: userId,
      email,
      display_name: 'Nina Newcomer',
      timezone: 'UTC',
      created_at: acceptedAt,
      updated_at: acceptedAt,
    });
    expect(await getMembership(db, org.orgId, userId ?? '')).toMatchObject({
      role: 'member',
      status: 'active',
      email,
      member_since: acceptedAt,
      created_at: acceptedAt,
      recording_count: 0,
      latest_recording_at: null,
    });
    expect(await activeMemberCount(org.orgId)).toBe((before ?? 0) + 1);
    expect(await statusesOf(org.orgId, email)).toEqual(['accepted']);
    // The email guard now belongs to the new user: nobody else can be created with it.
    await expect(createUser(db, { email, display_name: 'Impostor' }, clock.now())).rejects.toMatchObject({ code: 'USER_EXISTS' });
    // A member now: a new invite is refused as such, and the link reports the acceptance.
    await expect(sendInvite(deps, org.asAdmin, { email, role: 'member' })).rejects.toMatchObject({ code: 'ALREADY_MEMBER' });
    await expect(acceptInvite(deps, nina, tokenIn(mail.mock.calls[0]?.[0]))).rejects.toMatchObject({
      statusCode: 409,
      code: 'INVITE_ALREADY_ACCEPTED',
    });
    // Accepting changed the invite's status only: its email's delivery stays recorded, and its TTL is gone.
    expect(await rawInvite(org.orgId, (await listed(org.orgId, 'accepted'))[0]?.id ?? '')).toMatchObject({
      email_status: 'sent',
      email_attempts: 1,
    });
  });

  it('reactivates a former member with the invite role, keeping when the membership began', async () => {
    const org = await orgWithPeople('back');
    const previous = await getMembership(db, org.orgId, org.former.user_id);
    await sendAndMail(org, org.asAdmin, { email: org.former.email, role: 'admin' });
    const before = await activeMemberCount(org.orgId);
    clock.advance(60_000);

    // First sign-in of a user the CLI created: no identity link yet, found by the verified email.
    await acceptInvite(deps, signedIn(org.former.email), lastToken());

    expect(await findUserIdByEmail(db, org.former.email)).toBe(org.former.user_id);
    expect(await getMembership(db, org.orgId, org.former.user_id)).toMatchObject({
      role: 'admin',
      status: 'active',
      created_at: previous?.created_at,
      member_since: clock.now().toISOString(),
      display_name: org.former.display_name,
    });
    expect(await activeMemberCount(org.orgId)).toBe((before ?? 0) + 1);
  });

  it('gives a member who became active meanwhile the invite role without counting them twice', async () => {
    const org = await orgWithPeople('meanwhile');
    await sendAndMail(org, org.asAdmin, { email: org.former.email, role: 'viewer' });
    await ensureMembership(db, { orgId: org.orgId, userId: org.former.user_id, role: 'member', status: 'active' }, clock.now());
    const activeSince = (await getMembership(db, org.orgId, org.former.user_id))?.member_since;
    const before = await activeMemberCount(org.orgId);

    await acceptInvite(deps, signedIn(org.former.email, { userId: org.former.user_id }), lastToken());

    expect(await getMembership(db, org.orgId, org.former.user_id)).toMatchObject({
      role: 'viewer',
      status: 'active',
      member_since: activeSince,
    });
    expect(await activeMemberCount(org.orgId)).toBe(before);
  });

  it('refuses someone whose verified email is not the invite’s', async () => {
    const org = await orgWithPeople('mismatch');
    const email = org.address('right');
    await sendAndMail(org, org.asAdmin, { email, role: 'member' });
    const token = lastToken();
    for (const principal of [signedIn(org.address('wrong')), signedIn(email, { emailVerified: false })]) {
      await expect(acceptInvite(deps, principal, token)).rejects.toMatchObject({ statusCode: 403, code: 'INVITE_EMAIL_MISMATCH' });
    }
    expect(await statusesOf(org.orgId, email)).toEqual(['pending']);
  });

  it('accepts after a TransactionConflict (DynamoDB raises it, DynamoDB Local never does): planned again, one more member', async () => {
    const org = await orgWithPeople('conflict');
    const email = org.address('retried');
    await sendAndMail(org, org.asAdmin, { email, role: 'member' });
    const before = await activeMemberCount(org.orgId);
    const { table, transactions } = tableWithConflicts(db, [1]);

    await expect(acceptInvite({ ...deps, db: table }, signedIn(email), lastToken())).resolves.toEqual({
      org_id: org.orgId,
      role: 'member',
      status: 'active',
    });

    expect(transactions()).toBe(2);
    expect(await activeMemberCount(org.orgId)).toBe((before ?? 0) + 1);
    expect(await getMembership(db, org.orgId, (await findUserIdByEmail(db, email)) ?? '')).toMatchObject({ status: 'active' });
  });

  it('answers 409 CONCURRENT_UPDATE when it keeps conflicting, never "already accepted", and the invite stays pending', async () => {
    const org = await orgWithPeople('lost');
    const email = org.address('unlucky');
    const sent = await sendAndMail(org, org.asAdmin, { email, role: 'member' });
    const { table, transactions } = tableWithConflicts(db, 'always');

    await expect(acceptInvite({ ...deps, db: table }, signedIn(email), lastToken())).rejects.toMatchObject({
      statusCode: 409,
      code: 'CONCURRENT_UPDATE',
    });

    expect(transactions()).toBe(10);
    expect(await stored(org.orgId, sent.id)).toMatchObject({ status: 'pending' });
    expect(await findUserIdByEmail(db, email)).toBeUndefined();
  });

  it('of concurrent accepts of one link, lets exactly one win: one user, one more member', async () => {
    const org = await orgWithPeople('race');
    const email = org.address('racer');
    await sendAndMail(org, org.asAdmin, { email, role: 'member' });
    const token = lastToken();
    const before = await activeMemberCount(org.orgId);
    const racer = signedIn(email);

    const results = await Promise.allSettled(Array.from({ length: 5 }, () => acceptInvite(deps, racer, token)));

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refusals = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(refusals).toHaveLength(4);
    for (const refusal of refusals) expect(refusal).toMatchObject({ statusCode: 409, code: 'INVITE_ALREADY_ACCEPTED' });
    expect(await activeMemberCount(org.orgId)).toBe((before ?? 0) + 1);
    const userId = await findUserIdByEmail(db, email);
    expect(await findUserIdByIdentity(db, ISSUER, racer.subject)).toBe(userId);
    expect(await getMembership(db, org.orgId, userId ?? '')).toMatchObject({ status: 'active' });
  });
});

describe('the invitation mail consumer', () => {
  describe('fault injection: a failing mailer', () => {
    it('is retried with each attempt and its code recorded, `failed` after the last attempt; a resend is then emailed and its link works', async () => {
      const org = await orgWithPeople('failing');
      const email = org.address('unlucky');
      const sent = await sendInvite(deps, org.asAdmin, { email, role: 'viewer' });
      const event = await sendEvent(org.orgId, sent.id, { actor: org.adminActor });
      const down = jest.fn(async (_email: Email) => {
        throw new MailError('MAIL_UNAVAILABLE');
      });
      const handler = consumerWith(down);

      // Every delivery but the last: the attempt and its code are recorded, the email stays queued, the queue is told to retry.
      for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
        const batch = queuedEvents([event], attempt);
        expect(await handler(batch)).toEqual({ batchItemFailures: [{ itemIdentifier: batch.Records[0]?.messageId }] });
        expect(await delivery(org.orgId, sent.id)).toEqual({
          email_status: 'queued',
          email_sent_at: null,
          email_attempts: attempt,
          email_last_error: 'MAIL_UNAVAILABLE',
        });
      }
      // The last delivery: failed, and the message is done (no retry).
      expect(await handler(queuedEvents([event], MAX_ATTEMPTS))).toEqual({ batchItemFailures: [] });
      expect(down).toHaveBeenCalledTimes(MAX_ATTEMPTS);
      expect(await delivery(org.orgId, sent.id)).toEqual({
        email_status: 'failed',
        email_sent_at: null,
        email_attempts: MAX_ATTEMPTS,
        email_last_error: 'MAIL_UNAVAILABLE',
      });
      expect(await statusesOf(org.orgId, email)).toEqual(['pending']);
      // A late redelivery of the same event changes nothing.
      expect(await handler(queuedEvents([event], MAX_ATTEMPTS + 1))).toEqual({ batchItemFailures: [] });
      expect(down).toHaveBeenCalledTimes(MAX_ATTEMPTS);

      // Resend works on the failed invite: a new send, queued from scratch...
      clock.advance(60_000);
      await resendInvite(deps, org.asAdmin, sent.id);
      expect(await delivery(org.orgId, sent.id)).toEqual({
        email_status: 'queued',
        email_sent_at: null,
        email_attempts: 0,
        email_last_error: null,
      });
      // ...whose event's first delivery, the mail server back, sends it.
      const resent = await sendEvent(org.orgId, sent.id, { actor: org.adminActor });
      expect(resent.type).toBe('invite.resent');
      expect(await consumerWith(mail)(queuedEvents([resent], 1))).toEqual({ batchItemFailures: [] });
      expect(mail).toHaveBeenCalledTimes(1);
      expect(await delivery(org.orgId, sent.id)).toEqual({
        email_status: 'sent',
        email_sent_at: clock.now().toISOString(),
        email_attempts: 1,
        email_last_error: null,
      });
      await expect(acceptInvite(deps, signedIn(email), lastToken())).resolves.toEqual({
        org_id: org.orgId,
        role: 'viewer',
        status: 'active',
      });
    });

    it('records a refusal as MAIL_REJECTED and anything else a mailer throws as MAIL_UNAVAILABLE, never a message or stack', async () => {
      const org = await orgWithPeople('codes');
      const cases = [
        [new MailError('MAIL_REJECTED'), 'MAIL_REJECTED'],
        [new Error('connect ECONNREFUSED 127.0.0.1:9 for nina@example.com'), 'MAIL_UNAVAILABLE'],
      ] as const;
      for (const [error, code] of cases) {
        const sent = await sendInvite(deps, org.asAdmin, { email: org.address(code.toLowerCase()), role: 'member' });
        const failing = async () => {
          throw error;
        };
        await expect(sendInvitationEmail({ ...mailDeps, mail: failing }, await sendEvent(org.orgId, sent.id), first)).rejects.toBe(error);
        expect(await delivery(org.orgId, sent.id)).toEqual({
          email_status: 'queued',
          email_sent_at: null,
          email_attempts: 1,
          email_last_error: code,
        });
      }
    });

    it('when SES accepted an email but the attempt ended before recording it, the retry sends a second email whose link replaces the first', async () => {
      const org = await orgWithPeople('crash');
      const email = org.address('twice');
      const sent = await sendInvite(deps, org.asAdmin, { email, role: 'member' });
      const event = await sendEvent(org.orgId, sent.id);
      // The email leaves, then the attempt fails before its outcome is written (as a crash would).
      const leavesThenFails = jest.fn(async (message: Email) => {
        await mail(message);
        throw new Error('timed out');
      });
      await expect(sendInvitationEmail({ ...mailDeps, mail: leavesThenFails }, event, first)).rejects.toThrow('timed out');
      const firstLink = lastToken();

      await expect(sendInvitationEmail(mailDeps, event, { attempt: 2, last: false })).resolves.toEqual({ outcome: 'sent', attempts: 2 });
      expect(mail).toHaveBeenCalledTimes(2);
      await expect(acceptInvite(deps, signedIn(email), firstLink)).rejects.toMatchObject({ statusCode: 404, code: 'INVITE_NOT_FOUND' });
      await expect(acceptInvite(deps, signedIn(email), lastToken())).resolves.toMatchObject({ status: 'active' });
    });
  });

  describe('idempotent by event', () => {
    it('a redelivered event (in one batch, and later) sends one email', async () => {
      const org = await orgWithPeople('dup');
      const sent = await sendInvite(deps, org.asAdmin, { email: org.address('once'), role: 'member' });
      const event = await sendEvent(org.orgId, sent.id);
      const handler = consumerWith(mail);

      expect(await handler(queuedEvents([event, event]))).toEqual({ batchItemFailures: [] });
      expect(await handler(queuedEvents([event], 2))).toEqual({ batchItemFailures: [] });
      await expect(sendInvitationEmail(mailDeps, event, first)).resolves.toEqual({ outcome: 'skipped', reason: 'already_delivered' });
      expect(mail).toHaveBeenCalledTimes(1);
      expect(await delivery(org.orgId, sent.id)).toMatchObject({ email_status: 'sent', email_attempts: 1 });
      await expect(acceptInvite(deps, signedIn(sent.email), lastToken())).resolves.toMatchObject({ status: 'active' });
    });

    it('an invite revoked before its email left gets none: its email stays queued', async () => {
      const org = await orgWithPeople('revoked');
      const sent = await sendInvite(deps, org.asAdmin, { email: org.address('never'), role: 'member' });
      const event = await sendEvent(org.orgId, sent.id);
      await revokeInvite(deps, org.orgId, sent.id);

      await expect(sendInvitationEmail(mailDeps, event, first)).resolves.toEqual({ outcome: 'skipped', reason: 'not_pending' });
      expect(mail).not.toHaveBeenCalled();
      expect(await delivery(org.orgId, sent.id)).toEqual({
        email_status: 'queued',
        email_sent_at: null,
        email_attempts: 0,
        email_last_error: null,
      });
    });

    it('an invite that expired before its email left gets none', async () => {
      const org = await orgWithPeople('late');
      const sent = await sendInvite(deps, org.asAdmin, { email: org.address('late'), role: 'member' });
      const event = await sendEvent(org.orgId, sent.id);
      clock.set(sent.expires_at);
      await expect(sendInvitationEmail(mailDeps, event, first)).resolves.toEqual({ outcome: 'skipped', reason: 'not_pending' });
      expect(mail).not.toHaveBeenCalled();
    });

    it('an event of a send that a resend replaced sends nothing: only the latest send’s event emails', async () => {
      const org = await orgWithPeople('stale');
      const sent = await sendInvite(deps, org.asAdmin, { email: org.address('stale'), role: 'member' });
      const created = await sendEvent(org.orgId, sent.id);
      clock.advance(1000);
      await resendInvite(deps, org.asAdmin, sent.id);
      const firstResend = await sendEvent(org.orgId, sent.id);
      clock.advance(1000);
      await resendInvite(deps, org.asAdmin, sent.id);
      const secondResend = await sendEvent(org.orgId, sent.id);

      for (const event of [created, firstResend]) {
        await expect(sendInvitationEmail(mailDeps, event, first)).resolves.toEqual({ outcome: 'skipped', reason: 'superseded' });
      }
      expect(mail).not.toHaveBeenCalled();
      await expect(sendInvitationEmail(mailDeps, secondResend, first)).resolves.toEqual({ outcome: 'sent', attempts: 1 });
      expect(mail).toHaveBeenCalledTimes(1);
    });

    it('an event for an invite that is gone (removed by TTL) is done', async () => {
      const org = await orgWithPeople('gone');
      const event = domainEvent({ type: 'invite.created', org_id: org.orgId, resource: { type: 'invite', id: 'inv_gone' } });
      await expect(sendInvitationEmail(mailDeps, event, first)).resolves.toEqual({ outcome: 'skipped', reason: 'gone' });
    });
  });

  it('names who sent or resent the invitation: a member by name, an organization key (or the service) as "An administrator"', async () => {
    const org = await orgWithPeople('names');
    const byAdmin = await sendInvite(deps, org.asAdmin, { email: org.address('a'), role: 'member' });
    const byKey = await sendInvite(deps, org.asOrgKey, { email: org.address('b'), role: 'member' });
    await deliver(org.orgId, byAdmin.id, org.adminActor);
    await deliver(org.orgId, byKey.id, { kind: 'api_key', id: org.asOrgKey.keyId });
    expect(mail.mock.calls.map(([email]) => email.subject)).toEqual([
      'adam names invited you to join Invites names on Voice Org',
      'An administrator invited you to join Invites names on Voice Org',
    ]);
  });

  it('stamps its writes with the event’s change context: no actor, the event’s correlation id', async () => {
    const org = await orgWithPeople('stamp');
    const sent = await sendInvite(deps, org.asAdmin, { email: org.address('stamped'), role: 'member' });
    const event = await sendEvent(org.orgId, sent.id, { actor: org.adminActor, correlationId: 'req-invite-1' });
    expect(await consumerWith(mail)(queuedEvents([event]))).toEqual({ batchItemFailures: [] });
    expect((await rawInvite(org.orgId, sent.id))?.last_change).toMatchObject({ actor: null, correlation_id: 'req-invite-1' });
  });

  it('an invitation stored before delivery states existed reads as sent (and is not emailed again); a resend emails it', async () => {
    const org = await orgWithPeople('legacy');
    const email = org.address('old');
    const now = clock.now().toISOString();
    const oldToken = anyToken();
    const old: InviteRecord & { token_hash: string } = {
      id: `inv_legacy_${unique()}`,
      org_id: org.orgId,
      email,
      role: 'member',
      status: 'pending',
      created_at: now,
      updated_at: now,
      expires_at: new Date(clock.now().getTime() + TTL_SECONDS * 1000).toISOString(),
      invited_by: org.admin.user_id,
      token_hash: hashInviteToken(oldToken),
      delivery: { status: 'sent', sent_at: null, attempts: 1, last_error: null },
    };
    // Written as the inline send stored it: no email_* attributes.
    const { email_status: _s, email_sent_at: _at, email_attempts: _n, email_last_error: _e, last_change: _c, ...legacy } = inviteItem(old);
    for (const Item of [legacy, tokenItem(old, old.token_hash), emailGuardItem(old)])
      await db.client.send(new PutCommand({ TableName: db.tableName, Item }));

    expect(await delivery(org.orgId, old.id)).toEqual({
      email_status: 'sent',
      email_sent_at: null,
      email_attempts: 1,
      email_last_error: null,
    });
    await expect(sendInvitationEmail(mailDeps, await sendEvent(org.orgId, old.id), first)).resolves.toEqual({
      outcome: 'skipped',
      reason: 'already_delivered',
    });

    await resendInvite(deps, org.asAdmin, old.id);
    await expect(acceptInvite(deps, signedIn(email), oldToken)).rejects.toMatchObject({ statusCode: 404 });
    await expect(deliver(org.orgId, old.id)).resolves.toEqual({ outcome: 'sent', attempts: 1 });
    await expect(acceptInvite(deps, signedIn(email), lastToken())).resolves.toMatchObject({ status: 'active' });
  });

  it('the function module sends through the configured mailer (the local SES emulator) to the configured app URL', async () => {
    const { runtime } = localDeployment();
    Object.assign(process.env, {
      TABLE_NAME: db.tableName,
      DYNAMODB_ENDPOINT: runtime.dynamoDbEndpoint,
      AWS_REGION: runtime.region,
      SES_ENDPOINT: runtime.sesEndpoint,
      APP_URL: APP_URL,
      POWERTOOLS_LOG_LEVEL: 'ERROR',
    });
    const { handler } = await import('../../functions/events/send-invitation-email');
    const org = await orgWithPeople('module');
    const sent = await sendInvite({ ...deps, now: () => new Date() }, org.asAdmin, { email: org.address('real'), role: 'member' });

    expect(await handler(queuedEvents([await sendEvent(org.orgId, sent.id, { actor: org.adminActor })]))).toEqual({
      batchItemFailures: [],
    });
    const [email] = await sentEmails(sent.email);
    expect(email?.subject).toBe('adam module invited you to join Invites module on Voice Org');
    expect(email?.body.text).toContain(`${APP_URL}/invites/accept?token=`);
    expect(await delivery(org.orgId, sent.id)).toMatchObject({ email_status: 'sent', email_attempts: 1 });
  });
});
