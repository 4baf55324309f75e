import { itemFields } from './item-fields';
import type { LegalHold } from './recording-items';

/** A member's legal hold as an item (docs/governance.md), with no DynamoDB client: the event processor maps it too. */

/**
 * A member's hold: every recording they recorded, now and later. Released, it stays, with
 * `released_at` and the release's change stamp, so the release's event names who released it.
 */
export interface MemberLegalHold extends LegalHold {
  org_id: string;
  user_id: string;
  released_at?: string;
}

export function memberHoldFromItem(item: Record<string, unknown>): MemberLegalHold {
  const fields = itemFields(item, 'member legal hold');
  return {
    org_id: fields.string('org_id'),
    user_id: fields.string('user_id'),
    reason: fields.string('reason'),
    placed_by: fields.string('placed_by'),
    placed_at: fields.string('placed_at'),
    ...(fields.optionalString('released_at') !== undefined ? { released_at: fields.optionalString('released_at') } : {}),
  };
}
