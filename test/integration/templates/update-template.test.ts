import { createTemplate } from '../../../shared/domain/templates/create-template';
import { idTokenFor, TIMESTAMP, unique } from '../../support/api';
import { seedOrg } from '../../support/org-builder';
import {
  bigOrg,
  buildTemplatesOrg,
  callers,
  chars,
  created,
  db,
  expectInvalid,
  expectUnderLimit,
  expectUntouchedByTheirs,
  getTpl,
  HOUR_MS,
  isolation,
  largestTemplate,
  listed,
  NOT_FOUND,
  type Org,
  patch,
  sections,
  validation,
  WRITERS,
} from '../../support/templates';

/**
 * Update template (PATCH) end to end (HTTP -> local API Gateway emulator -> authorizer ->
 * handler -> DynamoDB Local): what changes and what the answer says, the largest template the
 * limits allow, validation, and isolation between organizations, each rule with a
 * test that fails when it breaks. The organizations and helpers of the templates suites:
 * test/support/templates.ts.
 */

describe('PATCH /api/v1/organization/{orgId}/templates/{templateId}', () => {
  describe('results', () => {
    let org: Org;
    const original = {
      name: 'Standup',
      description: 'Daily standup notes.',
      sections: [
        { title: 'Yesterday', prompt: 'What was done yesterday?' },
        { title: 'Today', prompt: 'What is planned today?' },
        { title: 'Blockers', prompt: 'What blocks the team?' },
      ],
    };
    beforeAll(async () => {
      org = await seedOrg(buildTemplatesOrg('patch'));
    });

    /**
     * PATCHes a fresh copy of `original`, created an hour ago so that the update's updated_at
     * is later whatever the clock's resolution; returns the before and after states.
     */
    async function patched(body: Record<string, unknown>) {
      const before = await createTemplate({ db, now: () => new Date(Date.now() - HOUR_MS) }, org.org, original);
      expect((await getTpl(org, before.id)).body).toEqual(before); // what the API shows of it
      const res = await patch(org, before.id, body);
      expect(res.status).toBe(200);
      const got = await getTpl(org, before.id);
      expect(got.body).toEqual(res.body); // the response is what is stored
      expect(res.body.created_at).toBe(before.created_at);
      expect(res.body.updated_at).toMatch(TIMESTAMP);
      expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
      return { before, after: res.body };
    }

    it('name alone changes only the name', async () => {
      const { before, after } = await patched({ name: 'Daily standup' });
      expect(after).toEqual({ ...before, name: 'Daily standup', updated_at: after.updated_at });
    });

    it('description alone changes only the description (an empty one too)', async () => {
      const { before, after } = await patched({ description: 'Async standup.' });
      expect(after).toEqual({ ...before, description: 'Async standup.', updated_at: after.updated_at });
      const emptied = await patched({ description: '' });
      expect(emptied.after).toEqual({ ...emptied.before, description: '', updated_at: emptied.after.updated_at });
    });

    it('is_default: true makes it the default and the previous default stops being it; false leaves none; a non-boolean is a 400', async () => {
      const { before: first, after: firstDefault } = await patched({ is_default: true });
      expect(firstDefault).toEqual({ ...first, is_default: true, updated_at: firstDefault.updated_at });
      const { after: secondDefault } = await patched({ is_default: true });
      expect(secondDefault.is_default).toBe(true);
      const previous = await getTpl(org, first.id);
      expect(previous.body.is_default).toBe(false);
      expect(Date.parse(previous.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(firstDefault.updated_at));
      const cleared = await patch(org, secondDefault.id, { is_default: false });
      expect(cleared.status).toBe(200);
      expect(cleared.body.is_default).toBe(false);
      for (const bad of ['yes', 1, null]) expectInvalid(await patch(org, secondDefault.id, { is_default: bad }), 'is_default');
      expect((await getTpl(org, secondDefault.id)).body).toEqual(cleared.body);
    });

    it('sections replace the whole array, in the order given', async () => {
      const next = [
        { title: 'Blockers', prompt: 'Blockers first.' },
        { title: 'Wins', prompt: 'What went well?' },
      ];
      const { before, after } = await patched({ sections: next });
      expect(after).toEqual({ ...before, sections: next, updated_at: after.updated_at });
      // Longer than before, and reordered: exactly what was sent.
      const longer = [...original.sections].reverse().concat([{ title: 'Extra', prompt: 'Anything else?' }]);
      const again = await patched({ sections: longer });
      expect(again.after.sections).toEqual(longer);
    });

    it('all three at once', async () => {
      const body = { name: 'Retro', description: 'Sprint retro.', sections: [{ title: 'Start', prompt: 'What to start?' }] };
      const { before, after } = await patched(body);
      expect(after).toEqual({ ...before, ...body, updated_at: after.updated_at });
    });

    it('a rename moves the template in the list order', async () => {
      const renamed = await created(org, { name: 'zzz last', sections: sections(1) });
      expect((await listed(org)).at(-1)!.id).toBe(renamed.id);
      expect((await patch(org, renamed.id, { name: '000 first' })).status).toBe(200);
      const after = await listed(org);
      expect(after[0]).toMatchObject({ id: renamed.id, name: '000 first' });
      expect(after.filter((t) => t.id === renamed.id)).toHaveLength(1);
    });

    it('an unknown template id is 404 TEMPLATE_NOT_FOUND and creates nothing', async () => {
      const missing = `tpl_missing_${unique()}`;
      const res = await patch(org, missing, { name: 'Ghost' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      expect((await getTpl(org, missing)).status).toBe(404);
      expect((await listed(org)).map((t) => t.name)).not.toContain('Ghost');
    });
  });

  describe('the largest allowed template', () => {
    let org: Org;
    beforeAll(async () => {
      org = await bigOrg();
    });

    it('replaces a template whole, and is read back whole', async () => {
      const made = await created(org, largestTemplate());
      const next = largestTemplate('Patched');
      const patched = await patch(org, made.id, next);
      expectUnderLimit(patched, 200);
      expect(patched.body).toMatchObject(next);
      expect((await getTpl(org, made.id)).body).toEqual(patched.body);
    });
  });

  describe('validation (400 VALIDATION_ERROR naming the field)', () => {
    let org: Org;
    let target: Awaited<ReturnType<typeof created>>;
    beforeAll(async () => {
      ({ org } = await validation());
      target = await created(org, { name: 'Patch target', description: 'Unchanged.', sections: sections(2) });
    });

    it.each<[string, unknown, string]>([
      ['an empty body {}', {}, ''],
      ['name of 201 characters', { name: chars(201) }, 'name'],
      ['a blank name', { name: '  ' }, 'name'],
      ['a null name', { name: null }, 'name'],
      ['description of 2,001 characters', { description: chars(2001) }, 'description'],
      ['0 sections', { sections: [] }, 'sections'],
      ['51 sections', { sections: sections(51) }, 'sections'],
      ['a section title of 201 characters', { sections: [{ title: chars(201), prompt: 'p' }] }, 'sections.0.title'],
      ['a prompt of 10,001 characters', { sections: [{ title: 't', prompt: chars(10_001) }] }, 'sections.0.prompt'],
      [
        '50 sections of a 200-character title and a 10,000-character prompt',
        { sections: Array.from({ length: 50 }, () => ({ title: chars(200), prompt: chars(10_000) })) },
        'sections',
      ],
      ['a control character in the description', { description: 'bell\u0007' }, 'description'],
      ['an extra field in a section', { sections: [{ title: 't', prompt: 'p', weight: 2 }] }, 'sections.0.weight'],
      ['an unknown field', { colour: 'red' }, 'colour'],
      ['a read-only field', { created_at: '2020-01-01T00:00:00.000Z' }, 'created_at'],
      // One bad field refuses the whole request: the valid name is not applied either.
      ['a valid name with an invalid description', { name: 'Renamed', description: chars(2001) }, 'description'],
      ['valid sections with an unknown field', { sections: sections(1), extra: true }, 'extra'],
    ])('%s is refused and nothing changes', async (_, body, field) => {
      expectInvalid(await patch(org, target.id, body), field);
      expect((await getTpl(org, target.id)).body).toEqual(target);
    });

    it.each<[string, Record<string, unknown>]>([
      ['name of 200 characters', { name: chars(200, 'n') }],
      ['description of 2,000 characters', { description: chars(2000, 'd') }],
      ['1 section', { sections: sections(1) }],
      ['50 sections', { sections: sections(50) }],
      ['a section title of 200 and a prompt of 10,000 characters', { sections: [{ title: chars(200, 't'), prompt: chars(10_000, 'p') }] }],
    ])('%s is accepted at the edge', async (_, body) => {
      const template = await created(org, { name: 'Edge', sections: sections(2) });
      const res = await patch(org, template.id, body);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject(body);
      expect((await getTpl(org, template.id)).body).toEqual(res.body);
    });
  });

  describe('isolation between organizations', () => {
    let world: Awaited<ReturnType<typeof isolation>>;
    beforeAll(async () => {
      world = await isolation();
    });

    it.each(['key', 'admin'] as const)('another organization’s template id is 404 (its %s)', async (credential) => {
      const { mine, theirs, mineId } = world;
      const token = credential === 'key' ? theirs.keys.full : await idTokenFor(theirs.people.admin);
      const res = await patch(theirs, mineId, { name: 'Taken' }, token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      await expectUntouchedByTheirs({ mine, theirs, mineId });
    });
  });

  describe('callers it admits', () => {
    it.each(WRITERS)('Update with %s: renamed', async (caller, tokenOf) => {
      const org = await callers();
      const template = org.tpl(`upd ${caller}`);
      const res = await patch(org, template.id, { name: `Renamed by ${caller}` }, await tokenOf(org));
      expect(res.status).toBe(200);
      expect((await getTpl(org, template.id)).body.name).toBe(`Renamed by ${caller}`);
    });
  });
});
