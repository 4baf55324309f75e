import type { TableContext } from '../storage/dynamo';
import { batchGetAll } from '../storage/query-all';
import type { EnsureOutcome } from './directory';

/*
 * What the bulk sections of a seed (ensure-in-bulk.ts, ensure-memberships-in-bulk.ts) share:
 * reading by key, first occurrences, and what one section hands the next so that it need not
 * read it back.
 */
export type Count = (outcome: EnsureOutcome) => void;
type Item = Record<string, unknown>;

/** Stored items by key, read 100 at a time. */
export async function readByKey(db: TableContext, itemKeys: { PK: string; SK: string }[]): Promise<Map<string, Item>> {
  const items = await batchGetAll(db, itemKeys);
  return new Map(items.map((item) => [`${String(item.PK)}|${String(item.SK)}`, item]));
}
export const keyOf = (key: { PK: string; SK: string }) => `${key.PK}|${key.SK}`;

/**
 * Splits entries into the first occurrence of each key (safe to write side by side) and the
 * repeats, which go through the one-entry path after the bulk write, as a sequential load would
 * see them.
 */
export function firstOccurrences<T>(entries: readonly T[], keysOf: (entry: T) => string[]): { first: T[]; repeats: T[] } {
  const seen = new Set<string>();
  const first: T[] = [];
  const repeats: T[] = [];
  for (const entry of entries) {
    const entryKeys = keysOf(entry);
    if (entryKeys.some((key) => seen.has(key))) repeats.push(entry);
    else {
      entryKeys.forEach((key) => seen.add(key));
      first.push(entry);
    }
  }
  return { first, repeats };
}

/**
 * The users as the users section leaves them, by id: the email and display name a new
 * membership copies, and whether the user was absent when read (then no membership of it
 * was stored before, so none is read).
 */
export type SeededUsers = ReadonlyMap<string, { email: string; display_name: string; absent: boolean }>;

/**
 * What the sections before one established. Only a hint for reading less: every bulk write
 * is still conditioned on its item's absence, so an item stored despite it cancels its
 * transaction and the one-entry path decides, as without the hint.
 */
export interface SeededSoFar {
  /** Organizations this seed created: nothing was stored under them before. */
  newOrgs?: ReadonlySet<string>;
  users?: SeededUsers;
  /** Memberships (`org|user`) the users section created along with their users. */
  membershipsCreated?: ReadonlySet<string>;
  /** Memberships (`org|user`) stored by the memberships section. */
  memberships?: ReadonlySet<string>;
}

/** A membership's key in SeededSoFar. */
export const memberKey = (orgId: string, userId: string) => `${orgId}|${userId}`;
