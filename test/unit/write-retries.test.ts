import { backoffDelayMs, retryOnWriteConflict, sendUntilProcessed } from '../../shared/storage/write-retries';
import { WriteConflict } from '../../shared/storage/transactions';

/**
 * The one retry policy: optimistic steps are re-run on write conflicts only, up to their
 * attempts, then give the caller's exhausted error; batches are resent until nothing is
 * left unprocessed. Math.random is pinned so the pauses are known (0 ms, or the bound).
 */
const conflict = () => new WriteConflict(['recording']);
const cancelled = (...codes: string[]) =>
  Object.assign(new Error('cancelled'), { name: 'TransactionCanceledException', CancellationReasons: codes.map((Code) => ({ Code })) });
const exhausted = () => new Error('exhausted');

afterEach(() => {
  jest.restoreAllMocks();
  jest.useRealTimers();
});

describe('retryOnWriteConflict', () => {
  beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0));

  it('runs the step again after a conflict, numbering the attempts, until it commits', async () => {
    const step = jest.fn(async (attempt: number) => {
      if (attempt < 3) throw conflict();
      return `committed on ${attempt}`;
    });
    await expect(retryOnWriteConflict(step, { attempts: 10, exhausted })).resolves.toBe('committed on 3');
    expect(step.mock.calls.map(([attempt]) => attempt)).toEqual([1, 2, 3]);
  });

  it('treats a failed condition and a concurrent transaction as conflicts, whatever their form', async () => {
    const failures = [
      Object.assign(new Error('condition'), { name: 'ConditionalCheckFailedException' }),
      cancelled('None', 'ConditionalCheckFailed'),
      cancelled('TransactionConflict', 'None'),
    ];
    const step = jest.fn(async (attempt: number) => {
      const failure = failures[attempt - 1];
      if (failure) throw failure;
      return 'ok';
    });
    await expect(retryOnWriteConflict(step, { attempts: 4, exhausted })).resolves.toBe('ok');
    expect(step).toHaveBeenCalledTimes(4);
  });

  it('gives up with the exhausted error after exactly `attempts` attempts', async () => {
    const step = jest.fn(async () => {
      throw conflict();
    });
    await expect(retryOnWriteConflict(step, { attempts: 10, exhausted })).rejects.toThrow('exhausted');
    expect(step).toHaveBeenCalledTimes(10);
  });

  it('rethrows any other error at once, without retrying', async () => {
    const boom = new Error('boom');
    const step = jest.fn(async () => {
      throw boom;
    });
    await expect(retryOnWriteConflict(step, { attempts: 10, exhausted })).rejects.toBe(boom);
    expect(step).toHaveBeenCalledTimes(1);

    // A transaction cancelled for another reason (a malformed item, say) is no conflict.
    const invalid = cancelled('None', 'ValidationError');
    const rejected = jest.fn(async () => {
      throw invalid;
    });
    await expect(retryOnWriteConflict(rejected, { attempts: 10, exhausted })).rejects.toBe(invalid);
    expect(rejected).toHaveBeenCalledTimes(1);
  });

  it('pauses before each new attempt, longer after each conflict', async () => {
    jest.useFakeTimers();
    jest.spyOn(Math, 'random').mockReturnValue(1); // the full bound: 10 ms, then 20 ms
    const step = jest.fn(async (attempt: number) => {
      if (attempt < 3) throw conflict();
      return 'ok';
    });
    const result = retryOnWriteConflict(step, { attempts: 10, exhausted });
    await jest.advanceTimersByTimeAsync(9);
    expect(step).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(step).toHaveBeenCalledTimes(2);
    await jest.advanceTimersByTimeAsync(19);
    expect(step).toHaveBeenCalledTimes(2);
    await jest.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBe('ok');
    expect(step).toHaveBeenCalledTimes(3);
  });
});

describe('backoffDelayMs', () => {
  it('doubles its bound from 10 ms per attempt up to 500 ms, and draws below it', () => {
    jest.spyOn(Math, 'random').mockReturnValue(1);
    expect([1, 2, 3, 4, 5, 6, 7, 12].map(backoffDelayMs)).toEqual([10, 20, 40, 80, 160, 320, 500, 500]);
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    expect(backoffDelayMs(3)).toBe(20);
  });
});

describe('sendUntilProcessed', () => {
  beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0));

  it('sends everything once when nothing is left unprocessed', async () => {
    const send = jest.fn(async (_batch: string[]) => [] as string[]);
    await sendUntilProcessed(['a', 'b', 'c'], send);
    expect(send.mock.calls).toEqual([[['a', 'b', 'c']]]);
  });

  it('resends only what the previous send left unprocessed, until none is left', async () => {
    const unprocessed = [['c', 'b'], ['b'], []];
    const send = jest.fn(async (_batch: string[]) => unprocessed.shift() ?? []);
    await sendUntilProcessed(['a', 'b', 'c'], send);
    expect(send.mock.calls.map(([batch]) => batch)).toEqual([['a', 'b', 'c'], ['c', 'b'], ['b']]);
  });

  it('sends nothing for no entries', async () => {
    const send = jest.fn(async (_batch: string[]) => [] as string[]);
    await sendUntilProcessed([], send);
    expect(send).not.toHaveBeenCalled();
  });
});
