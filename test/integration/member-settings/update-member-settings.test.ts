import { inflateRawSync } from 'node:zlib';
import { localProfileCipher } from '../../../infra/local/profile-key';
import { keys } from '../../../shared/storage/keys';
import { call, failure, idTokenFor, localDeployment, once, TIMESTAMP, unique } from '../../support/api';
import { printedOutput } from '../../support/local-deployment';
import {
  applied,
  client,
  DEFAULT_NOTIFICATIONS,
  DEFAULT_SETTINGS,
  fullBundle,
  HOUR_MS,
  itemAsText,
  jsonObjectsIn,
  keyIdOf,
  newMember,
  patchedAt,
  patchOk,
  preferencesOf,
  profileVersionRows,
  rawItem,
  ROUTES,
  routesOf,
  seededOrg,
  type Client,
  type Org,
} from '../../support/member-settings';
import { buildOrg, seedOrg } from '../../support/org-builder';

/**
 * Update member settings end to end: HTTP -> local API Gateway emulator -> authorizer ->
 * handler -> DynamoDB Local (and the local profile key), on the organization route and on
 * its public alias. Every rule of issue 3 on writing settings has a test here that fails
 * when the rule breaks.
 */
const { runtime } = localDeployment();

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
      await patchOk(api, target.id, { settings: { selected_theme: 'dark' }, profile: { profile: 'Original profile' }, preferences: [create] });
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
        ['read-only monthly_transcription_minutes', { settings: { monthly_transcription_minutes: 1000 } }, 'settings.monthly_transcription_minutes'],
        ['read-only created_at', { settings: { created_at: '2020-01-01T00:00:00.000Z' } }, 'settings.created_at'],
        ['read-only updated_at', { settings: { updated_at: '2020-01-01T00:00:00.000Z' } }, 'settings.updated_at'],
        ['a read-only field next to a valid one', { settings: { selected_theme: 'light', monthly_transcription_minutes: 5 } }, 'settings.monthly_transcription_minutes'],
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
        ['a string for a notification switch', { notifications: { reminder_notifications_enabled: 'false' } }, 'notifications.reminder_notifications_enabled'],
        ['an empty settings object', { settings: {} }, 'settings'],
        ['an empty notifications object', { notifications: {} }, 'notifications'],
        ['settings that are not an object', { settings: 'dark' }, 'settings'],
        ['settings that are an array', { settings: [{ selected_theme: 'dark' }] }, 'settings'],
        ['settings that are null', { settings: null }, 'settings'],
        ['valid settings with invalid notifications', { settings: { selected_theme: 'light' }, notifications: { highlight_time: '25:00' } }, 'notifications.highlight_time'],
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
        ['a too long profile next to valid settings', { settings: { selected_theme: 'light' }, profile: { profile: 'b'.repeat(100_001) } }, 'profile.profile'],
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
        ['a create with a blank command_type', { preferences: [create, { ...create, command_type: '   ' }] }, 'preferences[1].command_type'],
        ['a create with an empty preference_content', { preferences: [create, create, { ...create, preference_content: '' }] }, 'preferences[2].preference_content'],
        ['a create with a non-string command', { preferences: [{ ...create, command: 7 }] }, 'preferences[0].command'],
        ['a create with an unknown field', { preferences: [{ ...create, priority: 1 }] }, 'preferences[0].priority'],
        ['an update naming nothing to change', { preferences: [create, { id: 'pref_anything' }] }, 'preferences[1]'],
        ['mixed forms (id, delete: true and command)', { preferences: [create, { id: 'pref_anything', delete: true, command: 'c' }] }, 'preferences[1]'],
        ['delete: false', { preferences: [create, { id: 'pref_anything', delete: false }] }, 'preferences[1]'],
        ['a delete without id', { preferences: [{ delete: true }] }, 'preferences[0]'],
        ['an id that is not a string', { preferences: [{ id: 12, preference_content: 'x' }] }, 'preferences[0]'],
      ])('%s', (_label, body, field) => reject(body, 'INVALID_PREFERENCES', field));

      it('an update of an id that does not exist', () =>
        reject({ preferences: [create, { id: `pref_missing_${unique()}`, preference_content: 'x' }] }, 'INVALID_PREFERENCES', 'preferences[1]'));

      it('a delete of an id that does not exist', () => reject({ preferences: [{ id: `pref_missing_${unique()}`, delete: true }] }, 'INVALID_PREFERENCES', 'preferences[0]'));

      it('an update or delete of another member’s preference, which stays as it was', async () => {
        const peerBefore = await preferencesOf(api, org.people.peer.id);
        await reject({ preferences: [create, { id: peerPreference, preference_content: 'hijacked' }] }, 'INVALID_PREFERENCES', 'preferences[1]');
        await reject({ preferences: [{ id: peerPreference, delete: true }] }, 'INVALID_PREFERENCES', 'preferences[0]');
        expect(await preferencesOf(api, org.people.peer.id)).toEqual(peerBefore);
      });

      it('the same id twice', () =>
        reject({ preferences: [{ id: ownPreference, preference_content: 'new' }, { id: ownPreference, delete: true }] }, 'INVALID_PREFERENCES', 'preferences[1]'));
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
      expect(res.body.data.notifications).toEqual({ ...DEFAULT_NOTIFICATIONS, highlight_time: '07:15', reminder_notifications_enabled: false });
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
      expect(read.settings).toEqual({ ...settings, monthly_transcription_minutes: 0, created_at: before.created_at, updated_at: expect.stringMatching(TIMESTAMP) });
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

      const [two, one] = (await preferencesOf(api, member.id)).data.sort((a: { command: string }, b: { command: string }) => b.command.localeCompare(a.command));
      const mixed = await patchOk(api, member.id, {
        preferences: [
          { command: 'c', command_type: 'manual', preference_content: 'three' },
          { id: one.id, preference_content: 'one, revised' },
          { id: two.id, delete: true },
        ],
      });
      // profile_version is the member's current version even when the profile is not changed.
      expect(mixed.body).toEqual({ success: true, applied: applied({ preferences_created: 1, preferences_updated: 1, preferences_deleted: 1 }), profile_version: 1 });
    });
  });

  describe('profile: versions and encryption at rest', () => {
    let org: Org;
    let api: Client;
    beforeAll(async () => {
      ({ org } = await organizations());
      api = client(route, org);
    });

    it('each update increments the version and GET returns the decrypted text', async () => {
      const member = await newMember(org);
      const texts = ['# Tara\n\nHeads **sales** in Lyon. Café ☕ — naïve résumé.', '# Tara\n\nNow heads marketing.', ''];
      for (const [i, text] of texts.entries()) {
        const res = await patchOk(api, member.id, { profile: { profile: text } });
        expect(res.body).toEqual({ success: true, applied: applied({ profile: true }), profile_version: i + 1 });
        const read = await api.get(member.id, 'include=profile');
        expect(read.body.data.profile).toEqual({ profile: text, version: i + 1 });
      }
      // A PATCH without a profile keeps the version.
      const other = await patchOk(api, member.id, { settings: { selected_theme: 'dark' } });
      expect(other.body.profile_version).toBe(3);
      expect((await api.get(member.id, 'include_profile=true')).body.data.profile).toEqual({ profile: '', version: 3 });
    });

    it('accepts exactly 100,000 characters, and 100,000 emoji counted one character each', async () => {
      const member = await newMember(org);
      for (const [version, text] of [[1, 'x'.repeat(100_000)], [2, '😀'.repeat(100_000)]] as const) {
        const res = await api.patch(member.id, { profile: { profile: text } });
        expect(res.status).toBe(200);
        expect(res.body.profile_version).toBe(version);
        const read = await api.get(member.id, 'include=profile');
        expect(read.body.data.profile.version).toBe(version);
        expect(read.body.data.profile.profile === text).toBe(true);
      }
    });

    it('stores only ciphertext: neither the PROFILE item nor the version rows contain the text', async () => {
      const member = await newMember(org);
      const marker = `zebra-marker-${unique()}`;
      const first = `# Secret profile\n\nThe ${marker} lives in Nairobi and likes ${'long walks '.repeat(20)}`;
      const second = `# Secret profile v2\n\nThe ${marker} moved to Oslo.`;
      await patchOk(api, member.id, { profile: { profile: first } });
      const owner = org.people.owner;
      await patchOk(api, member.id, { profile: { profile: second } }, { token: await idTokenFor(owner) });

      const current = await rawItem(keys.memberProfile(org.org, member.id));
      const rows = await profileVersionRows(org.org, member.id);
      expect(current).toBeDefined();
      expect(rows).toHaveLength(2);
      for (const item of [current, ...rows]) {
        expect(ArrayBuffer.isView(item!.ciphertext)).toBe(true);
        expect((item!.ciphertext as Uint8Array).byteLength).toBeGreaterThan(0);
        const text = itemAsText(item);
        for (const secret of [first, second, marker, 'Nairobi', 'Oslo', 'long walks', 'Secret profile']) expect(text).not.toContain(secret);
      }
      expect(current).toMatchObject({ version: 2 });
      // Not merely compressed: the bytes are an Encryption SDK message that only the deployment's
      // key opens, under this member's encryption context.
      for (const item of [current, ...rows]) {
        let inflated = '';
        try {
          inflated = inflateRawSync(Buffer.from(item!.ciphertext as Uint8Array)).toString('utf8');
        } catch {
          // not a deflate stream: as expected
        }
        expect(inflated).not.toContain(marker);
      }
      const cipher = localProfileCipher(localDeployment().dataDir);
      expect(await cipher.decrypt(current!.ciphertext as Uint8Array, { orgId: org.org, userId: member.id })).toBe(second);
      // Version rows: version, source, actor (org key id, then the ID token's user), created_at, ciphertext.
      const sorted = [...rows].sort((a, b) => (a.version as number) - (b.version as number));
      expect(sorted[0]).toMatchObject({ version: 1, source: 'org_admin_api', actor: keyIdOf(org.keys.full), created_at: expect.stringMatching(TIMESTAMP) });
      expect(sorted[1]).toMatchObject({ version: 2, source: 'org_admin_api', actor: owner.id, created_at: expect.stringMatching(TIMESTAMP) });
      expect(keyIdOf(org.keys.full)).toMatch(/^key_/);
      // The two versions are distinct ciphertexts, and decrypting through the API gives the latest.
      expect(Buffer.from(sorted[0].ciphertext).equals(Buffer.from(sorted[1].ciphertext))).toBe(false);
      expect((await api.get(member.id, 'include=profile')).body.data.profile).toEqual({ profile: second, version: 2 });
    });
  });

  describe('preferences and their audit metadata', () => {
    let org: Org;
    let api: Client;
    beforeAll(async () => {
      ({ org } = await organizations());
      api = client(route, org);
    });

    it('a create without metadata gets source, actor (the org key id) and the request’s correlation id', async () => {
      const member = await newMember(org);
      const correlationId = `corr-create-${unique()}`;
      const res = await patchOk(
        api,
        member.id,
        { preferences: [{ command: 'summarize', command_type: 'summary_enhance', preference_content: 'Action items first.' }] },
        { headers: { 'x-correlation-id': correlationId } },
      );
      expect(res.headers.get('x-correlation-id')).toBe(correlationId);
      expect(res.body).toEqual({ success: true, applied: applied({ preferences_created: 1 }), profile_version: 0 });
      const preferences = await preferencesOf(api, member.id);
      expect(preferences.pagination).toEqual({ page: 1, limit: 200, total: 1, total_pages: 1, has_more: false });
      expect(preferences.data).toEqual([
        {
          id: expect.any(String),
          command: 'summarize',
          command_type: 'summary_enhance',
          preference_content: 'Action items first.',
          source_recording_id: null,
          source_summarization_id: null,
          metadata: { source: 'org_admin_api', actor: keyIdOf(org.keys.full), correlation_id: correlationId },
          created_at: expect.stringMatching(TIMESTAMP),
          updated_at: expect.stringMatching(TIMESTAMP),
        },
      ]);
      expect(preferences.data[0].created_at).toBe(preferences.data[0].updated_at);
    });

    it('without x-correlation-id the stored correlation id is the one the response carries', async () => {
      const member = await newMember(org);
      const res = await patchOk(api, member.id, { preferences: [{ command: 'c', command_type: 'manual', preference_content: 'p' }] });
      const sent = res.headers.get('x-correlation-id');
      expect(sent).toMatch(/^[0-9a-f-]{36}$/);
      expect((await preferencesOf(api, member.id)).data[0].metadata.correlation_id).toBe(sent);
    });

    it('audit metadata is merged over a given metadata object (actor is the ID token’s user)', async () => {
      const member = await newMember(org);
      const correlationId = `corr-meta-${unique()}`;
      const token = await idTokenFor(org.people.admin);
      await patchOk(
        api,
        member.id,
        {
          preferences: [
            {
              command: 'translate',
              command_type: 'manual',
              preference_content: 'Keep names untranslated.',
              source_recording_id: 'rec_123',
              metadata: { origin: 'import', confidence: 0.9, source: 'spoofed', actor: 'mallory', correlation_id: 'forged' },
            },
          ],
        },
        { token, headers: { 'x-correlation-id': correlationId } },
      );
      const [record] = (await preferencesOf(api, member.id)).data;
      expect(record.source_recording_id).toBe('rec_123');
      expect(record.metadata).toEqual({ origin: 'import', confidence: 0.9, source: 'org_admin_api', actor: org.people.admin.id, correlation_id: correlationId });
    });

    it('an update changes the named fields, keeps created_at, moves updated_at and re-stamps the audit metadata', async () => {
      const member = await newMember(org);
      // Created an hour ago, so the update's updated_at is later whatever the clock's resolution.
      await patchedAt(new Date(Date.now() - HOUR_MS), org, member.id, {
        preferences: [{ command: 'summarize', command_type: 'summary_enhance', preference_content: 'Short.', metadata: { origin: 'import' } }],
      });
      const [original] = (await preferencesOf(api, member.id)).data;
      const correlationId = `corr-update-${unique()}`;
      const res = await patchOk(api, member.id, { preferences: [{ id: original.id, preference_content: 'Longer, with decisions.' }] }, { headers: { 'x-correlation-id': correlationId } });
      expect(res.body).toEqual({ success: true, applied: applied({ preferences_updated: 1 }), profile_version: 0 });
      const after = await preferencesOf(api, member.id);
      expect(after.pagination.total).toBe(1);
      const [updated] = after.data;
      expect(updated).toEqual({
        ...original,
        preference_content: 'Longer, with decisions.',
        metadata: { origin: 'import', source: 'org_admin_api', actor: keyIdOf(org.keys.full), correlation_id: correlationId },
        updated_at: expect.stringMatching(TIMESTAMP),
      });
      expect(updated.created_at).toBe(original.created_at);
      expect(updated.updated_at > original.updated_at).toBe(true);
    });

    it('an update whose metadata, merged into the stored metadata, would pass 1,000 characters as JSON is 400 INVALID_PREFERENCES naming the entry; the preference stays as it was', async () => {
      const member = await newMember(org);
      // 600 characters as JSON stored, 601 given: each within the limit, 1,200 merged.
      await patchOk(api, member.id, { preferences: [{ command: 'summarize', command_type: 'manual', preference_content: 'Short.', metadata: { origin: 'o'.repeat(587) } }] });
      const before = await preferencesOf(api, member.id);
      const res = await api.patch(member.id, { preferences: [{ id: before.data[0].id, metadata: { notes: 'n'.repeat(589) } }] });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(failure('INVALID_PREFERENCES', expect.stringContaining('preferences[0].metadata must be at most 1,000 characters as JSON once merged into the stored metadata')));
      expect(res.body.details).toEqual([{ field: 'preferences[0].metadata', issue: 'too_long', message: expect.any(String) }]);
      expect(await preferencesOf(api, member.id)).toEqual(before);
    });

    it('a delete removes the preference and the total drops', async () => {
      const member = await newMember(org);
      await patchOk(api, member.id, {
        preferences: ['one', 'two', 'three'].map((content) => ({ command: content, command_type: 'manual', preference_content: content })),
      });
      const before = await preferencesOf(api, member.id);
      expect(before.pagination.total).toBe(3);
      const victim = before.data.find((p: { command: string }) => p.command === 'two');
      const res = await patchOk(api, member.id, { preferences: [{ id: victim.id, delete: true }] });
      expect(res.body).toEqual({ success: true, applied: applied({ preferences_deleted: 1 }), profile_version: 0 });
      const after = await preferencesOf(api, member.id);
      expect(after.pagination).toEqual({ page: 1, limit: 200, total: 2, total_pages: 1, has_more: false });
      expect(after.data.map((p: { command: string }) => p.command).sort()).toEqual(['one', 'three']);
      expect(await rawItem(keys.preference(org.org, member.id, victim.id))).toBeUndefined();
      // Deleting it again is an unknown id.
      const again = await api.patch(member.id, { preferences: [{ id: victim.id, delete: true }] });
      expect(again.status).toBe(400);
      expect(again.body).toEqual(failure('INVALID_PREFERENCES', expect.stringContaining('preferences[0]')));
    });
  });

  describe('all-or-nothing', () => {
    let org: Org;
    let api: Client;
    beforeAll(async () => {
      ({ org } = await organizations());
      api = client(route, org);
    });

    const setUp = async () => {
      const member = await newMember(org);
      await patchOk(api, member.id, {
        settings: { selected_theme: 'dark', conversation_language: 'German' },
        notifications: { highlight_time: '09:30' },
        profile: { profile: 'Version one' },
        preferences: [
          { command: 'keep', command_type: 'manual', preference_content: 'kept' },
          { command: 'also', command_type: 'manual', preference_content: 'also kept' },
        ],
      });
      const before = await fullBundle(api, member.id);
      expect(before.profile.version).toBe(1);
      return { member, before };
    };

    const valid = (existingId: string) => ({
      settings: { selected_theme: 'light', conversation_language: 'Spanish' },
      notifications: { highlight_time: '10:00', sync_nudges_enabled: false },
      profile: { profile: 'Version two, never stored' },
      preferences: [
        { command: 'new', command_type: 'manual', preference_content: 'never created' },
        { id: existingId, preference_content: 'never updated' },
      ] as unknown[],
    });

    it('an update of a missing preference id fails the whole PATCH: settings, profile version and preferences stay as before', async () => {
      const { member, before } = await setUp();
      const body = valid(before.preferences.data[0].id);
      body.preferences.push({ id: `pref_missing_${unique()}`, preference_content: 'x' });
      const res = await api.patch(member.id, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(failure('INVALID_PREFERENCES', expect.stringContaining('preferences[2]')));
      expect(await fullBundle(api, member.id)).toEqual(before);
      expect(await profileVersionRows(org.org, member.id)).toHaveLength(1);
    });

    it('a delete of another member’s preference fails the whole PATCH too', async () => {
      const { member, before } = await setUp();
      const { member: other } = await setUp();
      const otherPreference = (await preferencesOf(api, other.id)).data[0].id;
      const body = valid(before.preferences.data[1].id);
      body.preferences.push({ id: otherPreference, delete: true });
      const res = await api.patch(member.id, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(failure('INVALID_PREFERENCES', expect.stringContaining('preferences[2]')));
      expect(await fullBundle(api, member.id)).toEqual(before);
      expect((await preferencesOf(api, other.id)).pagination.total).toBe(2);
    });

    it('an invalid entry shape fails before anything is written', async () => {
      const { member, before } = await setUp();
      const body = valid(before.preferences.data[0].id);
      body.preferences.push({ command: '', command_type: 'manual', preference_content: 'x' });
      const res = await api.patch(member.id, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('INVALID_PREFERENCES');
      expect(await fullBundle(api, member.id)).toEqual(before);
    });

    it('the same body without the bad entry applies every section', async () => {
      const { member, before } = await setUp();
      const res = await patchOk(api, member.id, valid(before.preferences.data[0].id));
      expect(res.body).toEqual({
        success: true,
        applied: applied({ settings: true, notifications: true, profile: true, preferences_created: 1, preferences_updated: 1 }),
        profile_version: 2,
      });
      const after = await fullBundle(api, member.id);
      expect(after.settings).toMatchObject({ selected_theme: 'light', conversation_language: 'Spanish' });
      expect(after.notifications).toMatchObject({ highlight_time: '10:00', sync_nudges_enabled: false });
      expect(after.profile).toEqual({ profile: 'Version two, never stored', version: 2 });
      expect(after.preferences.pagination.total).toBe(3);
    });
  });

  // Once, under the organization's route: these go through both routes.
  if (route === 'organization') {
    describe('concurrent updates through both routes at once', () => {
      let org: Org;
      beforeAll(async () => {
        ({ org } = await organizations());
      });

      it('20 parallel profile updates give versions 1..20 and 20 version rows; none is lost or duplicated', async () => {
        const member = await newMember(org);
        const texts = Array.from({ length: 20 }, (_, i) => `# Parallel writer ${i}\n\n${unique()}`);
        // Half through the organization route, half through the alias.
        const results = await Promise.all(texts.map((text, i) => client(ROUTES[i % 2], org).patch(member.id, { profile: { profile: text } })));
        expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
        const versions = results.map((r) => r.body.profile_version as number);
        const oneToTwenty = Array.from({ length: 20 }, (_, i) => i + 1);
        expect([...versions].sort((a, b) => a - b)).toEqual(oneToTwenty);
        const textOfVersion = new Map(versions.map((version, i) => [version, texts[i]]));

        const rows = await profileVersionRows(org.org, member.id);
        expect(rows.map((row) => row.version).sort((a, b) => a - b)).toEqual(oneToTwenty);
        // Each version row holds the text of the PATCH that was answered with that version.
        const cipher = localProfileCipher(localDeployment().dataDir);
        for (const row of rows) {
          expect(row).toMatchObject({ source: 'org_admin_api', actor: keyIdOf(org.keys.full) });
          expect(await cipher.decrypt(row.ciphertext, { orgId: org.org, userId: member.id })).toBe(textOfVersion.get(row.version));
        }
        const read = await client('organization', org).get(member.id, 'include=profile');
        expect(read.body.data.profile).toEqual({ profile: textOfVersion.get(20), version: 20 });
        expect(texts).toContain(read.body.data.profile.profile);
      });

      it('20 parallel preference creates are all kept and counted', async () => {
        const member = await newMember(org);
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            client(ROUTES[i % 2], org).patch(member.id, { preferences: [{ command: `c${i}`, command_type: 'manual', preference_content: `parallel ${i}` }] }),
          ),
        );
        expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
        const preferences = await preferencesOf(client('alias', org), member.id);
        expect(preferences.pagination.total).toBe(20);
        expect(preferences.data.map((p: { preference_content: string }) => p.preference_content).sort()).toEqual(
          Array.from({ length: 20 }, (_, i) => `parallel ${i}`).sort(),
        );
      });
    });

    describe('audit log and redaction', () => {
      const id = unique();
      const profileText = `# Confidential ${id}\n\nPlatypus-${id} negotiates the Zanzibar merger.`;
      const preferenceContent = `Always mention the aardvark-${id} budget.`;
      const preferenceCommand = `summarize-with-quokka-${id}`;
      const updatedContent = `Never mention the narwhal-${id} project.`;
      const secrets = [profileText, `Platypus-${id}`, 'Zanzibar merger', preferenceContent, `aardvark-${id}`, preferenceCommand, updatedContent, `narwhal-${id}`];
      const org = buildOrg({
        label: 'audit',
        people: { admin: { role: 'admin', first: 'audit', displayName: 'Audit Admin' }, target: { role: 'member', first: 'audit', displayName: 'Audit Target' } },
        keys: { full: { scopes: ['users:read', 'users:write'] } },
      });
      const { admin, target } = org.people;
      const orgKey = org.keys.full;

      beforeAll(async () => {
        await seedOrg(org);
      });

      const ownCall = (method: string, path: string, options: { token: string; body?: unknown; correlationId: string }) =>
        call(runtime.apiUrl, method, path, { token: options.token, body: options.body, headers: { 'x-correlation-id': options.correlationId } });

      it('every update writes one audit line (org, target, actor, changed sections, correlation id) and no content anywhere', async () => {
        const orgRoute = `/api/v1/organization/${org.org}/users/${target.id}/settings`;
        const aliasRoute = `/api/v1/public/users/${target.id}/settings`;
        // What the shared deployment printed before this test: its own lines come after.
        const printedBefore = printedOutput(localDeployment().dataDir).length;

        const first = `corr-audit-1-${id}`;
        const created = await ownCall('PATCH', orgRoute, {
          token: orgKey,
          correlationId: first,
          body: {
            settings: { selected_theme: 'dark' },
            profile: { profile: profileText },
            preferences: [{ command: preferenceCommand, command_type: 'manual', preference_content: preferenceContent }],
          },
        });
        expect(created.status).toBe(200);

        const read = await ownCall('GET', `${orgRoute}?include=profile,preferences`, { token: orgKey, correlationId: `corr-audit-read-${id}` });
        expect(read.body.data.profile.profile).toBe(profileText);
        const preferenceId = read.body.data.preferences.data[0].id;

        // Through the alias with an admin's ID token: the actor is the user id.
        const token = await idTokenFor(admin);
        const second = `corr-audit-2-${id}`;
        const updated = await ownCall('PATCH', aliasRoute, {
          token,
          correlationId: second,
          body: { notifications: { highlight_time: '06:00' }, preferences: [{ id: preferenceId, preference_content: updatedContent }] },
        });
        expect(updated.status).toBe(200);

        // A refused PATCH carrying the same kind of content.
        const refused = await ownCall('PATCH', orgRoute, {
          token: orgKey,
          correlationId: `corr-audit-3-${id}`,
          body: { profile: { profile: profileText }, preferences: [{ id: `pref_missing_${id}`, preference_content: preferenceContent }] },
        });
        expect(refused.status).toBe(400);

        // The deployment writes its output to a file synchronously and logs before it answers:
        // every line of these requests is in the file now, so it is read once, with no waiting.
        const output = printedOutput(localDeployment().dataDir);
        const auditLines = jsonObjectsIn(output.slice(printedBefore)).filter((o) => o.message === 'member settings updated' && o.org_id === org.org);
        const auditLine = (correlationId: string) => auditLines.find((o) => o.correlation_id === correlationId);
        expect(auditLine(first)).toMatchObject({
          level: 'INFO',
          org_id: org.org,
          target_user_id: target.id,
          actor: keyIdOf(orgKey),
          changed_sections: ['settings', 'profile', 'preferences'],
          correlation_id: first,
        });
        expect(auditLine(second)).toMatchObject({
          org_id: org.org,
          target_user_id: target.id,
          actor: admin.id,
          changed_sections: ['notifications', 'preferences'],
          correlation_id: second,
        });
        // Exactly one audit line per successful update, none for the refused one.
        expect(auditLines.map((o) => o.correlation_id)).toEqual([first, second]);

        for (const secret of secrets) expect(output).not.toContain(secret);
      });
    });
  }
});
