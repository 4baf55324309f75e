import type { ProfileCipher } from '../../crypto/profile-cipher';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { newId } from '../../ids';
import type { TableContext } from '../../storage/dynamo';
import { commitSettingsChange, readMemberState, type SettingsChange } from '../../storage/member-settings';
import type { MemberSettingsRecord, PreferenceRecord } from '../../storage/member-settings-items';
import { WriteConflict } from '../../storage/transactions';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { normalizeModel, type ModelCatalog } from '../../core/settings-catalog';
import { metadataWithinLimit, PREFERENCE_LIMITS, type MemberSettingsPatch } from '../../schemas/settings';
import { formatCount } from '../../schemas/common';

export interface SettingsWriteDeps {
  db: TableContext;
  cipher: ProfileCipher;
  models: ModelCatalog;
  now: () => Date;
}

/** Who is writing, recorded in preference metadata and profile version rows. */
export interface SettingsAudit {
  /** User id, or org API key id. */
  actor: string;
  correlationId: string;
  /** org_admin_api through this API; fixture for `cli seed`. */
  source: string;
}

export interface SettingsUpdateResult {
  applied: {
    settings: boolean;
    notifications: boolean;
    profile: boolean;
    preferences_created: number;
    preferences_updated: number;
    preferences_deleted: number;
  };
  profile_version: number;
  /** The sections this update changed, for the audit log. */
  changed_sections: string[];
}

/** The fields the API merges into every preference's metadata (spec rule 5): they win over the member's own. */
const AUDIT_METADATA_FIELDS = ['source', 'actor', 'correlation_id'] as const;

/** A preference's metadata without the audit fields: what the metadata limit counts, on a create as on an update. */
function ownMetadata(metadata: Record<string, unknown>): Record<string, unknown> {
  const own = { ...metadata };
  for (const field of AUDIT_METADATA_FIELDS) delete own[field];
  return own;
}

/** Attempts before two writers racing on one member give up with 409. */
const MAX_ATTEMPTS = 40;

/**
 * Applies a validated settings patch to an active member, all-or-nothing.
 *
 * The profile is encrypted once, under the target member's encryption context, while the
 * member's state is read (one BatchGetItem); the whole change is planned and committed in one
 * transaction guarded by the settings item's revision. A concurrent writer makes the
 * transaction fail; the change is then planned again on fresh state, so two concurrent
 * profile updates get two distinct versions and neither is lost.
 */
