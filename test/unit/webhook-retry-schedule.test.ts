import fc from 'fast-check';
import {
  MAX_DELAY_SECONDS,
  MAX_DELIVERY_ATTEMPTS,
  nextRetryDelaySeconds,
  RETRY_SCHEDULE_SECONDS,
} from '../../shared/domain/webhooks/retry-schedule';

// After the n-th failed attempt (1-based): what the issue asks, in seconds.
const SCHEDULE = [5, 300, 1_800, 7_200, 18_000, 36_000, 43_200];
const ALMOST_ONE = 1 - Number.EPSILON / 2; // the largest double below 1, the top of Math.random's range
const fixed = (value: number) => () => value;

describe('nextRetryDelaySeconds', () => {
  it('follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 12 h, and gives 8 attempts in all', () => {
    expect([...RETRY_SCHEDULE_SECONDS]).toEqual(SCHEDULE);
    expect(MAX_DELIVERY_ATTEMPTS).toBe(8);
  });

  it.each(SCHEDULE.map((base, index) => [index + 1, base]))(
    'after %i failed attempt(s): %i s, jittered by at most ±10 %',
    (attempts, base) => {
      const lowest = nextRetryDelaySeconds(attempts, fixed(0));
      const middle = nextRetryDelaySeconds(attempts, fixed(0.5));
      const highest = nextRetryDelaySeconds(attempts, fixed(ALMOST_ONE));
      expect(lowest).toBe(Math.round(base * 0.9));
      expect(middle).toBe(base);
      expect(highest).toBe(Math.min(MAX_DELAY_SECONDS, Math.round(base * 1.1)));
      expect(lowest as number).toBeLessThan(highest as number);
    },
  );

  it('holds the last step at 12 h, the longest a message can be kept out of sight, whatever the jitter', () => {
    expect(MAX_DELAY_SECONDS).toBe(43_200);
    expect(nextRetryDelaySeconds(7, fixed(ALMOST_ONE))).toBe(43_200);
    expect(nextRetryDelaySeconds(7, fixed(0))).toBe(38_880);
  });

  it.each([0, 8, 9, 100, -1, 1.5, Number.NaN])('is null after %s attempts: none is left (or the count is not one)', (attempts) => {
    expect(nextRetryDelaySeconds(attempts, fixed(0.5))).toBeNull();
  });

  it('draws the jitter from Math.random unless one is given', () => {
    const random = jest.spyOn(Math, 'random').mockReturnValue(0);
    try {
      expect(nextRetryDelaySeconds(2)).toBe(270);
      expect(random).toHaveBeenCalledTimes(1);
    } finally {
      random.mockRestore();
    }
  });

  it('for any attempt count and any draw in [0, 1): within ±10 % of its step, at least 1 s, never above 12 h; null past the 7th', () => {
    fc.assert(
      fc.property(fc.integer({ min: -3, max: 20 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempts, draw) => {
        const delay = nextRetryDelaySeconds(attempts, fixed(draw));
        const base = SCHEDULE[attempts - 1];
        if (base === undefined) {
          expect(delay).toBeNull();
          return;
        }
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay as number).toBeGreaterThanOrEqual(Math.max(1, Math.floor(base * 0.9)));
        expect(delay as number).toBeLessThanOrEqual(Math.min(MAX_DELAY_SECONDS, Math.ceil(base * 1.1)));
      }),
      { numRuns: 2000 },
    );
  });

  it('spreads the retries of deliveries that failed together (the draws differ, so do the delays)', () => {
    const delays = new Set(Array.from({ length: 50 }, (_, index) => nextRetryDelaySeconds(4, fixed(index / 50))));
    expect(delays.size).toBeGreaterThan(40);
  });
});
