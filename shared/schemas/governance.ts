import * as v from 'valibot';

// Defined here, not imported from envelopes.ts: the handlers' bundles carry request schemas only.
const described = <S extends v.GenericSchema>(schema: S, description: string) => v.pipe(schema, v.description(description));

/** The bounds of the governance settings (docs/governance.md). */
export const GOVERNANCE_LIMITS = { retentionDays: { min: 1, max: 3650 }, holdReason: 500 } as const;

const { min, max } = GOVERNANCE_LIMITS.retentionDays;

export const UpdateRetentionBody = v.strictObject({
  recordings_days: described(
    v.nullable(
      v.pipe(
        v.number('must be a whole number of days, or null'),
        v.integer('must be a whole number of days, or null'),
        v.minValue(min, `must be at least ${min}`),
        v.maxValue(max, `must be at most ${max}`),
      ),
    ),
    `Days (${min}–${max}) after which a recording, counted from \`recording_at\` (else \`created_at\`), is moved to the trash by the daily sweep; null keeps recordings until someone deletes them (the default).`,
  ),
});

export const PlaceLegalHoldBody = v.strictObject({
  reason: described(
    v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, 'must not be empty'),
      v.maxLength(GOVERNANCE_LIMITS.holdReason, `must be at most ${GOVERNANCE_LIMITS.holdReason} characters`),
    ),
    `Why the hold is placed (1–${GOVERNANCE_LIMITS.holdReason} characters), shown with the hold and in refusals; never put in events.`,
  ),
});
