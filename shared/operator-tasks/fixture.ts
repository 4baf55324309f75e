import { ConflictError } from '../core/errors';
import type { Fixture } from '../schemas/fixture';
import type { TableContext } from '../storage/dynamo';
import { recountOrganization } from '../storage/bulk-writes';
import { getOrganization } from '../storage/organizations';
import { getTag, putTag } from '../storage/tags';
import { getTemplate, putTemplate } from '../storage/templates';
import type { TemplateRecord } from '../storage/template-items';
import { ensureApiKey } from './api-keys';
import { rebuildDerivedIndexes } from './derived-indexes';
import { ensureInvite } from './ensure-invite';
import { ensureRecordingsInBulk, ensureUsersInBulk } from './ensure-in-bulk';
import { ensureMembershipsInBulk, membershipsJoiningTheirUsers } from './ensure-memberships-in-bulk';
import { ensureMemberSettings, type SettingsFixtureDeps } from './ensure-member-settings';
import { ensureOrganization, type EnsureOutcome } from './directory';

export type SeedSummary = Record<keyof Fixture, Record<EnsureOutcome, number>>;

/**
 * What seeding needs: the table, the trash's retention (TRASH_RETENTION_DAYS: recordings in the trash get
 * their timers), and for member settings the profile cipher and model list.
 */
export interface SeedDeps {
  db: TableContext;
  trashRetentionDays: number;
  settings?: SettingsFixtureDeps;
}

/**
 * Loads a fixture (already validated by the Fixture schema). Idempotent: every entry is
 * created, updated to match, or left alone, so loading the same file twice changes
 * nothing the second time. Ids given in the fixture are kept.
 */
export async function seedFixture({ db, settings, trashRetentionDays }: SeedDeps, fixture: Fixture, now: Date): Promise<SeedSummary> {
  const summary = Object.fromEntries(
    Object.keys(fixture).map((section) => [section, { created: 0, updated: 0, unchanged: 0 }]),
  ) as SeedSummary;
  const count = (section: keyof Fixture, outcome: EnsureOutcome) => summary[section][outcome]++;

  // In dependency order: memberships need orgs and users; keys, tags, recordings, settings and invites need members.
  const newOrgs = new Set<string>();
  for (const org of fixture.orgs) {
    const outcome = await ensureOrganization(db, org, now);
    if (outcome === 'created') newOrgs.add(org.id);
    count('orgs', outcome);
  }
  // Users, memberships and recordings (the sections that grow to thousands) go in bulk: see
  // ensure-in-bulk.ts. A new user's memberships go in its own creation; each section hands the
  // next what it stored, which the next then need not read.
  const { users, membershipsCreated } = await ensureUsersInBulk(
    db,
    fixture.users,
    now,
    (outcome) => count('users', outcome),
    (absent) => membershipsJoiningTheirUsers(db, fixture, now, absent),
  );
  const memberships = await ensureMembershipsInBulk(db, fixture, now, (outcome) => count('memberships', outcome), {
    newOrgs,
    users,
    membershipsCreated,
  });
  for (const k of fixture.api_keys) {
    count(
      'api_keys',
      await ensureApiKey(db, { orgId: k.org_id, userId: k.user_id, key: k.key, scopes: k.scopes, keyId: k.id, name: k.name }, now),
    );
  }
  for (const tag of fixture.tags) count('tags', await ensureTag(db, tag, now));
  for (const template of fixture.templates) count('templates', await ensureTemplate(db, template, now));
  await ensureRecordingsInBulk({ db, trashRetentionDays }, fixture.recordings, now, (outcome) => count('recordings', outcome), {
    newOrgs,
    memberships,
  });
  if (fixture.settings.length) {
    if (!settings) throw new Error('Seeding member settings needs the profile cipher');
    for (const entry of fixture.settings) count('settings', await ensureMemberSettings(settings, entry, now));
  }
  // Last: an invitation is refused for an active member, so the memberships come first.
  for (const invite of fixture.invites) count('invites', await ensureInvite(db, invite, now));
  // Every organization the fixture wrote to: its derived indexes are rebuilt where marked
  // incomplete (stored before they existed, or by a bulk write, interrupted or not), recordings
  // in its trash without a timer get one, and its counters are set from its items. Always, so a
  // re-run repairs what an interrupted seed left.
  const orgIds = [
    ...new Set([
      ...fixture.orgs.map((org) => org.id),
      ...fixture.memberships.map((m) => m.org_id),
      ...fixture.templates.map((t) => t.org_id),
      ...fixture.recordings.map((r) => r.org_id),
    ]),
  ];
  for (const orgId of orgIds) {
    if (!(await getOrganization(db, orgId))) continue;
    await rebuildDerivedIndexes(db, orgId, now, { trashRetentionDays });
    await recountOrganization(db, orgId);
  }
  return summary;
}

async function ensureTemplate(db: TableContext, input: Fixture['templates'][number], now: Date): Promise<EnsureOutcome> {
  const { id, org_id: orgId, is_default: isDefault, ...fields } = input;
  const existing = await getTemplate(db, orgId, id, { consistent: true });
  const same = (template: TemplateRecord) =>
    JSON.stringify([template.name, template.description, template.sections, template.is_default ?? false]) ===
    JSON.stringify([fields.name, fields.description, fields.sections, isDefault]);
  if (existing && same(existing)) return 'unchanged';
  // The default moves as through the API: the organization's pointer and both templates in one transaction.
  const currentDefault = (await getOrganization(db, orgId, { consistent: true }))?.default_template_id;
  const defaultMove = isDefault === (currentDefault === id) ? undefined : { from: currentDefault, to: isDefault ? id : undefined };
  const timestamp = now.toISOString();
  const template: TemplateRecord = {
    id,
    org_id: orgId,
    ...fields,
    is_default: isDefault,
    created_at: existing?.created_at ?? timestamp,
    updated_at: timestamp,
  };
  await putTemplate(db, template, existing ? 'replace' : 'create', { wasDefault: existing?.is_default, defaultMove });
  return existing ? 'updated' : 'created';
}

async function ensureTag(db: TableContext, input: Fixture['tags'][number], now: Date): Promise<EnsureOutcome> {
  const existing = await getTag(db, input.org_id, input.id);
  if (existing && existing.user_id !== input.user_id) {
    throw new ConflictError('TAG_EXISTS', `Tag ${input.id} belongs to another member.`);
  }
  if (existing && existing.name === input.name && existing.color === input.color) return 'unchanged';
  const timestamp = now.toISOString();
  await putTag(db, {
    tag_id: input.id,
    org_id: input.org_id,
    user_id: input.user_id,
    name: input.name,
    color: input.color,
    created_at: existing?.created_at ?? timestamp,
    updated_at: timestamp,
  });
  return existing ? 'updated' : 'created';
}
