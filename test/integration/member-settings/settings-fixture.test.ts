import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../../shared/storage/keys';
import { localDeployment, seed, unique } from '../../support/api';
import {
  client,
  DEFAULT_NOTIFICATIONS,
  fullBundle,
  HOUR_MS,
  itemAsText,
  profileVersionRows,
  rawItem,
  seededOrg,
} from '../../support/member-settings';

/**
 * The `settings` section of a fixture (`cli seed`, the local demo): the member settings it
 * writes, read back through Get member settings, and loading it again changes nothing.
 */
const { db } = localDeployment();

describe('the settings section of a fixture (cli seed, the local demo)', () => {
  const settingsItems = async (orgId: string, userId: string) => {
    const { Items } = await db.client.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': `ORG#${orgId}`, ':prefix': `MEMBER#${userId}#` },
      }),
    );
    return Items ?? [];
  };

  it('writes settings, notifications, an encrypted profile and preferences, and writes nothing when loaded again', async () => {
    const org = await seededOrg();
    const user = org.people.target;
    const entry = {
      org_id: org.org,
      user_id: user.id,
      settings: { selected_theme: 'dark' as const, selected_model: 'sonnet', conversation_language: 'Italian' as const },
      notifications: { highlight_time: '07:30', reminder_notifications_enabled: false },
      profile: `# Fixture profile ${unique()}`,
      preferences: [
        { id: `pref_fixed_${unique()}`, command: 'summarize', command_type: 'summary_enhance', preference_content: 'Action items first.' },
        { command: 'translate', command_type: 'manual', preference_content: 'Keep names.' },
      ],
    };
    // Loaded an hour ago: loading it again now would show in every timestamp it rewrote.
    await seed(db, { settings: [entry] }, new Date(Date.now() - HOUR_MS));

    const api = client('organization', org);
    const bundle = await fullBundle(api, user.id);
    expect(bundle.settings).toMatchObject({
      selected_theme: 'dark',
      selected_model: 'claude-sonnet-4-5',
      conversation_language: 'Italian',
    });
    expect(bundle.notifications).toEqual({ ...DEFAULT_NOTIFICATIONS, highlight_time: '07:30', reminder_notifications_enabled: false });
    expect(bundle.profile).toEqual({ profile: entry.profile, version: 1 });
    expect(bundle.preferences.pagination.total).toBe(2);
    expect(bundle.preferences.data.map((p: { id: string }) => p.id)).toContain(entry.preferences[0].id);
    for (const p of bundle.preferences.data) expect(p.metadata).toMatchObject({ source: 'fixture' });
    expect(itemAsText(await rawItem(keys.memberProfile(org.org, user.id)))).not.toContain(entry.profile);

    const itemsBefore = await settingsItems(org.org, user.id);
    await seed(db, { settings: [entry] });
    expect(await settingsItems(org.org, user.id)).toEqual(itemsBefore);
    expect(await profileVersionRows(org.org, user.id)).toHaveLength(1);
    expect(await fullBundle(api, user.id)).toEqual(bundle);
  });

  it('a preference with its own metadata is also written only once', async () => {
    // Stored metadata also holds the audit fields: the given metadata must be compared as contained in it.
    const org = await seededOrg();
    const user = org.people.target;
    const entry = {
      org_id: org.org,
      user_id: user.id,
      preferences: [{ command: 'summarize', command_type: 'manual', preference_content: 'With metadata.', metadata: { origin: 'crm' } }],
    };
    // Loaded an hour ago: loading it again now would show in every timestamp it rewrote.
    await seed(db, { settings: [entry] }, new Date(Date.now() - HOUR_MS));
    const itemsBefore = await settingsItems(org.org, user.id);
    expect(itemsBefore.length).toBeGreaterThan(0);
    await seed(db, { settings: [entry] });
    expect(await settingsItems(org.org, user.id)).toEqual(itemsBefore);
  });

  it('loading a fixture whose profile changed writes one new version', async () => {
    const org = await seededOrg();
    const user = org.people.target;
    await seed(db, { settings: [{ org_id: org.org, user_id: user.id, profile: 'First' }] });
    await seed(db, { settings: [{ org_id: org.org, user_id: user.id, profile: 'Second' }] });
    await seed(db, { settings: [{ org_id: org.org, user_id: user.id, profile: 'Second' }] });
    expect((await client('alias', org).get(user.id, 'include=profile')).body.data.profile).toEqual({ profile: 'Second', version: 2 });
    expect(await profileVersionRows(org.org, user.id)).toHaveLength(2);
  });
});
