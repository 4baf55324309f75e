import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../../shared/storage/keys';
import { failure, idTokenFor, localDeployment, once, seed, TIMESTAMP, type ApiResponse, unique } from '../../support/api';
import {
  client,
  DEFAULT_NOTIFICATIONS,
  DEFAULT_SETTINGS,
  EMPTY_PREFERENCES,
  keyIdOf,
  MINUTE_MS,
  newMember,
  patchedAt,
  patchOk,
  rawItem,
  routesOf,
  seededOrg,
  type Client,
  type Org,
} from '../../support/member-settings';

/**
 * Get member settings end to end: HTTP -> local API Gateway emulator -> authorizer ->
 * handler -> DynamoDB Local (and the local profile key), on the organization route and on
 * its public alias. Every rule on reading settings has a test here that fails
 * when the rule breaks.
 */
const { db } = localDeployment();

/**
 * One organization (and another one) for every block and both routes: nothing here writes to
 * their people but the peer's profile, and what is written goes to members made for the test.
 */
const organizations = once(async () => {
  const [org, other] = await Promise.all([seededOrg(), seededOrg()]);
  return { org, other };
});

describe.each(routesOf('GET'))('%s', (_route, route) => {
  describe('the bundle', () => {
    let org: Org;
    let api: Client;
    beforeAll(async () => {
      ({ org } = await organizations());
      api = client(route, org);
    });

    it('returns user and settings with every field at its default, plus notifications, for a member who never saved anything', async () => {
      const { target } = org.people;
      const membership = await rawItem(keys.membership(org.org, target.id));
      expect(membership?.created_at).toMatch(TIMESTAMP);
      const res = await api.get(target.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: {
          user: {
            user_id: target.id,
            email: target.email,
            display_name: 'Tara Target',
            role: 'member',
            status: 'active',
            timezone: 'Europe/Paris',
          },
          settings: { ...DEFAULT_SETTINGS, created_at: membership!.created_at, updated_at: membership!.created_at },
          notifications: DEFAULT_NOTIFICATIONS,
        },
      });
    });

    it('gives the user block the role of the member and UTC when the user has no time zone', async () => {
      const res = await api.get(org.people.owner.id);
      expect(res.body.data.user).toEqual({
        user_id: org.people.owner.id,
        email: org.people.owner.email,
        display_name: 'Olga Owner',
        role: 'owner',
        status: 'active',
        timezone: 'UTC',
      });
    });

    describe('include parsing', () => {
      const cases: [string, string[]][] = [
        ['', ['notifications']],
        ['include=profile', ['notifications', 'profile']],
        ['include=preferences', ['notifications', 'preferences']],
        ['include=tags', ['notifications', 'tags']],
        ['include=profile,preferences,tags', ['notifications', 'profile', 'preferences', 'tags']],
        ['include=none', []],
        ['include_profile=true', ['notifications', 'profile']],
        ['include_preferences=true&include_tags=true', ['notifications', 'preferences', 'tags']],
        ['include_profile=false&include_preferences=false&include_tags=false', ['notifications']],
        ['include_notifications=true', ['notifications']],
        ['include_notifications=false', []],
        ['include=none&include_profile=true', ['profile']],
        ['include=none&include_notifications=true&include_tags=true', ['notifications', 'tags']],
        ['include=profile,tags&include_profile=false', ['notifications', 'tags']],
        ['include=profile,preferences&include_notifications=false', ['profile', 'preferences']],
        ['include=tags&include_preferences=true', ['notifications', 'preferences', 'tags']],
      ];

      it.each(cases)('?%s gives the sections %j', async (query, sections) => {
        const res = await api.get(org.people.target.id, query);
        expect(res.status).toBe(200);
        expect(Object.keys(res.body.data).sort()).toEqual(['settings', 'user', ...sections].sort());
        if (sections.includes('notifications')) expect(res.body.data.notifications).toEqual(DEFAULT_NOTIFICATIONS);
        // Before any write the profile is empty at version 0; no preferences yet.
        if (sections.includes('profile')) expect(res.body.data.profile).toEqual({ profile: '', version: 0 });
        if (sections.includes('preferences')) expect(res.body.data.preferences).toEqual(EMPTY_PREFERENCES);
        if (sections.includes('tags')) expect(res.body.data.tags).toHaveLength(2);
      });

      it.each([
        ['include=secrets', 'include'],
        ['include=profile,secrets', 'include'],
        ['include=none,profile', 'include'],
        ['include=profile,none', 'include'],
        ['include=', 'include'],
        ['include_profile=yes', 'include_profile'],
        ['include_profile=1', 'include_profile'],
        ['include_preferences=TRUE', 'include_preferences'],
        ['include_tags=', 'include_tags'],
        ['include_notifications=no', 'include_notifications'],
        ['include=preferences&preferences_limit=0', 'preferences_limit'],
        ['include=preferences&preferences_limit=201', 'preferences_limit'],
        ['include=preferences&preferences_limit=abc', 'preferences_limit'],
        ['include=preferences&preferences_page=0', 'preferences_page'],
        ['include=preferences&preferences_page=-1', 'preferences_page'],
        ['include_secrets=true', 'include_secrets'],
        ['foo=bar', 'foo'],
      ])('rejects ?%s with 400 VALIDATION_ERROR naming %s', async (query, field) => {
        const res = await api.get(org.people.target.id, query);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(failure('VALIDATION_ERROR', expect.stringContaining(field)));
      });
    });

    it('returns the member’s own tags only, each with id, name, color, created_at and updated_at', async () => {
      const res = await api.get(org.people.target.id, 'include=tags');
      const byName = [...res.body.data.tags].sort((a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name));
      expect(byName).toEqual([
        {
          id: org.tags.accounts.id,
          name: 'Accounts',
          color: '#1f77b4',
          created_at: expect.stringMatching(TIMESTAMP),
          updated_at: expect.stringMatching(TIMESTAMP),
        },
        {
          id: org.tags.calls.id,
          name: 'Calls',
          color: '#ff8800',
          created_at: expect.stringMatching(TIMESTAMP),
          updated_at: expect.stringMatching(TIMESTAMP),
        },
      ]);
      const peer = await api.get(org.people.peer.id, 'include=tags');
      expect(peer.body.data.tags.map((t: { id: string }) => t.id)).toEqual([org.tags.peers.id]);
      const none = await api.get(org.people.owner.id, 'include=tags');
      expect(none.body.data.tags).toEqual([]);
    });

    describe('preferences paging (newest first)', () => {
      let member: { id: string };
      const contents = Array.from({ length: 7 }, (_, i) => `content number ${i}`);
      beforeAll(async () => {
        member = await newMember(org);
        // One create per write, a minute apart in the past, so every preference has its own created_at.
        const start = Date.now() - contents.length * MINUTE_MS;
        for (const [i, content] of contents.entries()) {
          await patchedAt(new Date(start + i * MINUTE_MS), org, member.id, {
            preferences: [{ command: `command ${i}`, command_type: 'manual', preference_content: content }],
          });
        }
      });
      const page = (query: string) => api.get(member.id, `include=preferences&${query}`);
      const contentsOf = (res: ApiResponse) =>
        res.body.data.preferences.data.map((p: { preference_content: string }) => p.preference_content);
      const newestFirst = [...contents].reverse();

      it('defaults to page 1 of 50 with every record field', async () => {
        const res = await api.get(member.id, 'include=preferences');
        expect(res.status).toBe(200);
        expect(contentsOf(res)).toEqual(newestFirst);
        expect(res.body.data.preferences.pagination).toEqual({ page: 1, limit: 50, total: 7, total_pages: 1, has_more: false });
        const [newest] = res.body.data.preferences.data;
        expect(newest).toEqual({
          id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
          command: 'command 6',
          command_type: 'manual',
          preference_content: 'content number 6',
          source_recording_id: null,
          source_summarization_id: null,
          metadata: { source: 'org_admin_api', actor: keyIdOf(org.keys.full), correlation_id: expect.any(String) },
          created_at: expect.stringMatching(TIMESTAMP),
          updated_at: expect.stringMatching(TIMESTAMP),
        });
        const created = res.body.data.preferences.data.map((p: { created_at: string }) => p.created_at);
        expect(created).toEqual([...created].sort().reverse());
        expect(new Set(created).size).toBe(7);
      });

      it('walks pages of 3 without gaps or repeats, and a page past the end is empty with the real totals', async () => {
        const [p1, p2, p3, p4] = await Promise.all([1, 2, 3, 4].map((n) => page(`preferences_limit=3&preferences_page=${n}`)));
        expect(contentsOf(p1)).toEqual(newestFirst.slice(0, 3));
        expect(p1.body.data.preferences.pagination).toEqual({ page: 1, limit: 3, total: 7, total_pages: 3, has_more: true });
        expect(contentsOf(p2)).toEqual(newestFirst.slice(3, 6));
        expect(p2.body.data.preferences.pagination).toEqual({ page: 2, limit: 3, total: 7, total_pages: 3, has_more: true });
        expect(contentsOf(p3)).toEqual(newestFirst.slice(6));
        expect(p3.body.data.preferences.pagination).toEqual({ page: 3, limit: 3, total: 7, total_pages: 3, has_more: false });
        expect(p4.status).toBe(200);
        expect(contentsOf(p4)).toEqual([]);
        expect(p4.body.data.preferences.pagination).toEqual({ page: 4, limit: 3, total: 7, total_pages: 3, has_more: false });
      });

      it('accepts the limit bounds 1 and 200', async () => {
        const one = await page('preferences_limit=1&preferences_page=7');
        expect(contentsOf(one)).toEqual(['content number 0']);
        expect(one.body.data.preferences.pagination).toEqual({ page: 7, limit: 1, total: 7, total_pages: 7, has_more: false });
        const max = await page('preferences_limit=200');
        expect(contentsOf(max)).toEqual(newestFirst);
        expect(max.body.data.preferences.pagination).toEqual({ page: 1, limit: 200, total: 7, total_pages: 1, has_more: false });
      });

      it('leaves preferences out unless asked for', async () => {
        const res = await api.get(member.id, 'preferences_limit=3');
        expect(res.body.data.preferences).toBeUndefined();
        expect(res.body.data.profile).toBeUndefined();
        expect(res.body.data.tags).toBeUndefined();
      });
    });
  });

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

    it('answers 404 MEMBER_NOT_FOUND for pending, removed, unknown and other organizations’ users', async () => {
      for (const [, userId] of targets()) {
        for (const query of ['', 'include=profile,preferences,tags']) {
          const res = await api.get(userId, query);
          expect(res.status).toBe(404);
          expect(res.body).toEqual(failure('MEMBER_NOT_FOUND'));
        }
      }
    });
  });

  describe('callers it admits', () => {
    // Who may read settings, and what everyone else is answered, is the access matrix's
    // (test/integration/access-matrix.test.ts): here, an ID token of the lowest role it admits
    // and a key with only users:read get the bundle.
    let org: Org;
    let other: Org;
    let api: Client;
    let untouched: { id: string };
    beforeAll(async () => {
      ({ org, other } = await organizations());
      api = client(route, org);
      untouched = await newMember(org);
    });

    it('an org key with users:read only can read', async () => {
      expect((await api.get(untouched.id, '', { token: org.keys.read })).status).toBe(200);
    });

    it('the ID token of an active admin can read', async () => {
      const token = await idTokenFor(org.people.admin);
      const read = await api.get(org.people.target.id, '', { token });
      expect(read.status).toBe(200);
      expect(read.body.data.user.user_id).toBe(org.people.target.id);
    });

    if (route === 'alias') {
      it('without org_id the alias acts on the key’s own organization, where the member is unknown', async () => {
        const read = await api.get(untouched.id, '', { token: other.keys.full });
        expect(read.status).toBe(404);
        expect(read.body).toEqual(failure('MEMBER_NOT_FOUND'));
      });
    }
  });

  describe('profile decryption: the encryption context binds the member and the organization', () => {
    let org: Org;
    let api: Client;
    beforeAll(async () => {
      ({ org } = await organizations());
      api = client(route, org);
    });

    it('a ciphertext copied to another member’s record does not decrypt (encryption context binds the member)', async () => {
      const a = await newMember(org);
      const b = await newMember(org);
      const textA = `# A's private profile ${unique()}`;
      const textB = `# B's profile ${unique()}`;
      await patchOk(api, a.id, { profile: { profile: textA } });
      await patchOk(api, b.id, { profile: { profile: textB } });
      const itemA = await rawItem(keys.memberProfile(org.org, a.id));
      const itemB = await rawItem(keys.memberProfile(org.org, b.id));
      await db.client.send(new PutCommand({ TableName: db.tableName, Item: { ...itemB, ciphertext: itemA!.ciphertext } }));

      const swapped = await api.get(b.id, 'include=profile');
      expect(swapped.status).toBe(500);
      expect(swapped.body).toEqual(failure('INTERNAL_ERROR'));
      expect(JSON.stringify(swapped.body)).not.toContain(textA);
      // A's own profile still reads; B's bundle without the profile still reads.
      expect((await api.get(a.id, 'include=profile')).body.data.profile).toEqual({ profile: textA, version: 1 });
      expect((await api.get(b.id)).status).toBe(200);
    });

    it('a ciphertext copied to the same user’s record in another organization does not decrypt', async () => {
      const second = await seededOrg();
      const user = org.people.peer;
      await seed(db, { memberships: [{ org_id: second.org, user_id: user.id, role: 'member' }] });
      const text = `# Peer in the first org ${unique()}`;
      await patchOk(api, user.id, { profile: { profile: text } });
      const secondApi = client(route, second);
      await patchOk(secondApi, user.id, { profile: { profile: 'Peer in the second org' } });
      const source = await rawItem(keys.memberProfile(org.org, user.id));
      const target = await rawItem(keys.memberProfile(second.org, user.id));
      await db.client.send(new PutCommand({ TableName: db.tableName, Item: { ...target, ciphertext: source!.ciphertext } }));
      const res = await secondApi.get(user.id, 'include=profile');
      expect(res.status).toBe(500);
      expect(res.body).toEqual(failure('INTERNAL_ERROR'));
      expect((await api.get(user.id, 'include=profile')).body.data.profile.profile).toBe(text);
    });
  });
});
