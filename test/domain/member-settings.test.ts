import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { localProfileCipher } from '../../infra/local/profile-key';
import { parseModelCatalog } from '../../shared/config';
import { updateMemberSettings, type SettingsAudit } from '../../shared/domain/settings/update-member-settings';
import { UpdateMemberSettingsBody } from '../../shared/schemas/settings';
import { keys } from '../../shared/storage/keys';
import { localDeployment, seed, unique } from '../support/api';

/**
 * Update member settings (shared/domain/settings/update-member-settings.ts) called directly
 * against the emulator's table with a chosen clock: what a preference update may store
 * once its metadata is merged into the stored metadata.
 */
const { db, dataDir } = localDeployment();
const T0 = new Date('2026-04-01T09:00:00.000Z');
const T1 = new Date('2026-04-02T09:00:00.000Z');
const deps = (at: Date) => ({ db, cipher: localProfileCipher(dataDir), models: parseModelCatalog({}), now: () => at });
const audit: SettingsAudit = { actor: 'key_dms_admin', correlationId: 'corr-dms', source: 'org_admin_api' };
const METADATA_LIMIT = 1_000; // PREFERENCE_LIMITS.metadataJson

/** A member of an organization of its own. */
async function member() {
  const id = unique();
  const target = { orgId: `org_dms_${id}`, userId: `usr_dms_${id}` };
  await seed(db, {
    orgs: [{ id: target.orgId, name: `Settings ${id}` }],
    users: [{ id: target.userId, email: `dms.${id}@example.com`, display_name: 'Dee' }],
    memberships: [{ org_id: target.orgId, user_id: target.userId, role: 'member' }],
  });
  return target;
}

/** Applies a PATCH body as the route does: validated by its schema, then the domain. */
const patch = (target: { orgId: string; userId: string }, body: unknown, at = T1) =>
  updateMemberSettings(deps(at), target, audit, v.parse(UpdateMemberSettingsBody, body));

/** A metadata object of one field whose JSON is exactly `length` characters. */
const metadataOfLength = (field: string, length: number) => ({ [field]: 'x'.repeat(length - `{"${field}":""}`.length) });

const storedPreference = async (target: { orgId: string; userId: string }, preferenceId: string) =>
  (
    await db.client.send(
      new GetCommand({ TableName: db.tableName, Key: keys.preference(target.orgId, target.userId, preferenceId), ConsistentRead: true }),
    )
  ).Item;

/** Creates one preference with this metadata at T0; returns its id and its stored item. */
async function preferenceWith(target: { orgId: string; userId: string }, metadata: Record<string, unknown>) {
  const id = `pref_dms_${unique()}`;
  await updateMemberSettings(deps(T0), target, audit, {
    preferences: [{ op: 'create', fixedId: id, command: 'summarize', command_type: 'manual', preference_content: 'Short.', metadata }],
  });
  return { id, stored: await storedPreference(target, id) };
}

describe('a preference update merges its metadata into the stored metadata', () => {
  it("refuses with 400 INVALID_PREFERENCES, naming the entry's metadata, when the merged metadata would pass 1,000 characters as JSON; nothing is written", async () => {
    const target = await member();
    const { id, stored } = await preferenceWith(target, metadataOfLength('origin', 600));
    const settingsBefore = await db.client.send(
      new GetCommand({ TableName: db.tableName, Key: keys.memberSettings(target.orgId, target.userId), ConsistentRead: true }),
    );

    // Each part is within the limit on its own (the schema accepts it); merged they are 1,200 characters.
    await expect(
      patch(target, { settings: { selected_theme: 'dark' }, preferences: [{ id, metadata: metadataOfLength('notes', 601) }] }),
    ).rejects.toMatchObject({
      statusCode: 400,
      code: 'INVALID_PREFERENCES',
      details: [
        {
          field: 'preferences[0].metadata',
          issue: 'too_long',
          message: expect.stringContaining('1,000 characters as JSON once merged into the stored metadata'),
        },
      ],
    });
    expect(await storedPreference(target, id)).toEqual(stored);
    // All or nothing: the settings named beside it are not applied either.
    expect(
      (
        await db.client.send(
          new GetCommand({ TableName: db.tableName, Key: keys.memberSettings(target.orgId, target.userId), ConsistentRead: true }),
        )
      ).Item,
    ).toEqual(settingsBefore.Item);
  });

  it("counts the member's own fields only, as a create does: stored and given fields merging to exactly 1,000 characters are accepted, the audit fields on top", async () => {
    const target = await member();
    const own = metadataOfLength('origin', METADATA_LIMIT);
    const { id } = await preferenceWith(target, own);
    // Replacing the field with a value of the same length keeps the merged metadata at the limit.
    const replaced = { origin: 'y'.repeat(own.origin.length) };
    await patch(target, { preferences: [{ id, metadata: replaced }] });
    expect((await storedPreference(target, id))?.metadata).toEqual({
      ...replaced,
      source: 'org_admin_api',
      actor: audit.actor,
      correlation_id: audit.correlationId,
    });
  });

  it('an update that names no metadata keeps the stored metadata, whatever its size', async () => {
    const target = await member();
    const { id } = await preferenceWith(target, metadataOfLength('origin', METADATA_LIMIT));
    await patch(target, { preferences: [{ id, preference_content: 'Longer.' }] });
    expect(await storedPreference(target, id)).toMatchObject({
      preference_content: 'Longer.',
      metadata: expect.objectContaining({ origin: expect.any(String) }),
    });
  });
});
