import { createHash } from 'crypto';

/** The SHA-256 (hex) of an invitation token: what the token lookup is keyed by. */
export function hashInviteToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