export async function updateMemberSettings(
  deps: SettingsWriteDeps,
  target: { orgId: string; userId: string },
  audit: SettingsAudit,
  patch: MemberSettingsPatch,
): Promise<SettingsUpdateResult> {
  const settingsPatch = patch.settings?.selected_model
    ? { ...patch.settings, selected_model: normalizeModel(patch.settings.selected_model, deps.models) }
    : patch.settings;
  // Encrypted once (one KMS call in AWS), alongside the first read rather than before it.
  const encrypting = patch.profile === undefined ? undefined : deps.cipher.encrypt(patch.profile, target);
  encrypting?.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
  const entries = patch.preferences ?? [];
  const referencedIds = entries.flatMap((entry) => (entry.op === 'create' ? [] : [entry.id]));
  // Ids of new preferences are chosen once, so a retried attempt writes the same rows.
  const newIds = entries.map((entry) => (entry.op === 'create' ? (entry.fixedId ?? newId('pref')) : ''));

  const attempt = async (): Promise<SettingsUpdateResult> => {
    const state = await readMemberState(deps.db, target.orgId, target.userId, { preferenceIds: referencedIds });
    const ciphertext = await encrypting;
    if (state.membership?.status !== 'active') throw memberNotFound(target.userId);

    const now = deps.now().toISOString();
    const previous = state.settings;
    const metadataOf = (own: Record<string, unknown> | undefined) => ({
      ...own,
      source: audit.source,
      actor: audit.actor,
      correlation_id: audit.correlationId,
    });
    const preferences: SettingsChange['preferences'] = { create: [], put: [], delete: [] };
    entries.forEach((entry, index) => {
      if (entry.op === 'create') {
        preferences.create.push({
          id: newIds[index],
          org_id: target.orgId,
          user_id: target.userId,
          command: entry.command,
          command_type: entry.command_type,
          preference_content: entry.preference_content,
          source_recording_id: entry.source_recording_id ?? null,
          source_summarization_id: entry.source_summarization_id ?? null,
          metadata: metadataOf(entry.metadata),
          created_at: now,
          updated_at: now,
        });
        return;
      }
      const current = state.preferences.get(entry.id);
      if (!current)
        throw ValidationError.field(
          `preferences[${index}].id`,
          'invalid_value',
          `names no preference of this member (${entry.id})`,
          'INVALID_PREFERENCES',
        );
      if (entry.op === 'update') {
        const { id: _id, op: _op, metadata, ...fields } = entry;
        const merged = { ...ownMetadata(current.metadata), ...metadata };
        // The schema bounds the metadata given; merged over the stored one it must still fit, as a create's would.
        if (metadata && !metadataWithinLimit(merged)) {
          const limit = formatCount(PREFERENCE_LIMITS.metadataJson);
          const size = formatCount(JSON.stringify(merged).length);
          throw ValidationError.field(
            `preferences[${index}].metadata`,
            'too_long',
            `must be at most ${limit} characters as JSON once merged into the stored metadata (it would be ${size})`,
            'INVALID_PREFERENCES',
          );
        }
        preferences.put.push({ ...current, ...fields, metadata: metadataOf(merged), updated_at: now } satisfies PreferenceRecord);
      } else {
        preferences.delete.push(entry.id);
      }
    });
    const profileVersion = (previous?.profile_version ?? 0) + (ciphertext ? 1 : 0);
    const settings: MemberSettingsRecord = {
      org_id: target.orgId,
      user_id: target.userId,
      settings: { ...previous?.settings, ...settingsPatch },
      notifications: { ...previous?.notifications, ...patch.notifications },
      profile_version: profileVersion,
      preference_count: (previous?.preference_count ?? 0) + preferences.create.length - preferences.delete.length,
      revision: (previous?.revision ?? 0) + 1,
      // The bundle showed the membership's creation time before any write; keep showing it.
      created_at: previous?.created_at ?? state.membership.created_at,
      updated_at: now,
      changed_sections: changedSections(patch),
    };
    const change: SettingsChange = {
      previousRevision: previous?.revision,
      settings,
      preferences,
      profile: ciphertext && {
        current: {
          org_id: target.orgId,
          user_id: target.userId,
          version: profileVersion,
          ciphertext,
          updated_at: now,
          updated_by: audit.actor,
        },
        version: {
          org_id: target.orgId,
          user_id: target.userId,
          version: profileVersion,
          source: audit.source,
          actor: audit.actor,
          created_at: now,
          ciphertext,
        },
      },
    };

    try {
      await commitSettingsChange(deps.db, change);
    } catch (error) {
      // The member left meanwhile: final. Any other conflict: plan again on fresh state.
      if (error instanceof WriteConflict && error.failedAt('membership')) throw memberNotFound(target.userId);
      throw error;
    }
    return {
      applied: {
        settings: settingsPatch !== undefined,
        notifications: patch.notifications !== undefined,
        profile: ciphertext !== undefined,
        preferences_created: change.preferences.create.length,
        preferences_updated: change.preferences.put.length,
        preferences_deleted: change.preferences.delete.length,
      },
      profile_version: profileVersion,
      changed_sections: changedSections(patch),
    };
  };
  return retryOnWriteConflict(attempt, {
    attempts: MAX_ATTEMPTS,
    exhausted: () => new ConflictError('CONCURRENT_UPDATE', 'The member settings kept changing under this update; retry it.'),
  });
}

function memberNotFound(userId: string): NotFoundError {
  return new NotFoundError('MEMBER_NOT_FOUND', `User ${userId} is not an active member of this organization.`);
}

/** The sections a patch names, in the bundle's order: what its event and audit entry list (never their content). */
function changedSections(patch: { settings?: unknown; notifications?: unknown; profile?: unknown; preferences?: unknown }) {
  return (['settings', 'notifications', 'profile', 'preferences'] as const).filter((section) => patch[section] !== undefined);
}
