import { expectFailure, idTokenFor, type ApiResponse } from './api';

/** The callers every access-matrix test tries on a route. */
export const CREDENTIALS = ['viewer', 'member', 'admin', 'owner', 'readKey', 'writeKey', 'usersKey', 'otherOrgKey', 'personalKey', 'outsider', 'none'] as const;
export type Credential = (typeof CREDENTIALS)[number];

type Person = { id: string; email: string };

/** What an access matrix needs of a test organization: its people by role, and its keys. */
export interface MatrixOrg {
  people: Record<'viewer' | 'member' | 'admin' | 'owner', Person>;
  keys: { read: string; write: string; users: string; full: string; personal: string };
}

/** The bearer token of a credential of `org` (or of `other`, for the outsiders); '' sends none. */
export async function credentialToken(credential: Credential, org: MatrixOrg, other: MatrixOrg): Promise<string> {
  switch (credential) {
    case 'viewer':
    case 'member':
    case 'admin':
    case 'owner':
      return idTokenFor(org.people[credential]);
    case 'readKey':
      return org.keys.read;
    case 'writeKey':
      return org.keys.write;
    case 'usersKey':
      return org.keys.users;
    case 'otherOrgKey':
      return other.keys.full;
    case 'personalKey':
      return org.keys.personal;
    case 'outsider':
      return idTokenFor(other.people.owner);
    case 'none':
      return '';
  }
}

/** What a credential gets from a route of the access tables: through, or refused with this code. */
export type AccessOutcome = 'OK' | 'UNAUTHORIZED' | 'INSUFFICIENT_ROLE' | 'INSUFFICIENT_SCOPES' | 'ORG_KEY_ORG_MISMATCH' | 'USER_KEY_NOT_ALLOWED';

/** The refusals every organization route gives, whatever its roles and scopes. */
export const ALWAYS_REFUSED = {
  otherOrgKey: 'ORG_KEY_ORG_MISMATCH',
  personalKey: 'USER_KEY_NOT_ALLOWED',
  outsider: 'INSUFFICIENT_ROLE',
  none: 'UNAUTHORIZED',
} as const satisfies Partial<Record<Credential, AccessOutcome>>;

/** Checks a response against the access table's outcome: the success status, or the refusal (401 for no credential, else 403). */
export function expectAccessOutcome(res: ApiResponse, outcome: AccessOutcome, okStatus = 200): void {
  if (outcome === 'OK') {
    expect(res.status).toBe(okStatus);
    return;
  }
  expectFailure(res, outcome === 'UNAUTHORIZED' ? 401 : 403, outcome);
}
