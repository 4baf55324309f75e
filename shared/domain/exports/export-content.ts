import type { ModelCatalog } from '../../core/settings-catalog';
import type { ProfileCipher } from '../../crypto/profile-cipher';
import { AUDIT_PAGE } from '../../schemas/audit';
import { listMemberApiKeys } from '../../storage/api-keys';
import type { TableContext } from '../../storage/dynamo';
import type { MemberExport, MemberExportCounts } from '../../storage/member-export-items';
import { preferencePages } from '../../storage/member-export-sources';
import { getMembership } from '../../storage/memberships';
import { getUser } from '../../storage/users';
import { apiKeyView } from '../api-keys/api-key-views';
import { listAuditLog } from '../audit/list-audit-log';
import { getMemberSettings } from '../settings/get-member-settings';
import { preferenceView } from '../settings/member-settings-view';
import { assignedActionItemPages, recordingEntries, type RecordingReadDeps } from './export-recordings';
import { exportReadme } from './export-readme';
import { jsonArrayEntry, jsonEntry, textEntry, type ZipEntry } from './zip-writer';

/** What writing an export reads with. */
export interface ExportContentDeps extends RecordingReadDeps {
  db: TableContext;
  cipher: ProfileCipher;
  models: ModelCatalog;
  now: () => Date;
  /** The audit log's retention (config().events.auditRetentionDays): older entries are not the log's any more. */
  auditRetentionDays: number | null;
}

/** The member left the organization (or was erased) before their export ran. */
export class ExportedMemberGone extends Error {
  override readonly name = 'ExportedMemberGone';
}

/**
 * Every file of a member's export, in the order they are written (docs/governance.md lists
 * them and their shapes). Each comes from the reader and view the API itself answers with;
 * lists of any length are written a page at a time. `counts` moves as files are written, and
 * `manifest.json`, written last, holds its final values.
 */
export async function* exportEntries(deps: ExportContentDeps, record: MemberExport, counts: MemberExportCounts): AsyncGenerator<ZipEntry> {
  const { org_id: orgId, user_id: userId } = record;
  const [user, membership] = await Promise.all([getUser(deps.db, userId), getMembership(deps.db, orgId, userId, { consistent: true })]);
  if (!user || membership?.status !== 'active') throw new ExportedMemberGone();

  yield textEntry('README.md', exportReadme(record));
  yield jsonEntry('user.json', {
    user: {
      user_id: user.user_id,
      email: user.email,
      display_name: user.display_name,
      timezone: user.timezone,
      created_at: user.created_at,
      updated_at: user.updated_at,
    },
    memberships: [
      {
        org_id: membership.org_id,
        role: membership.role,
        status: membership.status,
        email: membership.email,
        display_name: membership.display_name,
        member_since: membership.member_since,
        recording_count: membership.recording_count,
        latest_recording_at: membership.latest_recording_at,
        created_at: membership.created_at,
        updated_at: membership.updated_at,
      },
    ],
  });

  // Get member settings with every section; its preferences are paged, an export holds them all (below).
  const settings = await getMemberSettings(deps, orgId, userId, {
    include: 'profile,tags,notifications',
    preferences_page: 1,
    preferences_limit: 1,
  });
  yield jsonEntry('settings.json', settings);
  yield jsonArrayEntry('preferences.json', mapPages(preferencePages(deps.db, orgId, userId), preferenceView));

  yield* recordingEntries(deps, orgId, userId, record.include_media, counts);

  yield jsonArrayEntry(
    'action-items-assigned.json',
    counted(assignedActionItemPages(deps.db, orgId, userId), (n) => (counts.assigned_action_items += n)),
  );
  yield jsonArrayEntry(
    'audit-log.json',
    counted(auditPages(deps, orgId, userId), (n) => (counts.audit_entries += n)),
  );

  const now = deps.now();
  const keys = (await listMemberApiKeys(deps.db, orgId, userId)).map((key) => apiKeyView(key, now));
  counts.api_keys = keys.length;
  yield jsonEntry('api-keys.json', keys);

  // Written last, so it holds the counts of everything above.
  yield jsonEntry('manifest.json', {
    export_id: record.id,
    org_id: orgId,
    user_id: userId,
    include_media: record.include_media,
    requested_at: record.created_at,
    generated_at: deps.now().toISOString(),
    counts,
  });
}

/** The audit entries whose actor is the member, newest first, a page of List audit log at a time. */
async function* auditPages(deps: ExportContentDeps, orgId: string, userId: string): AsyncGenerator<unknown[]> {
  const auditDeps = { db: deps.db, now: deps.now, retentionDays: deps.auditRetentionDays };
  let cursor: string | undefined;
  do {
    const page = await listAuditLog(auditDeps, orgId, { actor_id: userId, limit: AUDIT_PAGE.maxLimit, cursor });
    if (page.entries.length) yield page.entries;
    cursor = page.pagination.next_cursor ?? undefined;
  } while (cursor);
}

async function* mapPages<T, R>(pages: AsyncIterable<T[]>, map: (value: T) => R): AsyncGenerator<R[]> {
  for await (const page of pages) yield page.map(map);
}

async function* counted<T>(pages: AsyncIterable<T[]>, add: (n: number) => void): AsyncGenerator<T[]> {
  for await (const page of pages) {
    add(page.length);
    yield page;
  }
}
