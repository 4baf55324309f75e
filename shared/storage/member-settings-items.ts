import * as v from 'valibot';
import { NotificationsPatch, SettingsPatch } from '../schemas/settings';
import { itemFields, StoredItemError } from './item-fields';

/*
 * Member settings, profiles and preferences as items: the types and the explicit mappers, with no DynamoDB
 * client (the event processor maps items and bundles none).
 */

/**
 * A member's settings item: only the fields ever written (defaults are applied on read,
 * so changing a default reaches everyone who never chose), plus the counters that must
 * move in the same transaction as the rows they count. `revision` is bumped by every
 * write and guards concurrent updates (optimistic locking).
 */
export interface MemberSettingsRecord {
  org_id: string;
  user_id: string;
  settings: SettingsPatch;
  notifications: NotificationsPatch;
  profile_version: number;
  preference_count: number;
  revision: number;
  created_at: string;
  updated_at: string;
  /** The sections the latest update changed (settings, notifications, profile, preferences): what its event names. */
  changed_sections?: string[];
}

/** The current profile ciphertext (Encryption SDK message) of a member. */
export interface ProfileRecord {
  org_id: string;
  user_id: string;
  version: number;
  ciphertext: Uint8Array;
  updated_at: string;
  updated_by: string;
}

export interface ProfileVersionRecord {
  org_id: string;
  user_id: string;
  version: number;
  source: string;
  actor: string;
  created_at: string;
  ciphertext: Uint8Array;
}

export interface PreferenceRecord {
  id: string;
  org_id: string;
  user_id: string;
  command: string;
  command_type: string;
  preference_content: string;
  source_recording_id: string | null;
  source_summarization_id: string | null;
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/**
 * Reads a stored settings item. Its `settings` and `notifications` maps hold only fields
 * the update schemas accepted, so they are read back through the same schemas: a field
 * the schemas no longer accept is drift (StoredItemError), not a value to pass on.
 */
export function memberSettingsFromItem(item: Record<string, unknown>): MemberSettingsRecord {
  const field = itemFields(item, 'member settings');
  const section = <S extends v.GenericSchema>(name: string, schema: S): v.InferOutput<S> => {
    const read = v.safeParse(schema, field.map(name));
    if (!read.success)
      throw new StoredItemError(`Stored member settings ${String(item.PK)}|${String(item.SK)}: ${name} ${v.summarize(read.issues)}`);
    return read.output;
  };
  return {
    org_id: field.string('org_id'),
    user_id: field.string('user_id'),
    settings: section('settings', SettingsPatch),
    notifications: section('notifications', NotificationsPatch),
    profile_version: field.number('profile_version'),
    preference_count: field.number('preference_count'),
    revision: field.number('revision'),
    created_at: field.string('created_at'),
    updated_at: field.string('updated_at'),
    ...(item.changed_sections !== undefined ? { changed_sections: field.stringList('changed_sections') } : {}),
  };
}

/** Reads a member's current profile item. */
export function profileFromItem(item: Record<string, unknown>): ProfileRecord {
  const field = itemFields(item, 'profile');
  return {
    org_id: field.string('org_id'),
    user_id: field.string('user_id'),
    version: field.number('version'),
    ciphertext: field.bytes('ciphertext'),
    updated_at: field.string('updated_at'),
    updated_by: field.string('updated_by'),
  };
}

/** Reads a profile version row. */
export function profileVersionFromItem(item: Record<string, unknown>): ProfileVersionRecord {
  const field = itemFields(item, 'profile version');
  return {
    org_id: field.string('org_id'),
    user_id: field.string('user_id'),
    version: field.number('version'),
    source: field.string('source'),
    actor: field.string('actor'),
    created_at: field.string('created_at'),
    ciphertext: field.bytes('ciphertext'),
  };
}

/** Reads a preference item; its source ids are null when it was created without them. */
export function preferenceFromItem(item: Record<string, unknown>): PreferenceRecord {
  const field = itemFields(item, 'preference');
  return {
    id: field.string('id'),
    org_id: field.string('org_id'),
    user_id: field.string('user_id'),
    command: field.string('command'),
    command_type: field.string('command_type'),
    preference_content: field.string('preference_content'),
    source_recording_id: field.nullableString('source_recording_id'),
    source_summarization_id: field.nullableString('source_summarization_id'),
    metadata: field.map('metadata'),
    created_at: field.string('created_at'),
    updated_at: field.string('updated_at'),
  };
}
