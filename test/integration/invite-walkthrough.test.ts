import { call, localDeployment, unique } from '../support/api';
import { eventually } from '../support/eventually';
import { runCli } from '../support/cli';
import { findUserIdByEmail } from '../../shared/storage/users';

/**
 * The invitation flow as a newcomer walks it on `npm start`, without reading the code: an
 * owner invites through the API, the email arrives (`mail list`), its link opens the local
 * accept page, which names the commands; the newcomer, who has no user yet, gets an ID token
 * for the invited email (`token --email`) and accepts with the curl the page gives: they are
 * now a member with the invited role.
 */
const { dataDir, runtime, db } = localDeployment();
const cli = (...args: string[]) => runCli(args, { LOCAL_DATA_DIR: dataDir });

/** The owner of a new organization whose name needs HTML escaping, made with the CLI. */
async function organizationWithOwner() {
  const id = unique();
  const org = await cli('org', 'create', '--name', `Acme <R&D> "Labs" ${id}`);
  const owner = await cli('user', 'create', '--email', `owner.${id}@example.com`, '--name', 'Olga Owner');
  await cli('member', 'add', '--org', org.json.org_id, '--user', owner.json.user_id, '--role', 'owner');
  const token = await cli('token', '--user', owner.json.user_id);
  return { id, orgId: org.json.org_id as string, orgName: org.json.name as string, ownerToken: token.json.id_token as string };
}

/** The accept link of the latest invitation email to an address, read with `mail list` as docs/cli.md says. */
async function linkMailedTo(email: string): Promise<string> {
  const mail = await eventually(
    () => cli('mail', 'list', '--to', email),
    (result) => result.json?.length > 0,
  );
  expect(mail.json).toHaveLength(1);
  const link = /(http\S+\/invites\/accept\?token=[A-Za-z0-9_-]+)/.exec(mail.json[0].text)?.[1];
  if (!link) throw new Error(`no accept link in ${mail.json[0].text}`);
  return link;
}

