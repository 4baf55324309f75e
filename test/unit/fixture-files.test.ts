import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { DEMO_FIXTURE_FILE, DEMO_KEY_IDS, DEMO_ORG_ID, DEMO_USERS, demoFixture } from '../../infra/local/demo';
import { Fixture } from '../../shared/schemas/fixture';

/**
 * The fixtures the repository ships (fixtures/*.json): valid against the Fixture schema as
 * `seed` reads them, and coherent, so that they load cleanly (test/integration/fixtures.test.ts
 * loads them into the local deployment). The local demo is fixtures/demo.json.
 */
const FIXTURES_DIR = path.resolve(__dirname, '../../fixtures');
const shipped = readdirSync(FIXTURES_DIR).filter((file) => file.endsWith('.json'));
const read = (file: string) => v.parse(Fixture, JSON.parse(readFileSync(path.join(FIXTURES_DIR, file), 'utf8')));

describe('fixtures/', () => {
  it('ships the demo organization and a larger sample organization', () => {
    expect(shipped).toEqual(expect.arrayContaining(['demo.json', 'sample-org.json']));
  });

  it.each(shipped)('%s is valid against the Fixture schema (a strict object: a misspelt field fails)', (file) => {
    const result = v.safeParse(Fixture, JSON.parse(readFileSync(path.join(FIXTURES_DIR, file), 'utf8')));
    expect(result.issues?.map((issue) => `${v.getDotPath(issue)}: ${issue.message}`) ?? []).toEqual([]);
  });

  it.each(shipped)('%s refers only to what it defines, with unique ids', (file) => {
    const fixture = read(file);
    const orgs = new Set(fixture.orgs.map((org) => org.id));
    const users = new Set(fixture.users.map((user) => user.id));
    const membership = (orgId: string, userId: string) => fixture.memberships.find((m) => m.org_id === orgId && m.user_id === userId);
    const unique = (ids: string[]) => expect(new Set(ids).size).toBe(ids.length);
    unique(fixture.orgs.map((org) => org.id));
    unique(fixture.users.map((user) => user.id));
    unique(fixture.users.map((user) => user.email));
    unique(fixture.memberships.map((m) => `${m.org_id}/${m.user_id}`));
    unique(fixture.tags.map((tag) => tag.id));
    unique(fixture.templates.map((template) => template.id));
    unique(fixture.recordings.map((recording) => recording.id));
    unique(fixture.invites.map((invite) => invite.id));
    unique(fixture.invites.map((invite) => `${invite.org_id}/${invite.email}`));

    for (const m of fixture.memberships)
      expect([m.org_id, m.user_id, orgs.has(m.org_id) && users.has(m.user_id)]).toEqual([m.org_id, m.user_id, true]);
    for (const tag of fixture.tags) expect(membership(tag.org_id, tag.user_id)).toBeDefined();
    for (const template of fixture.templates) expect(orgs.has(template.org_id)).toBe(true);
    for (const recording of fixture.recordings) {
      expect([recording.id, membership(recording.org_id, recording.recorded_by)?.status]).toEqual([recording.id, 'active']);
      // A recording's tags are its organization's (assertOrgTags refuses others).
      for (const tagId of recording.tags) expect(fixture.tags.find((tag) => tag.id === tagId)).toMatchObject({ org_id: recording.org_id });
      if (recording.summary?.template_id) expect(fixture.templates.map((t) => t.id)).toContain(recording.summary.template_id);
      // A file that landed goes with a recording past pending_upload; one waiting for its file, with pending_upload.
      if (recording.upload)
        expect([recording.id, recording.state === 'pending_upload']).toEqual([recording.id, !recording.upload.uploaded_at]);
    }
    for (const entry of fixture.settings) expect(membership(entry.org_id, entry.user_id)).toBeDefined();
    // An invitation to an active member's email is refused (ALREADY_MEMBER).
    const activeEmails = new Set(
      fixture.memberships
        .filter((m) => m.status === 'active')
        .map((m) => `${m.org_id}/${fixture.users.find((u) => u.id === m.user_id)!.email}`),
    );
    for (const invite of fixture.invites)
      expect([invite.id, orgs.has(invite.org_id), activeEmails.has(`${invite.org_id}/${invite.email}`)]).toEqual([invite.id, true, false]);
    // Keys are made per deployment (`key create`, or the demo seed's): a fixture in the repository holds none.
    expect(fixture.api_keys).toEqual([]);
  });

  it('sample-org.json is a sizeable organization: dozens of members in every role, templates, a hundred recordings, settings, pending invitations', () => {
    const sample = read('sample-org.json');
    const roles = new Set(sample.memberships.map((m) => m.role));
    expect([...roles].sort()).toEqual(['admin', 'member', 'owner', 'viewer']);
    expect(sample.memberships.filter((m) => m.status === 'active').length).toBeGreaterThanOrEqual(30);
    expect(sample.templates.length).toBeGreaterThanOrEqual(3);
    expect(sample.recordings.length).toBeGreaterThanOrEqual(100);
    expect(sample.settings.filter((s) => s.profile && s.preferences?.length).length).toBeGreaterThanOrEqual(5);
    expect(sample.invites.length).toBeGreaterThanOrEqual(3);
  });

  it('the local demo is fixtures/demo.json with keys made for the data directory, under stable ids', () => {
    expect(DEMO_FIXTURE_FILE).toBe(path.join(FIXTURES_DIR, 'demo.json'));
    const credentials = {
      org_id: DEMO_ORG_ID,
      org_key: 'pk_org_test_only_0000000000000000',
      personal_key: 'pk_user_test_only_00000000000000',
      personal_key_user_id: DEMO_USERS.member.id,
      crm_sync_key: 'pk_org_test_only_crm_00000000000',
    };
    const seeded = v.parse(Fixture, demoFixture(credentials));
    expect({ ...seeded, api_keys: [] }).toEqual(read('demo.json'));
    expect(seeded.api_keys.map((key) => [key.id, key.key, key.user_id])).toEqual([
      [DEMO_KEY_IDS.org, credentials.org_key, undefined],
      [DEMO_KEY_IDS.personal, credentials.personal_key, DEMO_USERS.member.id],
      [DEMO_KEY_IDS.crmSync, credentials.crm_sync_key, undefined],
    ]);
    expect(DEMO_USERS.owner).toMatchObject({ id: 'usr_demo_owner', email: 'olivia.owner@demo.example' });
  });
});
