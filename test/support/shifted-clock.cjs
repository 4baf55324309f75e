'use strict';
/**
 * A preload (`node --require`, through NODE_OPTIONS) that shifts a process's wall clock: Date.now()
 * and `new Date()` read the real time plus the offset, in milliseconds, written in the file
 * SHIFTED_CLOCK_FILE names. The file is read again at most every 50 ms, so a test moves the clock
 * of a running local deployment (to just before UTC midnight, say) by writing it. No file, or
 * no number in it: no shift. Timers and performance.now() keep real time.
 */
const { readFileSync } = require('node:fs');

const file = process.env.SHIFTED_CLOCK_FILE;
if (file) {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  let offset = 0;
  let readAt = -Infinity;

  const shiftedNow = () => {
    const now = realNow();
    if (now - readAt >= 50) {
      readAt = now;
      try {
        const value = Number(readFileSync(file, 'utf8').trim());
        offset = Number.isFinite(value) ? value : 0;
      } catch {
        offset = 0;
      }
    }
    return now + offset;
  };

  // A proxy rather than a subclass: `Date()` called as a function, Date.UTC, Date.parse and
  // `instanceof Date` keep working; only the no-argument construction reads the shifted time.
  const ShiftedDate = new Proxy(RealDate, {
    construct(target, args, newTarget) {
      return Reflect.construct(target, args.length === 0 ? [shiftedNow()] : args, newTarget === ShiftedDate ? target : newTarget);
    },
    apply() {
      return new RealDate(shiftedNow()).toString();
    },
    get(target, property, receiver) {
      if (property === 'now') return shiftedNow;
      return Reflect.get(target, property, receiver);
    },
  });
  globalThis.Date = ShiftedDate;
}
