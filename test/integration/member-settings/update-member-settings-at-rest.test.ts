import { inflateRawSync } from 'node:zlib';
import { localProfileCipher } from '../../../infra/local/profile-key';
import { keys } from '../../../shared/storage/keys';
import { call, failure, idTokenFor, localDeployment, once, TIMESTAMP, unique } from '../../support/api';
import { printedOutput } from '../../support/local-deployment';
import {
  applied,
  client,
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
 * Update member settings end to end, what a PATCH stores: profile versions and their
 * encryption at rest (the local profile key), preferences and their audit metadata, and all
 * or nothing, on the organization route and on its public alias. The rest of the route is in
 * update-member-settings.test.ts. Every rule on writing settings has a test that
 * fails when the rule breaks.
 */
const { runtime } = localDeployment();

/** One organization (and another one) for every block and both routes: each block writes to members made for it. */
const organizations = once(async () => {
  const [org, other] = await Promise.all([seededOrg(), seededOrg()]);
  return { org, other };
});

describe.each(routesOf('PATCH'))('%s', (_route, route) => {
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
      for (const [version, text] of [
        [1, 'x'.repeat(100_000)],
        [2, '😀'.repeat(100_000)],
      ] as const) {
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
      expect(sorted[0]).toMatchObject({
        version: 1,
        source: 'org_admin_api',
        actor: keyIdOf(org.keys.full),
        created_at: expect.stringMatching(TIMESTAMP),
      });
      expect(sorted[1]).toMatchObject({
        version: 2,
        source: 'org_admin_api',
        actor: owner.id,
        created_at: expect.stringMatching(TIMESTAMP),
      });
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
      expect(record.metadata).toEqual({
        origin: 'import',
        confidence: 0.9,
        source: 'org_admin_api',
        actor: org.people.admin.id,
        correlation_id: correlationId,
      });
    });

    it('an update changes the named fields, keeps created_at, moves updated_at and re-stamps the audit metadata', async () => {
      const member = await newMember(org);
      // Created an hour ago, so the update's updated_at is later whatever the clock's resolution.
      await patchedAt(new Date(Date.now() - HOUR_MS), org, member.id, {
        preferences: [
          { command: 'summarize', command_type: 'summary_enhance', preference_content: 'Short.', metadata: { origin: 'import' } },
        ],
      });
      const [original] = (await preferencesOf(api, member.id)).data;
      const correlationId = `corr-update-${unique()}`;
      const res = await patchOk(
        api,
        member.id,
        { preferences: [{ id: original.id, preference_content: 'Longer, with decisions.' }] },
        { headers: { 'x-correlation-id': correlationId } },
      );
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
      await patchOk(api, member.id, {
        preferences: [
          { command: 'summarize', command_type: 'manual', preference_content: 'Short.', metadata: { origin: 'o'.repeat(587) } },
        ],
      });
      const before = await preferencesOf(api, member.id);
      const res = await api.patch(member.id, { preferences: [{ id: before.data[0].id, metadata: { notes: 'n'.repeat(589) } }] });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        failure(
          'INVALID_PREFERENCES',
          expect.stringContaining('preferences[0].metadata must be at most 1,000 characters as JSON once merged into the stored metadata'),
        ),
      );
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
        const results = await Promise.all(
          texts.map((text, i) => client(ROUTES[i % 2], org).patch(member.id, { profile: { profile: text } })),
        );
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
            client(ROUTES[i % 2], org).patch(member.id, {
              preferences: [{ command: `c${i}`, command_type: 'manual', preference_content: `parallel ${i}` }],
            }),
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
      const secrets = [
        profileText,
        `Platypus-${id}`,
        'Zanzibar merger',
        preferenceContent,
        `aardvark-${id}`,
        preferenceCommand,
        updatedContent,
        `narwhal-${id}`,
      ];
      const org = buildOrg({
        label: 'audit',
        people: {
          admin: { role: 'admin', first: 'audit', displayName: 'Audit Admin' },
          target: { role: 'member', first: 'audit', displayName: 'Audit Target' },
        },
        keys: { full: { scopes: ['users:read', 'users:write'] } },
      });
      const { admin, target } = org.people;
      const orgKey = org.keys.full;

      beforeAll(async () => {
        await seedOrg(org);
      });

      const ownCall = (method: string, path: string, options: { token: string; body?: unknown; correlationId: string }) =>
        call(runtime.apiUrl, method, path, {
          token: options.token,
          body: options.body,
          headers: { 'x-correlation-id': options.correlationId },
        });

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

        const read = await ownCall('GET', `${orgRoute}?include=profile,preferences`, {
          token: orgKey,
          correlationId: `corr-audit-read-${id}`,
        });
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
        const auditLines = jsonObjectsIn(output.slice(printedBefore)).filter(
          (o) => o.message === 'member settings updated' && o.org_id === org.org,
        );
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
