import type { MemberStatus, Role } from '../../shared/auth/access';
import type { Caller } from '../../shared/auth/policy';
import type { IdTokenPrincipal } from '../../shared/auth/principal';
import { addMember, createOrganization, createUser, ensureMembership } from '../../shared/domain/admin/directory';
import {
  acceptInvite,
  listOrganizationInvites,
  resendInvite,
  revokeInvite,
  sendInvite,
  type InviteDeps,
  type InviteStatus,
} from '../../shared/domain/invites/invites';
import type { Email } from '../../shared/mail/mailer';
import { getMembership } from '../../shared/storage/memberships';
import { getOrganization } from '../../shared/storage/organizations';
import { findUserIdByEmail, findUserIdByIdentity, getUser } from '../../shared/storage/users';
import { localDeployment, unique } from '../support/api';

/**
 * The invite functions (shared/domain/invites/invites.ts) called directly, against the
 * emulator's table, with a clock the tests move (expiry without sleeping) and a mailer stub
 * that keeps the emails, from which the tests read the accept links as the invitee would.
 */
const { db } = localDeployment();
const TTL_SECONDS = 3600;
const HOUR_MS = 3_600_000;
const ISSUER = 'https://issuer.example.com';

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

let clock: ReturnType<typeof testClock>;
let mail: jest.Mock<Promise<void>, [Email]>;
let deps: InviteDeps;

beforeEach(() => {
  clock = testClock();
  mail = jest.fn(async (_email: Email) => undefined);
  deps = { db, mail, now: clock.now, settings: { appUrl: 'https://app.example.com', ttlSeconds: TTL_SECONDS } };
});

/** The token of the accept link in an email, as the invitee's app reads it. */
function tokenIn(email: Email | undefined): string {
  const link = email?.text.match(/https:\/\/app\.example\.com\/invites\/accept\?token=(\S+)/);
  if (!link?.[1]) throw new Error(`no accept link in ${JSON.stringify(email?.text)}`);
  return decodeURIComponent(link[1]);
}
const lastToken = () => tokenIn(mail.mock.calls.at(-1)?.[0]);

/** An organization with an owner, an admin, and a former member (removed). */
async function orgWithPeople(label: string) {
  const suffix = unique();
  const createdAt = clock.now();
  const org = await createOrganization(db, { id: `org_dinv_${label}_${suffix}`, name: `Invites ${label}` }, createdAt);
  const person = async (name: string, role: Role, status: MemberStatus = 'active') => {
    const user = await createUser(db, { id: `usr_${name}_${label}_${suffix}`, email: `${name}.${label}.${suffix}@example.com`, display_name: `${name} ${label}` }, createdAt);
    await addMember(db, { orgId: org.org_id, userId: user.user_id, role, status }, createdAt);
    return user;
  };
  const owner = await person('olga', 'owner');
  const admin = await person('adam', 'admin');
  const former = await person('fred', 'member', 'removed');
  const memberCaller = (user: { user_id: string }, role: Role): Caller => ({ kind: 'id_token', orgId: org.org_id, userId: user.user_id, role, actor: user.user_id });
  return {
    orgId: org.org_id,
    owner,
    admin,
    former,
    asOwner: memberCaller(owner, 'owner'),
    asAdmin: memberCaller(admin, 'admin'),
    asOrgKey: { kind: 'org_key', orgId: org.org_id, keyId: `key_${suffix}`, scopes: ['invites:write'], actor: `key_${suffix}` } satisfies Caller,
    /** A fresh address nobody uses yet. */
    address: (name: string) => `${name}.${label}.${suffix}@invitee.example.com`,
  };
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
  (await listOrganizationInvites(deps, orgId, { page: 1, limit: 100 })).data.filter((invite) => invite.email === email).map((invite) => invite.status);
const listed = async (orgId: string, status: InviteStatus) => (await listOrganizationInvites(deps, orgId, { status, page: 1, limit: 100 })).data;
const activeMemberCount = async (orgId: string) => (await getOrganization(db, orgId))?.active_member_count;

describe('sendInvite', () => {
  it('stores a pending invite expiring after the TTL and emails a link that opens it', async () => {
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
    });
    expect(mail).toHaveBeenCalledTimes(1);
    expect(mail.mock.calls[0]?.[0]).toMatchObject({ to: email, subject: 'adam send invited you to join Invites send on Voice Org' });
    await expect(acceptInvite(deps, signedIn(email), lastToken())).resolves.toEqual({ org_id: org.orgId, role: 'member', status: 'active' });
  });

  it('refuses a second invite to an email whose invite is pending (INVITE_PENDING), and sends nothing', async () => {
    const org = await orgWithPeople('guard');
    const email = org.address('twice');
    await sendInvite(deps, org.asAdmin, { email, role: 'member' });
    clock.advance(TTL_SECONDS * 1000 - 1);

    await expect(sendInvite(deps, org.asOwner, { email, role: 'admin' })).rejects.toMatchObject({ statusCode: 409, code: 'INVITE_PENDING' });
    expect(mail).toHaveBeenCalledTimes(1);
    expect(await statusesOf(org.orgId, email)).toEqual(['pending']);
  });

  it('lets only an owner invite an owner', async () => {
    const org = await orgWithPeople('owner');
    for (const caller of [org.asAdmin, org.asOrgKey]) {
      await expect(sendInvite(deps, caller, { email: org.address('boss'), role: 'owner' })).rejects.toMatchObject({ statusCode: 403, code: 'INSUFFICIENT_ROLE' });
    }
    expect(mail).not.toHaveBeenCalled();
    await expect(sendInvite(deps, org.asOwner, { email: org.address('boss'), role: 'owner' })).resolves.toMatchObject({ role: 'owner', status: 'pending' });
    // An org key invites the other roles.
    await expect(sendInvite(deps, org.asOrgKey, { email: org.address('helper'), role: 'admin' })).resolves.toMatchObject({ role: 'admin' });
  });

  it('refuses the email of an active member (ALREADY_MEMBER) but invites a former member back', async () => {
    const org = await orgWithPeople('member');
    await expect(sendInvite(deps, org.asOwner, { email: org.admin.email, role: 'member' })).rejects.toMatchObject({ statusCode: 409, code: 'ALREADY_MEMBER' });
    await expect(sendInvite(deps, org.asOwner, { email: org.former.email, role: 'member' })).resolves.toMatchObject({ email: org.former.email, status: 'pending' });
  });
});

