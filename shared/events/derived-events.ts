import type { DomainEvent, ResourceType } from '../schemas/event-catalog';
import type { ChangeStamp } from '../storage/change-stamp';
import type { ItemSide } from '../storage/stream-items';

/** What a rule decides for one change: the event's type, subject and data; the envelope is filled in once, below. */
export interface Derived {
  type: DomainEvent['type'];
  resource: { type: ResourceType; id: string };
  data: Record<string, unknown>;
  occurredAt: string;
  /** The stamp that names the actor: the write's own, or none (a change by the service, e.g. TTL). */
  stamp?: ChangeStamp;
}

/**
 * The stamp of the write that made `after`: a write that did not restamp the item (same
 * stamp id as before) is not attributed to the earlier writer.
 */
export function writerOf<T>(before: ItemSide<T> | undefined, after: ItemSide<T> | undefined): ChangeStamp | undefined {
  if (!after?.stamp) return undefined;
  return before?.stamp?.id === after.stamp.id ? undefined : after.stamp;
}

/** Names of the listed fields whose values differ (compared as JSON). */
export function changedFields<T extends object>(before: T, after: T, fields: readonly (keyof T & string)[]): string[] {
  return fields.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}
