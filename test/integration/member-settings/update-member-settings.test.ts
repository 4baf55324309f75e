import { keys } from '../../../shared/storage/keys';
import { failure, idTokenFor, once, TIMESTAMP, unique } from '../../support/api';
import {
  applied,
  client,
  DEFAULT_NOTIFICATIONS,
  DEFAULT_SETTINGS,
  fullBundle,
  HOUR_MS,
  newMember,
  patchedAt,
  patchOk,
  preferencesOf,
  profileVersionRows,
  rawItem,
  routesOf,
  seededOrg,
  type Client,
  type Org,
} from '../../support/member-settings';

/**
 * Update member settings end to end: HTTP -> local API Gateway emulator -> authorizer ->
 * handler -> DynamoDB Local (and the local profile key), on the organization route and on
 * its public alias: whose settings, the callers it admits, validation, and the merge and the
 * answer. What a PATCH stores (profile versions and encryption, preferences' audit metadata,
 * all or nothing) is in update-member-settings-at-rest.test.ts. Every rule on
 * writing settings has a test that fails when the rule breaks.
 */

/**
 * One organization (and another one) for every block and both routes: each block writes to
 * members made for it, or to the target and peer only from its own beforeAll on (the
 * validation block, which checks that nothing changed them after each of its tests).
 */
const organizations = once(async () => {
  const [org, other] = await Promise.all([seededOrg(), seededOrg()]);
  return { org, other };
});

