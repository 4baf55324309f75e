import { ACTOR_KINDS, type Actor } from '../schemas/event-catalog';
import { ERASURE_COUNT_NAMES, ERASURE_STATUSES, type ErasureCountName, type ErasureStatus } from '../schemas/erasures';
import { changeStamp } from './change-stamp';
import { itemFields, nestedItemFields } from './item-fields';
import { keys } from './keys';

/**
 * Erasures of members as items (docs/governance.md, "Erasure"): the type, the item builder and
 * the explicit mapper, with no DynamoDB client (the event processor maps these items and
 * bundles none). An erasure holds ids, a step and counts: never the email or name of the
 * person, so it can stay when everything else about them is gone.
 */
export interface ErasureRecord {
  id: string;
  org_id: string;
  user_id: string;
  status: ErasureStatus;
  /** The step to run next (the job resumes there after a crash); null once completed. */
  step: string | null;
  /** What each step found to erase, written once when the step starts: a resumed step does not count again. */
  counts: Partial<Record<ErasureCountName, number>>;
  requested_by: Actor;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** The error code of the step that failed for good (`failed`). */
  error: string | null;
  /**
   * The recordings being deleted (a page of ids): one deleted before a crash has left its
   * recorder's index, so a resumed job finds it here to finish its cleanup.
   */
  in_progress: string[];
}

/** The erasure's item: its keys, its fields and the change stamp whose events the stream derives (user.erasure_requested, user.erased). */
export function erasureItem(erasure: ErasureRecord) {
  return { ...keys.erasure(erasure.org_id, erasure.id), ...erasure, ...changeStamp() };
}

/** The guard that names the running erasure of a member. */
export function erasureGuardItem(erasure: Pick<ErasureRecord, 'org_id' | 'user_id' | 'id'>) {
  return { ...keys.erasureGuard(erasure.org_id, erasure.user_id), erasure_id: erasure.id };
}

/** One line of the erasure log: what a replay after a restore runs again. */
export interface ErasureLogEntry {
  org_id: string;
  user_id: string;
  erasure_id: string;
  /** Who asked (a user id or an org key id): a replay is attributed to them again. */
  requested_by: Actor;
  completed_at: string;
}

export function erasureLogItem(entry: ErasureLogEntry) {
  return { ...keys.erasureLog(entry.completed_at, entry.erasure_id), ...entry };
}

export function erasureLogEntryFromItem(item: Record<string, unknown>): ErasureLogEntry {
  const fields = itemFields(item, 'erasure log entry');
  const requester = nestedItemFields(item, item.requested_by, 'erasure log requester');
  return {
    org_id: fields.string('org_id'),
    user_id: fields.string('user_id'),
    erasure_id: fields.string('erasure_id'),
    requested_by: { kind: requester.oneOf('kind', ACTOR_KINDS), id: requester.string('id') },
    completed_at: fields.string('completed_at'),
  };
}

/** Maps a stored erasure (StoredItemError when it lacks a field it needs). */
export function erasureFromItem(item: Record<string, unknown>): ErasureRecord {
  const fields = itemFields(item, 'erasure');
  const requester = nestedItemFields(item, item.requested_by, 'erasure requester');
  const storedCounts = fields.map('counts');
  const counts: Partial<Record<ErasureCountName, number>> = {};
  for (const name of ERASURE_COUNT_NAMES) {
    const value = storedCounts[name];
    if (typeof value === 'number') counts[name] = value;
  }
  return {
    id: fields.string('id'),
    org_id: fields.string('org_id'),
    user_id: fields.string('user_id'),
    status: fields.oneOf('status', ERASURE_STATUSES),
    step: fields.nullableString('step'),
    counts,
    requested_by: { kind: requester.oneOf('kind', ACTOR_KINDS), id: requester.string('id') },
    created_at: fields.string('created_at'),
    updated_at: fields.string('updated_at'),
    completed_at: fields.nullableString('completed_at'),
    error: fields.nullableString('error'),
    in_progress: item.in_progress === undefined ? [] : fields.stringList('in_progress'),
  };
}
