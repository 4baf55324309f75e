import type { Email } from '../../mail/mailer';

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c] ?? c);

/**
 * The invitation email: a text and an HTML part naming the organization and the inviter,
 * with the accept link. Names come from user input, so the HTML part escapes them.
 */
export function invitationEmail(input: {
  to: string;
  orgName: string;
  inviterName: string;
  role: string;
  link: string;
  expiresAt: string;
}): Email {
  const { to, orgName, inviterName, role, link, expiresAt } = input;
  const expires = new Date(expiresAt).toUTCString();
  const subject = `${inviterName} invited you to join ${orgName} on Voice Org`;
  const text = [
    `${inviterName} invited you to join ${orgName} on Voice Org as ${role}.`,
    '',
    `Accept the invitation: ${link}`,
    '',
    `The link works until ${expires}. If you did not expect this email, ignore it.`,
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    `<p><strong>${escapeHtml(inviterName)}</strong> invited you to join <strong>${escapeHtml(orgName)}</strong> on Voice Org as ${escapeHtml(role)}.</p>`,
    `<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>`,
    `<p>The link works until ${escapeHtml(expires)}. If you did not expect this email, ignore it.</p>`,
    '</body></html>',
  ].join('');
  return { to, subject, text, html };
}
