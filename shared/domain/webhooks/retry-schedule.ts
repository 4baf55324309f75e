/**
 * When a failed delivery is tried again: after the first attempt fails, 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h and 12 h later (about 30 hours in all, Svix's schedule with its last step
 * held at 12 h, the longest an SQS message can be kept out of sight), each ±10 % so that
 * the retries of many deliveries that failed together do not arrive together.
 */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1_800, 7_200, 18_000, 36_000, 43_200] as const;

/** Attempts of one delivery before it is `failed`: the first and one per step of the schedule. */
export const MAX_DELIVERY_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length + 1;

/** SQS's longest visibility timeout: no delay may exceed it. */
export const MAX_DELAY_SECONDS = 43_200;

/** An endpoint whose attempts have all failed for this long is disabled (Svix: 5 days; the issue asks 3). */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * 3600 * 1000;

/**
 * Seconds until the next attempt after `attemptsSoFar` failed ones, or null when none is
 * left. `random` is in [0, 1) (injected, so tests pin the jitter).
 */
export function nextRetryDelaySeconds(attemptsSoFar: number, random: () => number = Math.random): number | null {
  const base = RETRY_SCHEDULE_SECONDS[attemptsSoFar - 1];
  if (base === undefined) return null;
  const jittered = Math.round(base * (0.9 + 0.2 * random()));
  return Math.max(1, Math.min(MAX_DELAY_SECONDS, jittered));
}