describe.each(routesOf('PATCH'))('%s', (_route, route) => {
  describe('only active members of the organization', () => {
    let org: Org;
    let other: Org;
    let api: Client;
    beforeAll(async () => {
      ({ org, other } = await organizations());
      api = client(route, org);
    });
    const targets = (): [string, string][] => [
      ['a pending member', org.people.pending.id],
      ['a removed member', org.people.removed.id],
      ['an unknown user', `usr_ghost_${unique()}`],
      ['a member of another organization', other.people.target.id],
    ];

    it('answers 404 MEMBER_NOT_FOUND for pending, removed, unknown and other organizations’ users, and writes nothing', async () => {
      const body = {
        settings: { selected_theme: 'dark' },
        profile: { profile: 'must not be stored' },
        preferences: [{ command: 'c', command_type: 'manual', preference_content: 'p' }],
      };
      for (const [label, userId] of targets()) {
        const res = await api.patch(userId, body);
        expect({ label, status: res.status, body: res.body }).toEqual({ label, status: 404, body: failure('MEMBER_NOT_FOUND') });
        expect(await rawItem(keys.memberSettings(org.org, userId))).toBeUndefined();
        expect(await rawItem(keys.memberProfile(org.org, userId))).toBeUndefined();
        expect(await profileVersionRows(org.org, userId)).toEqual([]);
      }
      // The other organization's member is untouched too.
      expect(await rawItem(keys.memberSettings(other.org, other.people.target.id))).toBeUndefined();
    });
  });

  describe('callers it admits', () => {
    // Who may update settings, and what everyone else is answered (a refused PATCH writes
    // nothing: the matrix reads the organization back), is the access matrix's (test/integration/access-matrix.test.ts): here, an ID
    // token of the lowest role it admits and a key with only users:write get the update.
    let org: Org;
    let other: Org;
    let api: Client;
    let untouched: { id: string };
    beforeAll(async () => {
      ({ org, other } = await organizations());
      api = client(route, org);
      untouched = await newMember(org);
    });
    const body = { notifications: { reminder_notifications_enabled: false } };

    it('an org key with users:write only can update', async () => {
      expect((await api.patch(org.people.target.id, body, { token: org.keys.write })).status).toBe(200);
    });

    it('the ID token of an active admin can update', async () => {
      const token = await idTokenFor(org.people.admin);
      expect((await api.patch(org.people.target.id, body, { token })).status).toBe(200);
    });

    if (route === 'alias') {
      it('without org_id the alias acts on the key’s own organization, where the member is unknown: nothing written', async () => {
        const write = await api.patch(untouched.id, body, { token: other.keys.full });
        expect(write.body).toEqual(failure('MEMBER_NOT_FOUND'));
        expect(await rawItem(keys.memberSettings(org.org, untouched.id))).toBeUndefined();
        expect((await api.get(untouched.id)).body.data.notifications).toEqual(DEFAULT_NOTIFICATIONS);
      });
    }
  });

  describe('validation', () => {
    let org: Org;
    let api: Client;
    let ownPreference: string;
    let peerPreference: string;
    let before: unknown;
    const create = { command: 'summarize', command_type: 'summary_enhance', preference_content: 'Action items first.' };
    beforeAll(async () => {
      ({ org } = await organizations());
      api = client(route, org);
      const { target, peer } = org.people;
      await patchOk(api, target.id, {
        settings: { selected_theme: 'dark' },
        profile: { profile: 'Original profile' },
        preferences: [create],
      });
      await patchOk(api, peer.id, { preferences: [{ ...create, preference_content: 'Peer preference' }] });
      ownPreference = (await preferencesOf(api, target.id)).data[0].id;
      peerPreference = (await preferencesOf(api, peer.id)).data[0].id;
      before = await fullBundle(api, target.id);
    });
    afterEach(async () => {
      // A refused PATCH leaves the member exactly as before.
      expect(await fullBundle(api, org.people.target.id)).toEqual(before);
    });

    const reject = async (body: unknown, code: string, field: string | RegExp, rawBody?: string) => {
      const res = await api.patch(org.people.target.id, body, { rawBody });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(failure(code, typeof field === 'string' ? expect.stringContaining(field) : expect.stringMatching(field)));
    };

    it('{} is 400 EMPTY_PATCH', () => reject({}, 'EMPTY_PATCH', /settings.*notifications.*profile.*preferences/));

    it.each([
      ['an array', '[{"settings":{"selected_theme":"dark"}}]'],
      ['an empty array', '[]'],
      ['a string', '"settings"'],
      ['null', 'null'],
      ['a number', '42'],
      ['a boolean', 'true'],
      ['malformed JSON', '{"settings": {"selected_theme": "dark"'],
      ['not JSON at all', 'selected_theme=dark'],
    ])('a body that is %s is 400 INVALID_JSON', (_label, rawBody) => reject(undefined, 'INVALID_JSON', '', rawBody));

    describe('INVALID_SETTING names the field', () => {
      it.each([
        ['an unknown top-level section', { preferencez: [] }, 'preferencez'],
        ['an unknown section next to a valid one', { settings: { selected_theme: 'light' }, extra: true }, 'extra'],
        ['an unknown settings field', { settings: { favourite_colour: 'blue' } }, 'settings.favourite_colour'],
        [
          'read-only monthly_transcription_minutes',
          { settings: { monthly_transcription_minutes: 1000 } },
          'settings.monthly_transcription_minutes',
        ],
        ['read-only created_at', { settings: { created_at: '2020-01-01T00:00:00.000Z' } }, 'settings.created_at'],
        ['read-only updated_at', { settings: { updated_at: '2020-01-01T00:00:00.000Z' } }, 'settings.updated_at'],
        [
          'a read-only field next to a valid one',
          { settings: { selected_theme: 'light', monthly_transcription_minutes: 5 } },
          'settings.monthly_transcription_minutes',
        ],
        ['a string for a boolean', { settings: { auto_transcription: 'yes' } }, 'settings.auto_transcription'],
        ['a number for a boolean', { settings: { sync_to_cloud: 1 } }, 'settings.sync_to_cloud'],
        ['null for a boolean', { settings: { find_service_enabled: null } }, 'settings.find_service_enabled'],
        ['a number for the model', { settings: { selected_model: 42 } }, 'settings.selected_model'],
        ['an unknown theme', { settings: { selected_theme: 'neon' } }, 'settings.selected_theme'],
        ['a theme in the wrong case', { settings: { selected_theme: 'Dark' } }, 'settings.selected_theme'],
        ['an unknown language', { settings: { conversation_language: 'Klingon' } }, 'settings.conversation_language'],
        ['a language code instead of a display name', { settings: { conversation_language: 'en' } }, 'settings.conversation_language'],
        ['highlight_time 24:00', { notifications: { highlight_time: '24:00' } }, 'notifications.highlight_time'],
        ['highlight_time 7:30', { notifications: { highlight_time: '7:30' } }, 'notifications.highlight_time'],
        ['highlight_time 23:60', { notifications: { highlight_time: '23:60' } }, 'notifications.highlight_time'],
        ['highlight_time with seconds', { notifications: { highlight_time: '07:30:00' } }, 'notifications.highlight_time'],
        ['highlight_time as a number', { notifications: { highlight_time: 730 } }, 'notifications.highlight_time'],
        ['an unknown notifications field', { notifications: { email_digest: true } }, 'notifications.email_digest'],
        [
          'a string for a notification switch',
          { notifications: { reminder_notifications_enabled: 'false' } },
          'notifications.reminder_notifications_enabled',
        ],
        ['an empty settings object', { settings: {} }, 'settings'],
        ['an empty notifications object', { notifications: {} }, 'notifications'],
        ['settings that are not an object', { settings: 'dark' }, 'settings'],
        ['settings that are an array', { settings: [{ selected_theme: 'dark' }] }, 'settings'],
        ['settings that are null', { settings: null }, 'settings'],
        [
          'valid settings with invalid notifications',
          { settings: { selected_theme: 'light' }, notifications: { highlight_time: '25:00' } },
          'notifications.highlight_time',
        ],
      ])('%s', (_label, body, field) => reject(body, 'INVALID_SETTING', field));
    });

    describe('INVALID_PROFILE', () => {
      it.each([
        ['a profile that is a string, not an object', { profile: '# Me' }, 'profile'],
        ['a profile that is null', { profile: null }, 'profile'],
        ['a profile that is an array', { profile: ['# Me'] }, 'profile'],
        ['a profile object without the profile string', { profile: {} }, 'profile'],
        ['a profile that is a number', { profile: { profile: 42 } }, 'profile.profile'],
        ['a profile that is null inside the object', { profile: { profile: null } }, 'profile.profile'],
        ['an unknown field beside the profile', { profile: { profile: 'ok', format: 'markdown' } }, 'profile.format'],
        ['100,001 characters', { profile: { profile: 'a'.repeat(100_001) } }, 'profile.profile'],
        ['100,001 emoji (one character each)', { profile: { profile: '😀'.repeat(100_001) } }, 'profile.profile'],
        [
          'a too long profile next to valid settings',
          { settings: { selected_theme: 'light' }, profile: { profile: 'b'.repeat(100_001) } },
          'profile.profile',
        ],
      ])('%s', (_label, body, field) => reject(body, 'INVALID_PROFILE', field));
    });

    describe('INVALID_PREFERENCES names the entry', () => {
      it.each([
        ['preferences that are not an array', { preferences: create }, 'preferences'],
        ['preferences that are a string', { preferences: 'summarize' }, 'preferences'],
        ['an empty array', { preferences: [] }, 'preferences'],
        ['an entry that is not an object', { preferences: [create, 'summarize'] }, 'preferences[1]'],
        ['a create missing command', { preferences: [create, { command_type: 'manual', preference_content: 'x' }] }, 'preferences[1]'],
        ['a create missing preference_content', { preferences: [{ command: 'c', command_type: 'manual' }] }, 'preferences[0]'],
        ['a create with an empty command', { preferences: [create, { ...create, command: '' }] }, 'preferences[1].command'],
        [
          'a create with a blank command_type',
          { preferences: [create, { ...create, command_type: '   ' }] },
          'preferences[1].command_type',
        ],
        [
          'a create with an empty preference_content',
          { preferences: [create, create, { ...create, preference_content: '' }] },
          'preferences[2].preference_content',
        ],
        ['a create with a non-string command', { preferences: [{ ...create, command: 7 }] }, 'preferences[0].command'],
        ['a create with an unknown field', { preferences: [{ ...create, priority: 1 }] }, 'preferences[0].priority'],
        ['an update naming nothing to change', { preferences: [create, { id: 'pref_anything' }] }, 'preferences[1]'],
        [
          'mixed forms (id, delete: true and command)',
          { preferences: [create, { id: 'pref_anything', delete: true, command: 'c' }] },
          'preferences[1]',
        ],
        ['delete: false', { preferences: [create, { id: 'pref_anything', delete: false }] }, 'preferences[1]'],
        ['a delete without id', { preferences: [{ delete: true }] }, 'preferences[0]'],
        ['an id that is not a string', { preferences: [{ id: 12, preference_content: 'x' }] }, 'preferences[0]'],
      ])('%s', (_label, body, field) => reject(body, 'INVALID_PREFERENCES', field));

      it('an update of an id that does not exist', () =>
        reject(
          { preferences: [create, { id: `pref_missing_${unique()}`, preference_content: 'x' }] },
          'INVALID_PREFERENCES',
          'preferences[1]',
        ));

      it('a delete of an id that does not exist', () =>
        reject({ preferences: [{ id: `pref_missing_${unique()}`, delete: true }] }, 'INVALID_PREFERENCES', 'preferences[0]'));

      it('an update or delete of another member’s preference, which stays as it was', async () => {
        const peerBefore = await preferencesOf(api, org.people.peer.id);
        await reject(
          { preferences: [create, { id: peerPreference, preference_content: 'hijacked' }] },
          'INVALID_PREFERENCES',
          'preferences[1]',
        );
        await reject({ preferences: [{ id: peerPreference, delete: true }] }, 'INVALID_PREFERENCES', 'preferences[0]');
        expect(await preferencesOf(api, org.people.peer.id)).toEqual(peerBefore);
      });

      it('the same id twice', () =>
        reject(
          {
            preferences: [
              { id: ownPreference, preference_content: 'new' },
              { id: ownPreference, delete: true },
            ],
          },
          'INVALID_PREFERENCES',
          'preferences[1]',
        ));
    });
  });

  describe('merge semantics and the response', () => {
    let org: Org;
    let api: Client;
    beforeAll(async () => {
      ({ org } = await organizations());
      api = client(route, org);
    });

    it('merges settings and notifications field by field, keeping what an earlier PATCH set', async () => {
      const member = await newMember(org);
      // The earlier write an hour ago, so the later ones move updated_at whatever the clock's resolution.
      await patchedAt(new Date(Date.now() - HOUR_MS), org, member.id, { settings: { selected_theme: 'dark', auto_route_enabled: true } });
      const first = (await api.get(member.id)).body.data.settings;
      await patchOk(api, member.id, { settings: { conversation_language: 'French' } });
      await patchOk(api, member.id, { notifications: { highlight_time: '07:15' } });
      await patchOk(api, member.id, { notifications: { reminder_notifications_enabled: false } });
      const res = await api.get(member.id);
      expect(res.body.data.settings).toEqual({
        ...DEFAULT_SETTINGS,
        selected_theme: 'dark',
        auto_route_enabled: true,
        conversation_language: 'French',
        created_at: first.created_at,
        updated_at: expect.stringMatching(TIMESTAMP),
      });
      expect(res.body.data.settings.updated_at > first.updated_at).toBe(true);
      expect(res.body.data.notifications).toEqual({
        ...DEFAULT_NOTIFICATIONS,
        highlight_time: '07:15',
        reminder_notifications_enabled: false,
      });
    });

    it('writes every writable field', async () => {
      const member = await newMember(org);
      const settings = {
        conversation_language: 'Chinese (Simplified)',
        selected_theme: 'light',
        selected_model: 'gemini-2.5-pro',
        auto_transcription: false,
        sync_to_cloud: false,
        auto_add_tasks_from_summaries: true,
        auto_route_enabled: true,
        calendar_matching: true,
        find_service_enabled: true,
        max_speakers: 7,
      };
      const notifications = {
        highlight_time: '23:59',
        processing_notifications_enabled: false,
        sync_nudges_enabled: false,
        morning_welcome_notifications_enabled: false,
        reminder_notifications_enabled: false,
      };
      const before = (await api.get(member.id)).body.data.settings;
      const res = await patchOk(api, member.id, { settings, notifications });
      expect(res.body).toEqual({ success: true, applied: applied({ settings: true, notifications: true }), profile_version: 0 });
      const read = (await api.get(member.id)).body.data;
      // created_at stays what the bundle showed before the first write; updated_at moves.
      expect(read.settings).toEqual({
        ...settings,
        monthly_transcription_minutes: 0,
        created_at: before.created_at,
        updated_at: expect.stringMatching(TIMESTAMP),
      });
      expect(Date.parse(read.settings.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
      expect(read.notifications).toEqual(notifications);
      await patchOk(api, member.id, { notifications: { highlight_time: '00:00' } });
      expect((await api.get(member.id)).body.data.notifications.highlight_time).toBe('00:00');
    });

    it.each([
      ['GPT-4O', 'gpt-4o'],
      ['4o', 'gpt-4o'],
      ['gpt_4o', 'gpt-4o'],
      ['sonnet', 'claude-sonnet-4-5'],
      ['Claude Sonnet', 'claude-sonnet-4-5'],
      ['GEMINI', 'gemini-2.5-pro'],
      ['mini', 'gpt-4o-mini'],
      ['claude-sonnet-4-5', 'claude-sonnet-4-5'],
      ['unknown-model-x', 'gpt-4o-mini'],
    ])('normalises selected_model %s to %s (unknown models fall back, never rejected)', async (requested, canonical) => {
      const member = await newMember(org);
      // Start from a non-fallback model so that falling back is visible.
      await patchOk(api, member.id, { settings: { selected_model: 'gemini-2.5-pro' } });
      const res = await api.patch(member.id, { settings: { selected_model: requested } });
      expect(res.status).toBe(200);
      expect(res.body.applied.settings).toBe(true);
      expect((await api.get(member.id)).body.data.settings.selected_model).toBe(canonical);
    });

    it('answers exactly {success, applied, profile_version} for every combination of sections', async () => {
      const member = await newMember(org);
      const settingsOnly = await patchOk(api, member.id, { settings: { selected_theme: 'dark' } });
      expect(settingsOnly.body).toEqual({ success: true, applied: applied({ settings: true }), profile_version: 0 });

      const notificationsOnly = await patchOk(api, member.id, { notifications: { sync_nudges_enabled: false } });
      expect(notificationsOnly.body).toEqual({ success: true, applied: applied({ notifications: true }), profile_version: 0 });

      const everything = await patchOk(api, member.id, {
        settings: { calendar_matching: true },
        notifications: { highlight_time: '06:45' },
        profile: { profile: 'First profile' },
        preferences: [
          { command: 'a', command_type: 'manual', preference_content: 'one' },
          { command: 'b', command_type: 'manual', preference_content: 'two' },
        ],
      });
      expect(everything.body).toEqual({
        success: true,
        applied: applied({ settings: true, notifications: true, profile: true, preferences_created: 2 }),
        profile_version: 1,
      });

      const [two, one] = (await preferencesOf(api, member.id)).data.sort((a: { command: string }, b: { command: string }) =>
        b.command.localeCompare(a.command),
      );
      const mixed = await patchOk(api, member.id, {
        preferences: [
          { command: 'c', command_type: 'manual', preference_content: 'three' },
          { id: one.id, preference_content: 'one, revised' },
          { id: two.id, delete: true },
        ],
      });
      // profile_version is the member's current version even when the profile is not changed.
      expect(mixed.body).toEqual({
        success: true,
        applied: applied({ preferences_created: 1, preferences_updated: 1, preferences_deleted: 1 }),
        profile_version: 1,
      });
    });
  });
});