describe('expiry, by moving the clock', () => {
  it('is pending until expires_at, then expired: not acceptable, and its email can be invited again', async () => {
    const org = await orgWithPeople('expiry');
    const email = org.address('late');
    const sent = await sendInvite(deps, org.asAdmin, { email, role: 'member' });
    const firstToken = lastToken();

    clock.set(Date.parse(sent.expires_at) - 1);
    expect(await statusesOf(org.orgId, email)).toEqual(['pending']);

    clock.set(sent.expires_at);
    expect((await listed(org.orgId, 'expired')).map((invite) => invite.id)).toEqual([sent.id]);
    await expect(acceptInvite(deps, signedIn(email), firstToken)).rejects.toMatchObject({ statusCode: 410, code: 'INVITE_EXPIRED' });

    // From that instant on, a new invite takes the expired invite's pending slot over.
    const again = await sendInvite(deps, org.asAdmin, { email, role: 'viewer' });
    expect(await statusesOf(org.orgId, email)).toEqual(['pending', 'expired']);
    await expect(acceptInvite(deps, signedIn(email), lastToken())).resolves.toMatchObject({ role: again.role });
  });
});

describe('resendInvite', () => {
  it('takes back the slot of an expired invite: pending again with a new expiry, only the new link works', async () => {
    const org = await orgWithPeople('resend');
    const email = org.address('again');
    const sent = await sendInvite(deps, org.asAdmin, { email, role: 'member' });
    const oldToken = lastToken();

    clock.advance(2 * HOUR_MS);
    expect(await statusesOf(org.orgId, email)).toEqual(['expired']);
    await resendInvite(deps, org.asAdmin, sent.id);

    const [renewed] = await listed(org.orgId, 'pending');
    expect(renewed).toEqual({ ...sent, expires_at: new Date(clock.now().getTime() + TTL_SECONDS * 1000).toISOString() });
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
    const older = await sendInvite(deps, org.asAdmin, { email, role: 'member' });
    clock.advance(2 * HOUR_MS);
    await sendInvite(deps, org.asAdmin, { email, role: 'viewer' });
    const newerToken = lastToken();

    await expect(resendInvite(deps, org.asAdmin, older.id)).rejects.toMatchObject({ statusCode: 409, code: 'INVITE_PENDING' });
    expect(mail).toHaveBeenCalledTimes(2);
    await expect(acceptInvite(deps, signedIn(email), newerToken)).resolves.toMatchObject({ role: 'viewer' });
  });
});

