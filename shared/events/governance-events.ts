import type { ItemChange } from '../storage/stream-items';
import { type Derived, writerOf } from './derived-events';
import { redactionEvents } from './transcript-setting-events';

/** The retention policy's changes (docs/governance.md) and the redaction setting's: the organization item's, before and after. */
export function organizationEvents(change: Extract<ItemChange, { kind: 'organization' }>): Derived[] {
  const { before, after } = change;
  if (!after) return [];
  const stamp = writerOf(before, after);
  const redaction = redactionEvents(before, after).map((event) => ({ ...event, stamp }));
  const previous = before?.value.retention?.recordings_days ?? null;
  const days = after.value.retention?.recordings_days ?? null;
  if (previous === days) return redaction;
  return [
    ...redaction,
    {
      type: 'organization.retention_updated',
      resource: { type: 'organization', id: after.value.org_id },
      data: { recordings_days: days, previous_recordings_days: previous },
      occurredAt: after.value.retention?.updated_at ?? after.value.updated_at,
      stamp: writerOf(before, after),
    },
  ];
}

/** A member's legal hold placed (or its reason changed) and released: ids and times, never the reason. */
export function memberHoldEvents(change: Extract<ItemChange, { kind: 'memberLegalHold' }>): Derived[] {
  const { before, after } = change;
  if (!after) return [];
  const hold = after.value;
  const wasInForce = before !== undefined && !before.value.released_at;
  const event = (type: Derived['type'], data: Record<string, unknown>, occurredAt: string): Derived => ({
    type,
    resource: { type: 'member', id: hold.user_id },
    data: { user_id: hold.user_id, ...data },
    occurredAt,
    stamp: writerOf(before, after),
  });
  if (hold.released_at) return wasInForce ? [event('member.legal_hold_released', {}, hold.released_at)] : [];
  if (wasInForce && before.value.reason === hold.reason) return [];
  return [event('member.legal_hold_placed', { placed_by: hold.placed_by, placed_at: hold.placed_at }, hold.placed_at)];
}
