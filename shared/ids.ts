import { randomBytes } from 'node:crypto';

/** A new opaque id with a readable type prefix (org_, usr_, tag_ ...), Stripe style. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(10).toString('hex')}`;
}
