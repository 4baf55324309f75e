import { cancellationCodes, WriteConflict } from './transactions';

/**
 * The one backoff policy of the service for work that lost a race or was throttled:
 * "full jitter" (a random pause between 0 and an exponential bound), capped, so that
 * writers racing on one item spread out instead of colliding again in step.
 *
 * @param attempt 1 for the pause after the first failed attempt
 */
export function backoffDelayMs(attempt: number): number {
  return Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
}

const BACKOFF_BASE_MS = 10;
const BACKOFF_CAP_MS = 500;

const pause = (attempt: number) => new Promise<void>((resolve) => setTimeout(resolve, backoffDelayMs(attempt)));

/**
 * True when a write failed because the data moved under it: a condition that held when
 * the change was planned no longer holds, or another transaction touched the same items.
 */
export function isWriteConflict(error: unknown): boolean {
  if (error instanceof WriteConflict || (error as Error | undefined)?.name === 'ConditionalCheckFailedException') return true;
  const codes = cancellationCodes(error) ?? [];
  return codes.includes('ConditionalCheckFailed') || codes.includes('TransactionConflict');
}

/**
 * Runs a read-plan-commit step until it commits (optimistic concurrency). Each attempt
 * re-reads what it depends on, so a lost race is simply planned again on fresh data. A
 * step that finds the conflict is final (the item is gone, say) throws its own error,
 * which ends the retries.
 *
 * @param step one attempt; it receives its number, from 1
 * @param options.attempts how many attempts before giving up with `exhausted()`
 */
export async function retryOnWriteConflict<T>(
  step: (attempt: number) => Promise<T>,
  options: { attempts: number; exhausted: () => Error },
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step(attempt);
    } catch (error) {
      if (!isWriteConflict(error)) throw error;
      if (attempt >= options.attempts) throw options.exhausted();
      await pause(attempt);
    }
  }
}

/**
 * Sends a batch request until DynamoDB has processed every entry: `send` returns what it
 * left unprocessed (throttling), which is sent again after a backoff pause.
 */
export async function sendUntilProcessed<T>(entries: T[], send: (batch: T[]) => Promise<T[]>): Promise<void> {
  let pending = entries;
  for (let attempt = 1; pending.length; attempt++) {
    if (attempt > 1) await pause(attempt - 1);
    pending = await send(pending);
  }
}
