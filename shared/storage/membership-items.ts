import { MEMBER_STATUSES, ROLES, type MemberStatus, type Role } from '../core/access';
import { changeStamp } from './change-stamp';
import { itemFields } from './item-fields';
import { keys } from './keys';

/* Memberships as items: the type, the item builder and the explicit mapper, with no DynamoDB client (the event processor maps items and bundles none). */

/**
 * A user's membership of an organization. It carries copies of the user's email and
 * display name so that the members of an org can be listed in email order and
 * searched from one index, without a read per member.
 */
export interface Membership {
  org_id: string;
  user_id: string;
  email: string;
  display_name: string;
  role: Role;
  status: MemberStatus;
  member_since: string;
  created_at: string;
  updated_at: string;
  /** Maintained by recording writes, in the same transaction; never computed by reading recordings. */
  recording_count: number;
  latest_recording_at: string | null;
}

/** The table item of a membership: its keys, index keys (GSI1 only while active) and search text. */
export function membershipItem(membership: Membership) {
  return {
    ...keys.membership(membership.org_id, membership.user_id),
    ...keys.userOrganizationsIndex(membership.user_id, membership.org_id),
    ...(membership.status === 'active' ? keys.activeMembersIndex(membership.org_id, membership.email, membership.user_id) : {}),
    ...membership,
    search_text: searchText(membership.email, membership.display_name),
    ...changeStamp(),
  };
}

/** Reads a stored membership item (every writer writes every field; `latest_recording_at` is null until a recording). */
export function membershipFromItem(item: Record<string, unknown>): Membership {
  const field = itemFields(item, 'membership');
  return {
    org_id: field.string('org_id'),
    user_id: field.string('user_id'),
    email: field.string('email'),
    display_name: field.string('display_name'),
    role: field.oneOf('role', ROLES),
    status: field.oneOf('status', MEMBER_STATUSES),
    member_since: field.string('member_since'),
    created_at: field.string('created_at'),
    updated_at: field.string('updated_at'),
    recording_count: field.number('recording_count'),
    latest_recording_at: field.nullableString('latest_recording_at'),
  };
}

/** Lower-case text that `q` is matched against (DynamoDB's contains() is case-sensitive). */
export function searchText(email: string, displayName: string): string {
  return `${email}\n${displayName}`.toLowerCase();
}
