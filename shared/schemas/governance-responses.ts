import * as v from 'valibot';
import { Timestamp } from './common';

const NullableString = v.nullable(v.string());

const described = <S extends v.GenericSchema>(schema: S, description: string) => v.pipe(schema, v.description(description));

export const RetentionResponse = v.strictObject({
  recordings_days: described(
    v.nullable(v.number()),
    'Days after which the daily sweep moves a recording to the trash, counted from `recording_at` (else `created_at`); null: kept until deleted.',
  ),
  updated_at: described(v.nullable(Timestamp), 'When the policy was last set; null when it never was.'),
  updated_by: described(NullableString, 'Who set it (a user id, or an organization API key id); null when no one did.'),
});

export const LegalHoldResponse = v.strictObject({
  reason: described(v.string(), 'Why the hold was placed.'),
  placed_by: described(v.string(), 'Who placed it: a user id, or an organization API key id.'),
  placed_at: described(Timestamp, 'When it was first placed (a new reason keeps it).'),
  scope: described(
    v.picklist(['recording', 'member']),
    "`recording`: a hold on this recording; `member`: its recorder's hold, which holds every recording they recorded, now and later.",
  ),
});

/** A member's hold, in the envelope the member routes answer with. */
export const MemberLegalHoldResponse = v.strictObject({
  success: described(v.literal(true), 'Always true on success.'),
  data: described(LegalHoldResponse, "The member's hold: every recording they recorded, now and later."),
});
