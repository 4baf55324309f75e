import { createHash } from 'node:crypto';
import { statusOf } from '../../shared/domain/invites/invite-views';
import { hashInviteToken } from '../../shared/domain/invites/invite-tokens';
import type { TableContext } from '../../shared/storage/dynamo';
import { findInviteByTokenHash } from '../../shared/storage/invites';
import { getOrganization } from '../../shared/storage/organizations';

/**
 * The page an invitation email links to (`APP_URL/invites/accept?token=…`), served by the
 * local deployment only: in AWS, APP_URL is the web app that accepts invitations. It names
 * the organization, the invited email and role of a pending invite (what the email told its
 * reader already) and exactly what to run to accept it with the API: a local ID token for the
 * invited email (`npx voice-org token --email`), then Accept invite. It accepts nothing itself.
 * An invite that is no longer pending only says so, naming nothing: its token grants nothing.
 *
 * No script; its one stylesheet is allowed by hash under a Content-Security-Policy that allows
 * nothing else. Everything from the table or the link is HTML-escaped, and the token is put
 * in the commands only when it has the shape of a token (base64url).
 */
export const INVITE_ACCEPT_PATH = '/invites/accept';

export interface InviteAcceptPageDeps {
  db: TableContext;
  /** The local API's base URL, which the curl command calls. */
  apiUrl: string;
  now: () => Date;
}

export interface PageResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** What a token of an accept link is made of: base64url, at most Accept invite's 200 characters. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,200}$/;

const STYLE = [
  'body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1f}',
  'pre{background:#f3f3f6;padding:.75rem 1rem;overflow-x:auto;border-radius:6px}',
  'code{font-family:ui-monospace,monospace;font-size:.9rem}',
  '.note{color:#55555f;font-size:.9rem}',
].join('');
const STYLE_HASH = createHash('sha256').update(STYLE, 'utf8').digest('base64');

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  // The link carries the token: never let it leave in a Referer, nor stay in a cache.
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c] ?? c);

/** A word for a POSIX shell: bare when it is made of safe characters, else single-quoted. */
export const shellWord = (text: string) => (/^[A-Za-z0-9@._+=:/-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

/** The page for the link's query string (`token` read from it). */
export async function inviteAcceptPage(deps: InviteAcceptPageDeps, query: URLSearchParams): Promise<PageResponse> {
  const token = query.get('token');
  if (!token) {
    return page(400, 'This link has no invitation token', [
      '<p>Open the link exactly as the invitation email gives it: it ends with <code>?token=…</code>.</p>',
    ]);
  }
  const invite = TOKEN_SHAPE.test(token) ? await findInviteByTokenHash(deps.db, hashInviteToken(token)) : undefined;
  if (!invite) {
    return page(404, 'No invitation matches this link', [
      '<p>The link may be mistyped, or the invitation was sent again since: each new email replaces the link of the one before. Use the newest email.</p>',
    ]);
  }
  const status = statusOf(invite, deps.now());
  if (status === 'accepted') return page(409, 'This invitation was already accepted', ['<p>Sign in to reach the organization.</p>']);
  if (status === 'revoked') return page(410, 'This invitation was revoked', ['<p>Ask the organization for a new one.</p>']);
  if (status === 'expired') return page(410, 'This invitation has expired', ['<p>Ask the organization to send it again.</p>']);

  const orgName = (await getOrganization(deps.db, invite.org_id))?.name ?? invite.org_id;
  const email = shellWord(invite.email);
  const acceptUrl = `${deps.apiUrl}/api/v1/organization/invites/accept`;
  const tokenCommand = `npx voice-org token --email ${email}`;
  const curl = [
    `curl -s -X POST ${acceptUrl} \\`,
    '  -H "Authorization: Bearer $ID_TOKEN" -H "Content-Type: application/json" \\',
    `  -d '{"token":"${token}"}'`,
  ].join('\n');
  return page(200, `Join ${orgName} on Voice Org`, [
    `<p>This invitation is for <strong>${escapeHtml(invite.email)}</strong>, to join <strong>${escapeHtml(orgName)}</strong> as <strong>${escapeHtml(invite.role)}</strong>.`,
    ` It works until ${escapeHtml(new Date(invite.expires_at).toUTCString())}.</p>`,
    '<p class="note">This page is served by the local deployment (<code>npm start</code>) only. Accepting takes an ID token whose verified email is the invited one; locally, the CLI mints one. In the repository:</p>',
    '<h2>1. An ID token for the invited email</h2>',
    `<pre><code>${escapeHtml(tokenCommand)}</code></pre>`,
    '<p>It prints <code>{"id_token": "…"}</code>. When nobody has this email yet, the token is a new person&#39;s, and accepting creates them. Keep it in a variable (with jq):</p>',
    `<pre><code>${escapeHtml(`export ID_TOKEN=$(${tokenCommand} | jq -r .id_token)`)}</code></pre>`,
    '<h2>2. Accept the invitation</h2>',
    `<pre><code>${escapeHtml(curl)}</code></pre>`,
    `<p>The answer is <code>{"org_id": "${escapeHtml(invite.org_id)}", "role": "${escapeHtml(invite.role)}", "status": "active"}</code>: you are a member. The link then stops working.</p>`,
  ]);
}

function page(statusCode: number, title: string, content: string[]): PageResponse {
  const body = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(title)} · Voice Org (local)</title>`,
    `<style>${STYLE}</style>`,
    '</head><body><main>',
    `<h1>${escapeHtml(title)}</h1>`,
    ...content,
    '</main></body></html>',
  ].join('\n');
  return { statusCode, headers: { ...HEADERS }, body };
}
