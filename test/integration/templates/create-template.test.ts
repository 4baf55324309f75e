import { call, failure, TIMESTAMP } from '../../support/api';
import { seedOrg } from '../../support/org-builder';
import {
  base,
  bigOrg,
  buildTemplatesOrg,
  callers,
  chars,
  create,
  created,
  expectInvalid,
  expectUnderLimit,
  getTpl,
  largestTemplate,
  listed,
  ok,
  type Org,
  runtime,
  sections,
  send,
  validation,
  WRITERS,
} from '../../support/templates';

/**
 * Create template end to end (HTTP -> local API Gateway emulator -> authorizer -> handler ->
 * DynamoDB Local): the Template it answers, the largest template the limits allow
 * (docs/decisions.md, "Templates"), and validation, each rule with a test that fails
 * when it breaks. The organizations and helpers of the templates suites:
 * test/support/templates.ts.
 */

describe('POST /api/v1/organization/{orgId}/templates', () => {
  describe('results', () => {
    let org: Org;
    beforeAll(async () => {
      org = await seedOrg(buildTemplatesOrg());
    });

    it('create answers 201 with exactly the Template, which Get then returns', async () => {
      const body = {
        name: 'Sales call',
        description: 'For discovery calls.',
        sections: [
          { title: 'Needs', prompt: 'What does the customer need?' },
          { title: 'Next steps', prompt: 'List the agreed next steps.' },
        ],
      };
      const before = Date.now();
      const res = await create(org, body);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^tpl_/),
        ...body,
        is_default: false,
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
      });
      expect(res.body.updated_at).toBe(res.body.created_at);
      expect(Math.abs(Date.parse(res.body.created_at) - before)).toBeLessThan(60_000);

      const got = await getTpl(org, res.body.id);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(res.body);
    });

    it('description is optional and defaults to ""', async () => {
      const template = await created(org, { name: 'No description', sections: sections(1) });
      expect(template.description).toBe('');
      expect((await getTpl(org, template.id)).body.description).toBe('');
    });

    it('two creates with the same body make two templates with different ids', async () => {
      const body = { name: 'Twin', sections: sections(1) };
      const [a, b] = [await created(org, body), await created(org, body)];
      expect(a.id).not.toBe(b.id);
      const twins = (await listed(org)).filter((t) => t.name === 'Twin');
      expect(twins.map((t) => t.id).sort()).toEqual([a.id, b.id].sort());
    });
  });

  describe('the largest allowed template', () => {
    let org: Org;
    beforeAll(async () => {
      org = await bigOrg();
    });

    it('is created and read back whole', async () => {
      const body = largestTemplate();
      const made = await create(org, body);
      expectUnderLimit(made, 201);
      expect(made.body).toMatchObject(body);
      const got = await getTpl(org, made.body.id);
      expectUnderLimit(got, 200);
      expect(got.body).toEqual(made.body);
    });
  });

  describe('validation (400 VALIDATION_ERROR naming the field)', () => {
    let org: Org;
    let empty: Org;
    beforeAll(async () => {
      ({ org, empty } = await validation());
    });

    describe('create: accepted at the edge', () => {
      it.each<[string, Record<string, unknown>]>([
        ['name of 200 characters', { ...ok, name: chars(200) }],
        ['name of 1 character', { ...ok, name: 'N' }],
        ['description of 2,000 characters', { ...ok, description: chars(2000) }],
        ['an empty description', { ...ok, description: '' }],
        ['1 section', { ...ok, sections: sections(1) }],
        ['50 sections', { ...ok, sections: sections(50) }],
        ['a section title of 200 characters', { ...ok, sections: [{ title: chars(200), prompt: 'p' }] }],
        ['a prompt of 10,000 characters', { ...ok, sections: [{ title: 't', prompt: chars(10_000) }] }],
        [
          'titles and prompts of 10,200 characters together',
          { ...ok, sections: Array.from({ length: 50 }, () => ({ title: chars(4), prompt: chars(200) })) },
        ],
        [
          'tab, line feed and carriage return in text',
          { ...ok, description: 'a\tb\nc\r\nd', sections: [{ title: 'Step\t1', prompt: 'line 1\nline 2' }] },
        ],
      ])('%s', async (_, body) => {
        const res = await create(org, body);
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({ ...body, description: body.description ?? '' });
        expect((await getTpl(org, res.body.id)).body).toEqual(res.body);
      });
    });

    describe('create: refused just past the edge, and nothing is created', () => {
      const { name: _name, ...withoutName } = ok;
      const { sections: _sections, ...withoutSections } = ok;
      it.each<[string, unknown, string]>([
        ['name of 201 characters', { ...ok, name: chars(201) }, 'name'],
        ['an empty name', { ...ok, name: '' }, 'name'],
        ['a blank name', { ...ok, name: '   ' }, 'name'],
        ['no name', withoutName, 'name'],
        ['a name that is not a string', { ...ok, name: 42 }, 'name'],
        ['description of 2,001 characters', { ...ok, description: chars(2001) }, 'description'],
        ['a description that is not a string', { ...ok, description: null }, 'description'],
        ['no sections', withoutSections, 'sections'],
        ['0 sections', { ...ok, sections: [] }, 'sections'],
        ['51 sections', { ...ok, sections: sections(51) }, 'sections'],
        ['sections that are not an array', { ...ok, sections: { title: 't', prompt: 'p' } }, 'sections'],
        ['a section title of 201 characters', { ...ok, sections: [{ title: chars(201), prompt: 'p' }] }, 'sections.0.title'],
        ['an empty section title', { ...ok, sections: [{ title: '', prompt: 'p' }] }, 'sections.0.title'],
        ['a blank section title', { ...ok, sections: [{ title: ' \t ', prompt: 'p' }] }, 'sections.0.title'],
        ['a section without a title', { ...ok, sections: [{ prompt: 'p' }] }, 'sections.0.title'],
        ['a prompt of 10,001 characters', { ...ok, sections: [{ title: 't', prompt: chars(10_001) }] }, 'sections.0.prompt'],
        ['an empty prompt', { ...ok, sections: [{ title: 't', prompt: '' }] }, 'sections.0.prompt'],
        ['a section without a prompt', { ...ok, sections: [{ title: 't' }] }, 'sections.0.prompt'],
        [
          'a bad section among good ones',
          { ...ok, sections: [...sections(3), { title: 't', prompt: chars(10_001) }] },
          'sections.3.prompt',
        ],
        [
          'titles and prompts of 10,201 characters together',
          {
            ...ok,
            sections: [
              ...Array.from({ length: 49 }, () => ({ title: chars(4), prompt: chars(200) })),
              { title: chars(5), prompt: chars(200) },
            ],
          },
          'sections',
        ],
        // The issue's case: within every per-field limit, but no DynamoDB item holds it (it was a 500).
        [
          '45 sections of a 200-character title and a 10,000-character prompt',
          { ...ok, sections: Array.from({ length: 45 }, () => ({ title: chars(200), prompt: chars(10_000) })) },
          'sections',
        ],
        ['a control character in the name', { ...ok, name: 'Sales\u0001call' }, 'name'],
        ['a control character in a prompt', { ...ok, sections: [{ title: 't', prompt: 'red \u001b[31m' }] }, 'sections.0.prompt'],
        ['an extra field in a section', { ...ok, sections: [{ title: 't', prompt: 'p', order: 1 }] }, 'sections.0.order'],
        ['a section that is not an object', { ...ok, sections: ['Overview'] }, 'sections.0'],
        ['an unknown top-level field', { ...ok, color: 'red' }, 'color'],
        ['a read-only field', { ...ok, id: 'tpl_mine' }, 'id'],
        ['a body that is not an object', [ok], ''],
      ])('%s', async (_, body, field) => {
        expectInvalid(await create(empty, body), field);
        expect(await listed(empty)).toEqual([]);
      });

      it('no body at all', async () => {
        const res = await send('POST', base(empty), empty.keys.full);
        expectInvalid(res, '');
        expect(res.body.details).toContainEqual(expect.objectContaining({ issue: 'missing' }));
        expect(await listed(empty)).toEqual([]);
      });

      it('a body that is not JSON is 400 INVALID_JSON', async () => {
        const res = await call(runtime.apiUrl, 'POST', base(empty), { token: empty.keys.full, rawBody: '{"name": "x",' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(failure('INVALID_JSON'));
        expect(await listed(empty)).toEqual([]);
      });
    });
  });

  describe('callers it admits', () => {
    it.each(WRITERS)('Create with %s: 201, one template', async (caller, tokenOf) => {
      const org = await callers();
      const name = `By ${caller}`;
      const res = await create(org, { name, sections: sections(1) }, await tokenOf(org));
      expect(res.status).toBe(201);
      expect((await listed(org)).filter((t) => t.name === name)).toHaveLength(1);
    });
  });
});
