'use strict';
/**
 * A preload (`node --require`, through NODE_OPTIONS) that lets a test set the wall clock of a
 * process it started (test/support/deployment-clock.ts writes the file): while the file
 * MOVABLE_CLOCK_FILE names holds `{"at": <epoch ms>}`, Date.now() and `new Date()` read that
 * instant, and the clock stands still there until the test writes another. No file, or no
 * instant in it: real time. The file is read at every reading of the clock (a small file, a
 * few microseconds), so a request sent after the test wrote it sees the new time at once:
 * nothing to wait for. Timers and performance.now() keep real time.
 */
const { readFileSync } = require('node:fs');

const file = process.env.MOVABLE_CLOCK_FILE;
if (file) {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);

  const now = () => {
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return realNow();
    }
    try {
      const at = JSON.parse(text).at;
      return Number.isFinite(at) ? at : realNow();
    } catch {
      return realNow();
    }
  };

  // A proxy rather than a subclass: `Date()` called as a function, Date.UTC, Date.parse and
  // `instanceof Date` keep working; only the no-argument construction reads the set time.
  const MovableDate = new Proxy(RealDate, {
    construct(target, args, newTarget) {
      return Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget === MovableDate ? target : newTarget);
    },
    apply() {
      return new RealDate(now()).toString();
    },
    get(target, property, receiver) {
      if (property === 'now') return now;
      return Reflect.get(target, property, receiver);
    },
  });
  globalThis.Date = MovableDate;
}