describe('revokeInvite', () => {
  it('stops the link at once and frees the email for a new invite', async () => {
    const org = await orgWithPeople('revoke');
    const email = org.address('gone');
    const sent = await sendInvite(deps, org.asAdmin, { email, role: 'member' });
    const token = lastToken();

    clock.advance(60_000);
    await revokeInvite(deps, org.orgId, sent.id);
    await expect(acceptInvite(deps, signedIn(email), token)).rejects.toMatchObject({ statusCode: 410, code: 'INVITE_REVOKED' });
    await expect(revokeInvite(deps, org.orgId, sent.id)).rejects.toMatchObject({ statusCode: 409, code: 'INVITE_NOT_PENDING' });
    await expect(resendInvite(deps, org.asAdmin, sent.id)).rejects.toMatchObject({ statusCode: 409, code: 'INVITE_NOT_PENDING' });
    await expect(sendInvite(deps, org.asAdmin, { email, role: 'member' })).resolves.toMatchObject({ status: 'pending' });
    expect(await statusesOf(org.orgId, email)).toEqual(['pending', 'revoked']);
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
    await sendInvite(deps, org.asAdmin, { email, role: 'member' });
    const before = await activeMemberCount(org.orgId);
    clock.advance(60_000);
    const acceptedAt = clock.now().toISOString();
    const nina = signedIn(email);

    await expect(acceptInvite(deps, nina, lastToken())).resolves.toEqual({ org_id: org.orgId, role: 'member', status: 'active' });

    const userId = await findUserIdByEmail(db, email);
    expect(userId).toMatch(/^usr_/);
    expect(await findUserIdByIdentity(db, ISSUER, nina.subject)).toBe(userId);
    expect(await getUser(db, userId ?? '')).toEqual({ user_id: userId, email, display_name: 'Nina Newcomer', timezone: 'UTC', created_at: acceptedAt, updated_at: acceptedAt });
    expect(await getMembership(db, org.orgId, userId ?? '')).toMatchObject({ role: 'member', status: 'active', email, member_since: acceptedAt, created_at: acceptedAt, recording_count: 0, latest_recording_at: null });
    expect(await activeMemberCount(org.orgId)).toBe((before ?? 0) + 1);
    expect(await statusesOf(org.orgId, email)).toEqual(['accepted']);
    // The email guard now belongs to the new user: nobody else can be created with it.
    await expect(createUser(db, { email, display_name: 'Impostor' }, clock.now())).rejects.toMatchObject({ code: 'USER_EXISTS' });
    // A member now: a new invite is refused as such, and the link reports the acceptance.
    await expect(sendInvite(deps, org.asAdmin, { email, role: 'member' })).rejects.toMatchObject({ code: 'ALREADY_MEMBER' });
    await expect(acceptInvite(deps, nina, tokenIn(mail.mock.calls[0]?.[0]))).rejects.toMatchObject({ statusCode: 409, code: 'INVITE_ALREADY_ACCEPTED' });
  });

  it('reactivates a former member with the invite role, keeping when the membership began', async () => {
    const org = await orgWithPeople('back');
    const previous = await getMembership(db, org.orgId, org.former.user_id);
    await sendInvite(deps, org.asAdmin, { email: org.former.email, role: 'admin' });
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
    await sendInvite(deps, org.asAdmin, { email: org.former.email, role: 'viewer' });
    await ensureMembership(db, { orgId: org.orgId, userId: org.former.user_id, role: 'member', status: 'active' }, clock.now());
    const activeSince = (await getMembership(db, org.orgId, org.former.user_id))?.member_since;
    const before = await activeMemberCount(org.orgId);

    await acceptInvite(deps, signedIn(org.former.email, { userId: org.former.user_id }), lastToken());

    expect(await getMembership(db, org.orgId, org.former.user_id)).toMatchObject({ role: 'viewer', status: 'active', member_since: activeSince });
    expect(await activeMemberCount(org.orgId)).toBe(before);
  });

  it('refuses someone whose verified email is not the invite’s', async () => {
    const org = await orgWithPeople('mismatch');
    const email = org.address('right');
    await sendInvite(deps, org.asAdmin, { email, role: 'member' });
    const token = lastToken();
    for (const principal of [signedIn(org.address('wrong')), signedIn(email, { emailVerified: false })]) {
      await expect(acceptInvite(deps, principal, token)).rejects.toMatchObject({ statusCode: 403, code: 'INVITE_EMAIL_MISMATCH' });
    }
    expect(await statusesOf(org.orgId, email)).toEqual(['pending']);
  });

  it('of concurrent accepts of one link, lets exactly one win: one user, one more member', async () => {
    const org = await orgWithPeople('race');
    const email = org.address('racer');
    await sendInvite(deps, org.asAdmin, { email, role: 'member' });
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
