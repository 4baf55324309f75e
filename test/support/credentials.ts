import { idTokenFor } from './api';

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
