/**
 * The one wait of the suites for what the deployment does after it answered: an event
 * consumer's work (an email, files removed, an audit entry, a webhook delivery), a process's
 * output. A read is repeated every POLL_MS until it shows the result or EVENTUAL_MS have
 * passed. The bound only decides how long a failing test takes to say so, never how long a
 * passing one runs, so it is generous: the local event pipeline on two busy cores.
 */
export const EVENTUAL_MS = 15_000;
export const POLL_MS = 50;

/**
 * Polls `read` until `done` holds (or the time is up) and returns the last value read. A
 * caller that must first wait out a known delay of the product (a webhook endpoint that never
 * answers holds the dispatcher for WEBHOOK_TIMEOUT_MS) adds it with `alsoWaitingMs`.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: { alsoWaitingMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + EVENTUAL_MS + (options.alsoWaitingMs ?? 0);
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
