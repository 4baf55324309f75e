import { NotFoundError, ValidationError } from '../../core/errors';
import { pagePagination } from '../../core/page-pagination';
import type { ProfileCipher } from '../../crypto/profile-cipher';
import type { GetSettingsQuery } from '../../schemas/settings';
import type { TableContext } from '../../storage/dynamo';
import { listMemberTags, listPreferences, readMemberState } from '../../storage/member-settings';
import type { ModelCatalog } from '../../core/settings-catalog';
import { notificationsView, preferenceView, settingsView, tagView, userView } from './member-settings-view';

export const OPTIONAL_SECTIONS = ['notifications', 'profile', 'preferences', 'tags'] as const;
export type OptionalSection = (typeof OPTIONAL_SECTIONS)[number];

/**
 * Which optional sections a Get member settings request asks for. `include` lists
 * profile, preferences, tags (and notifications); `none` asks for no optional section;
 * without `include` only notifications come. An explicit include_<section>=true|false
 * then adds or removes that section.
 */
export function resolveIncludes(query: GetSettingsQuery): Set<OptionalSection> {
  const sections = new Set<OptionalSection>(['notifications']);
  if (query.include !== undefined) {
    const names = query.include
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    sections.clear();
    if (names.includes('none')) {
      if (names.length > 1) throw ValidationError.field('include', 'invalid_value', 'cannot combine none with other sections');
    } else {
      if (names.length === 0)
        throw ValidationError.field('include', 'too_short', 'must name profile, preferences, tags, notifications or none');
      const unknown = names.filter((name) => !(OPTIONAL_SECTIONS as readonly string[]).includes(name));
      if (unknown.length)
        throw ValidationError.field(
          'include',
          'invalid_value',
          `names unknown sections ${unknown.join(', ')} (allowed: profile, preferences, tags, notifications, none)`,
        );
      // Notifications are part of the default bundle: naming other sections adds to it.
      sections.add('notifications');
      for (const name of names) sections.add(name as OptionalSection);
    }
  }
  for (const section of OPTIONAL_SECTIONS) {
    const flag = query[`include_${section}`];
    if (flag === 'true') sections.add(section);
    if (flag === 'false') sections.delete(section);
  }
  return sections;
}

export interface SettingsReadDeps {
  db: TableContext;
  cipher: ProfileCipher;
  models: ModelCatalog;
  /** The clock: monthly_transcription_minutes is this UTC month's usage. */
  now: () => Date;
}

/**
 * A member's settings bundle. One BatchGetItem reads the membership, user, settings and
 * (when asked) the profile; the first preferences page and the tags are queried alongside
 * it. A later preferences page waits for the count, then skips the earlier preferences
 * (a COUNT query) before reading its own. The profile is decrypted (one KMS call in AWS)
 * only when asked for.
 */
export async function getMemberSettings(deps: SettingsReadDeps, orgId: string, userId: string, query: GetSettingsQuery) {
  const include = resolveIncludes(query);
  const offset = (query.preferences_page - 1) * query.preferences_limit;
  const [state, firstPreferences, tags] = await Promise.all([
    readMemberState(deps.db, orgId, userId, { withProfile: include.has('profile'), usageMonth: deps.now().toISOString().slice(0, 7) }),
    include.has('preferences') && offset === 0
      ? listPreferences(deps.db, orgId, userId, { offset, limit: query.preferences_limit })
      : undefined,
    include.has('tags') ? listMemberTags(deps.db, orgId, userId) : undefined,
  ]);
  const { membership, user, settings, profile, monthlyTranscriptionMinutes } = state;
  if (membership?.status !== 'active')
    throw new NotFoundError('MEMBER_NOT_FOUND', `User ${userId} is not an active member of this organization.`);

  const data: Record<string, unknown> = {
    user: userView(membership, user),
    settings: settingsView(settings, membership, deps.models, monthlyTranscriptionMinutes),
  };
  if (include.has('notifications')) data.notifications = notificationsView(settings);
  if (include.has('profile')) {
    data.profile = profile
      ? { profile: await deps.cipher.decrypt(profile.ciphertext, { orgId, userId }), version: profile.version }
      : { profile: '', version: 0 };
  }
  if (include.has('preferences')) {
    const total = settings?.preference_count ?? 0;
    // Deeper pages wait for the count, so a page past the end skips nothing.
    const records =
      firstPreferences ?? (offset < total ? await listPreferences(deps.db, orgId, userId, { offset, limit: query.preferences_limit }) : []);
    data.preferences = {
      data: records.map(preferenceView),
      pagination: pagePagination(query.preferences_page, query.preferences_limit, total),
    };
  }
  if (tags) data.tags = tags.map(tagView);
  return data;
}
