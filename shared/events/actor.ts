import type { Caller } from '../auth/policy';
import type { Actor } from '../schemas/event-catalog';

/**
 * Who an authorized caller is in events and the audit log: a member acting with an ID token
 * or a personal key is the user (as GitHub names a personal token's user); an organization
 * key is the key.
 */
export function actorOf(caller: Caller): Actor {
  return caller.kind === 'org_key' ? { kind: 'api_key', id: caller.keyId } : { kind: 'user', id: caller.userId };
}