const unescapeHtml = (html: string) =>
  html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe('an invitation accepted by a new person, locally, from the email', () => {
  it('invite → email → accept page naming the commands → token --email → accept: a member with the invited role', async () => {
    const { id, orgId, orgName, ownerToken } = await organizationWithOwner();
    const email = `nia.newcomer.${id}@example.com`;
    const sent = await call(runtime.apiUrl, 'POST', `/api/v1/organization/${orgId}/invites`, {
      token: ownerToken,
      body: { email, role: 'admin' },
    });
    expect(sent.status).toBe(201);

    // The email links to APP_URL, which locally is the API's own server.
    const link = await linkMailedTo(email);
    expect(link.startsWith(`${runtime.apiUrl}/invites/accept?token=`)).toBe(true);
    const page = await fetch(link);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // No script may run on it, and the link's token must not leave in a Referer.
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; /);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(html).not.toMatch(/<script|\son\w+=/i);
    // It names the organization (escaped), the invited email and role, and the commands to run.
    expect(html).toContain(`<strong>Acme &lt;R&amp;D&gt; &quot;Labs&quot; ${id}</strong>`);
    expect(html).not.toContain('<R&D>');
    expect(html).toContain(`<strong>${email}</strong>`);
    expect(html).toContain('<strong>admin</strong>');
    const text = unescapeHtml(html);
    expect(text).toContain(`npx voice-org token --email ${email}`);
    const token = new URL(link).searchParams.get('token')!;
    expect(text).toContain(`curl -s -X POST ${runtime.apiUrl}/api/v1/organization/invites/accept`);
    expect(text).toContain(`-d '{"token":"${token}"}'`);

    // The newcomer has no user: `token --email` mints a token for the invited email all the same.
    expect(await findUserIdByEmail(db, email)).toBeUndefined();
    const idToken = await cli('token', '--email', email);
    expect(idToken.code).toBe(0);
    expect(idToken.json).toEqual({ id_token: expect.stringMatching(/^ey[\w-]+\.[\w-]+\.[\w-]+$/) });

    // The page's curl, as given: its URL, its headers, its body.
    const curl =
      /curl -s -X POST (\S+) \\\n\s+-H "Authorization: Bearer \$ID_TOKEN" -H "Content-Type: application\/json" \\\n\s+-d '([^']+)'/.exec(
        text,
      );
    if (!curl) throw new Error(`no curl command in the page:\n${text}`);
    const accepted = await call(runtime.apiUrl, 'POST', new URL(curl[1]).pathname, {
      token: idToken.json.id_token,
      body: JSON.parse(curl[2]),
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ org_id: orgId, role: 'admin', status: 'active' });

    // Accepting created the person: a user, a member with the invited role, named after the email.
    const userId = await findUserIdByEmail(db, email);
    expect(userId).toMatch(/^usr_/);
    const members = await cli('member', 'list', '--org', orgId);
    expect(members.json).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ user_id: userId, email, role: 'admin', status: 'active', display_name: email.split('@')[0] }),
      ]),
    );
    expect((await cli('invite', 'list', '--org', orgId)).json).toEqual([
      expect.objectContaining({ email, role: 'admin', status: 'accepted' }),
    ]);
    // Their next token (the same command) is the new user's, and the API knows them as an admin of the organization.
    const again = await cli('token', '--email', email);
    const users = await call(runtime.apiUrl, 'GET', `/api/v1/organization/${orgId}/users`, { token: again.json.id_token });
    expect(users.status).toBe(200);

    // The link now says so, and names nothing.
    const used = await fetch(link);
    const usedHtml = await used.text();
    expect(used.status).toBe(409);
    expect(usedHtml).toContain('This invitation was already accepted');
    expect(usedHtml).not.toContain(email);
    expect(usedHtml).not.toContain(orgName.replace(/&/g, '&amp;').replace(/</g, '&lt;'));
  });

  it('a missing, malformed or unknown token is a page that says so and echoes nothing', async () => {
    const accept = `${runtime.apiUrl}/invites/accept`;
    const missing = await fetch(accept);
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain('This link has no invitation token');
    for (const token of ['<script>alert(1)</script>', 'A'.repeat(43)]) {
      const unknown = await fetch(`${accept}?token=${encodeURIComponent(token)}`);
      const html = await unknown.text();
      expect(unknown.status).toBe(404);
      expect(html).toContain('No invitation matches this link');
      expect(html).not.toContain(token);
      expect(html).not.toContain('<script');
    }
  });
});

describe('cli token --email', () => {
  it('for an existing user is a token of that user; --name is refused for them; --user or --email, one of them', async () => {
    const id = unique();
    const user = await cli('user', 'create', '--email', `Existing.${id}@example.com`, '--name', 'Eve Existing');
    const [byEmail, byUser] = await Promise.all([
      cli('token', '--email', `existing.${id}@example.com`),
      cli('token', '--user', user.json.user_id),
    ]);
    const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
    expect(claims(byEmail.json.id_token)).toMatchObject({
      sub: `local|${user.json.user_id}`,
      email: `existing.${id}@example.com`,
      name: 'Eve Existing',
      email_verified: true,
    });
    expect(claims(byEmail.json.id_token).sub).toBe(claims(byUser.json.id_token).sub);

    const named = await cli('token', '--email', `existing.${id}@example.com`, '--name', 'Someone Else');
    expect({ code: named.code, error: named.json.error }).toEqual({ code: 1, error: 'USER_EXISTS' });
    const newcomer = await cli('token', '--email', `new.${id}@example.com`, '--name', 'Nia New');
    expect(claims(newcomer.json.id_token)).toMatchObject({
      sub: `local|email:new.${id}@example.com`,
      email: `new.${id}@example.com`,
      name: 'Nia New',
      email_verified: true,
    });

    for (const args of [[], ['--user', user.json.user_id, '--email', `existing.${id}@example.com`]]) {
      const refused = await cli('token', ...args);
      expect({ code: refused.code, stdout: refused.stdout, error: refused.json.error }).toEqual({
        code: 1,
        stdout: '',
        error: 'INVALID_FLAGS',
      });
    }
    expect((await cli('token', '--email', 'not-an-email')).json).toMatchObject({
      error: 'VALIDATION_ERROR',
      message: expect.stringContaining('email'),
    });
  });
});
