import fc from 'fast-check';
import { formatCount } from '../../shared/schemas/common';

/** Schema texts write limits as `toLocaleString('en-US')` would, without loading ICU at cold start. */
it('writes every count as toLocaleString("en-US") does', () => {
  fc.assert(
    fc.property(fc.nat({ max: Number.MAX_SAFE_INTEGER }), (count) => expect(formatCount(count)).toBe(count.toLocaleString('en-US'))),
    { numRuns: 2000 },
  );
  for (const count of [0, 7, 999, 1000, 12_000, 100_000, 1_000_000]) expect(formatCount(count)).toBe(count.toLocaleString('en-US'));
});
