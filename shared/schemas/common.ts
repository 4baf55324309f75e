import * as v from 'valibot';
import { MEMBER_STATUSES, ROLES, SCOPES } from '../auth/access';

export const Id = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, _ or -'));
export const Email = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email('must be an email address'), v.maxLength(254));
export const DisplayName = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200));
export const Timezone = v.pipe(
  v.string(),
  v.check((zone) => isTimeZone(zone), 'must be an IANA time zone such as Europe/Paris'),
);
export const RoleName = v.picklist(ROLES, `must be one of ${ROLES.join(', ')}`);
export const MemberStatusName = v.picklist(MEMBER_STATUSES, `must be one of ${MEMBER_STATUSES.join(', ')}`);
export const ScopeName = v.picklist(SCOPES, `must be one of ${SCOPES.join(', ')}`);
export const Timestamp = v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 timestamp'));
export const HexColor = v.pipe(v.string(), v.hexColor('must be a hex colour such as #1f77b4'));

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}
