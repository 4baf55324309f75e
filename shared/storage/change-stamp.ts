import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { Actor } from '../schemas/event-catalog';

/** Who is changing data, and under which request: what the events of the change will name. */
export interface ChangeContext {
  actor: Actor | null;
  correlationId: string | null;
  /** Why the service itself changes something (e.g. 'retention'); absent for requests. */
  reason?: string;
}

/**
 * The stamp every write of an event-bearing item carries (`last_change`). The stream gives
 * the event processor the item's images; the stamp tells it who and which request. `id`
 * is new for every write, so a write that did not restamp an item (same id as before) is
 * recognisably not attributed.
 */
export interface ChangeStamp {
  id: string;
  actor: Actor | null;
  correlation_id: string | null;
  reason?: string;
}

/** The reason the retention policy's sweep gives its changes: its trashing says `recording.retention_expired` first. */
export const RETENTION_POLICY_REASON = 'retention_policy';

const current = new AsyncLocalStorage<ChangeContext>();

/**
 * Runs `work` with a change context: every stamped write inside it, however deep, names this
 * actor and correlation id. The HTTP handler wrapper sets it once per request from the
 * authorized caller; event consumers set it from the event they handle.
 */
export function withChangeContext<T>(context: ChangeContext, work: () => Promise<T>): Promise<T> {
  return current.run(context, work);
}

/** The change context in force (undefined outside one). */
export function currentChangeContext(): ChangeContext | undefined {
  return current.getStore();
}

/** The stamp for a write made now: the current change context's, or the service's own (no actor) outside one. */
export function changeStamp(): { last_change: ChangeStamp } {
  const context = current.getStore();
  return {
    last_change: {
      id: randomBytes(8).toString('hex'),
      actor: context?.actor ?? null,
      correlation_id: context?.correlationId ?? null,
      ...(context?.reason ? { reason: context.reason } : {}),
    },
  };
}
