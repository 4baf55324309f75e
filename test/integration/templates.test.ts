import type { FixtureInput } from '../../shared/schemas/fixture';
import { createTemplate } from '../../shared/domain/templates/templates';
import { TEMPLATE_LIMITS, TEMPLATE_PAGE } from '../../shared/schemas/templates';
import { putTemplate } from '../../shared/storage/templates';
import { call, failure, idTokenFor, localDeployment, once, TIMESTAMP, type ApiResponse, unique } from '../support/api';
import { buildOrg, seedOrg } from '../support/org-builder';

/**
 * Organization templates end to end: HTTP -> local API Gateway emulator -> authorizer ->
 * handler -> DynamoDB Local. List, Get, Create, Update (PATCH) and Delete, each rule of
 * issue 5 (and the limits of docs/decisions.md, "Templates") with a test that fails when
 * the rule breaks. Every describe block builds its own organizations.
 */
const { runtime, db } = localDeployment();

const NOT_FOUND = failure('TEMPLATE_NOT_FOUND');
const HOUR_MS = 3_600_000;

// ---------------------------------------------------------------------------------------
// Organizations

type Section = { title: string; prompt: string };
type TemplateInput = NonNullable<FixtureInput['templates']>[number];

/** An organization with one active member of each role and org keys of each scope set. */
function buildTemplatesOrg(label = 'tpl') {
  const org = buildOrg({
    label,
    keys: {
      read: { scopes: ['templates:read'] },
      write: { scopes: ['templates:write'] },
      full: { scopes: ['templates:read', 'templates:write', 'recordings:read'] },
      /** no template scope */
      users: { scopes: ['users:read', 'recordings:read'] },
      /** both template scopes, refused for its kind, not its scopes */
      personal: { scopes: ['templates:read', 'templates:write'], user: 'admin' },
    },
  });
  /** A fixture template of this organization. */
  const tpl = (name: string, fields: Partial<TemplateInput> = {}): TemplateInput => ({
    name,
    sections: [{ title: 'Overview', prompt: 'Summarize the call.' }],
    ...fields,
    id: `tpl_${name.replace(/\W/g, '_')}_${org.id}`,
    org_id: org.org,
  });
  return { ...org, tpl };
}
type Org = ReturnType<typeof buildTemplatesOrg>;

// ---------------------------------------------------------------------------------------
// HTTP helpers

const base = (org: Org) => `/api/v1/organization/${org.org}/templates`;
const send = (method: string, path: string, token?: string, body?: unknown) => call(runtime.apiUrl, method, path, { token, body });
const list = (org: Org, token = org.keys.full, query = '') => send('GET', `${base(org)}${query}`, token);
const getTpl = (org: Org, templateId: string, token = org.keys.full) => send('GET', `${base(org)}/${templateId}`, token);
const create = (org: Org, body: unknown, token = org.keys.full) => send('POST', base(org), token, body);
const patch = (org: Org, templateId: string, body: unknown, token = org.keys.full) => send('PATCH', `${base(org)}/${templateId}`, token, body);
const remove = (org: Org, templateId: string, token = org.keys.full) => send('DELETE', `${base(org)}/${templateId}`, token);

/** A create that must succeed; returns the Template. */
async function created(org: Org, body: Record<string, unknown>, token = org.keys.full) {
  const res = await create(org, body, token);
  if (res.status !== 201) throw new Error(`POST templates: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; name: string; description: string; sections: Section[]; created_at: string; updated_at: string };
}

/** The templates of an organization as its list returns them. */
async function listed(org: Org) {
  const res = await list(org);
  if (res.status !== 200) throw new Error(`GET templates: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.templates as { id: string; name: string }[];
}

const sections = (count: number, title = (i: number) => `Section ${i + 1}`): Section[] =>
  Array.from({ length: count }, (_, i) => ({ title: title(i), prompt: `Prompt ${i + 1}.` }));

/** Expected order of a list: by lower-cased name (code unit order), then id. */
const byNameThenId = (a: { name: string; id: string }, b: { name: string; id: string }) => {
  const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
  if (x !== y) return x < y ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};

/** Lambda's synchronous response payload limit (6 MB). */
const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;

/**
 * The bytes of a response: its body as sent, and as the Lambda payload that AWS limits (the
 * proxy result, where the body is a JSON string, so its escapes are escaped again).
 */
function responseBytes(res: ApiResponse) {
  const body = JSON.stringify(res.body);
  const headers = Object.fromEntries(res.headers.entries());
  return { body: Buffer.byteLength(body), lambda: Buffer.byteLength(JSON.stringify({ statusCode: res.status, headers, body })) };
}

/**
 * The largest template the limits allow, in the costliest character they allow (`"`: two
 * bytes in the body, four in the Lambda payload), spread over the most sections.
 */
function largestTemplate(name = '') {
  const text = (units: number) => '"'.repeat(units);
  let left = TEMPLATE_LIMITS.sectionsText - 2 * TEMPLATE_LIMITS.sections;
  const grow = (max: number) => {
    const extra = Math.min(max - 1, left);
    left -= extra;
    return 1 + extra;
  };
  const shape = Array.from({ length: TEMPLATE_LIMITS.sections }, () => ({ title: grow(TEMPLATE_LIMITS.sectionTitle), prompt: grow(TEMPLATE_LIMITS.prompt) }));
  return {
    name: `${name}${text(TEMPLATE_LIMITS.name - name.length)}`,
    description: text(TEMPLATE_LIMITS.description),
    sections: shape.map(({ title, prompt }) => ({ title: text(title), prompt: text(prompt) })),
  };
}

const expectUnderLimit = (res: ApiResponse, status: number) => {
  expect(res.status).toBe(status);
  const bytes = responseBytes(res);
  expect(bytes.body).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
  expect(bytes.lambda).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
  return bytes;
};

// ---------------------------------------------------------------------------------------
// Organizations several routes' blocks share

/** Two organizations with one template each: another organization's template must be out of reach on every route. */
const isolation = once(async () => {
  const mine = buildTemplatesOrg('iso');
  const theirs = buildTemplatesOrg('iso_other');
  await Promise.all([seedOrg(mine, { templates: [mine.tpl('Mine')] }), seedOrg(theirs, { templates: [theirs.tpl('Theirs')] })]);
  return { mine, theirs, mineId: mine.tpl('Mine').id };
});

/** After a refused attempt of theirs: my template is still there, unchanged, and not in their list. */
async function expectUntouchedByTheirs({ mine, theirs, mineId }: Awaited<ReturnType<typeof isolation>>) {
  const still = await getTpl(mine, mineId);
  expect(still.status).toBe(200);
  expect(still.body.name).toBe('Mine');
  expect((await listed(theirs)).map((t) => t.id)).not.toContain(mineId);
}

/** Where validation runs: an organization for valid requests, and one where only creates that must fail are sent (it must stay empty). */
const validation = once(async () => {
  const [org, empty] = await Promise.all([seedOrg(buildTemplatesOrg('valid')), seedOrg(buildTemplatesOrg('invalid'))]);
  return { org, empty };
});

const ok = { name: 'Valid', description: 'Fine.', sections: sections(1) };
const chars = (n: number, c = 'x') => c.repeat(n);

/** A 400 VALIDATION_ERROR whose details name `field` (given as a dot path, e.g. sections.0.title; named sections[0].title). */
const expectInvalid = (res: ApiResponse, field: string) => {
  expect(res.status).toBe(400);
  expect(res.body).toEqual(failure('VALIDATION_ERROR'));
  if (field) expect(res.body.details).toContainEqual(expect.objectContaining({ field: field.replace(/\.(\d+)/g, '[$1]') }));
};

/**
 * Who may call each route, and what everyone else is answered, is the access matrix's
 * (test/integration/access-matrix.test.ts, generated from the manifest). Here, each kind of
 * caller a route admits gets its answer: an ID token of the lowest role it admits, and an org
 * key with only the route's scope.
 */
const READERS = [
  ['a member’s ID token', (org: Org) => idTokenFor(org.people.member)],
  ['a key with templates:read only', async (org: Org) => org.keys.read],
] as const;
const WRITERS = [
  ['an admin’s ID token', (org: Org) => idTokenFor(org.people.admin)],
  ['a key with templates:write only', async (org: Org) => org.keys.write],
] as const;

/** The organization of the callers blocks: one template to read, and one per writer to update and to delete. */
const callers = once(async () => {
  const org = buildTemplatesOrg('callers');
  await seedOrg(org, { templates: [org.tpl('Shared'), ...WRITERS.flatMap(([label]) => [org.tpl(`upd ${label}`), org.tpl(`del ${label}`)])] });
  return org;
});

/** The organization the largest templates are written to. */
const bigOrg = once(() => seedOrg(buildTemplatesOrg('big')));

// ---------------------------------------------------------------------------------------

describe('GET /api/v1/organization/{orgId}/templates', () => {
  describe('order', () => {
    it('orders by name case-insensitively, then id; every item is a full Template', async () => {
      const org = await seedOrg(buildTemplatesOrg('order'));
      const names = ['delta', 'Bravo', 'alpha', 'Charlie', 'bravo', 'ALPHA', 'echo', 'Alpha'];
      const made = [];
      for (const name of names) made.push(await created(org, { name, sections: sections(1) }));

      const res = await list(org);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['templates', 'pagination']);
      expect(res.body.pagination).toEqual({ page: 1, limit: TEMPLATE_PAGE.defaultLimit, total: names.length, total_pages: 1, has_more: false });
      expect(res.body.templates.map((t: { id: string }) => t.id)).toEqual([...made].sort(byNameThenId).map((t) => t.id));
      // Not a code-unit sort of the names as given (that would put every capital first).
      expect(res.body.templates.map((t: { name: string }) => t.name.toLowerCase())).toEqual(
        ['alpha', 'alpha', 'alpha', 'bravo', 'bravo', 'charlie', 'delta', 'echo'],
      );
      for (const template of made) expect(res.body.templates).toContainEqual(template);
    });

    it('a name that begins another comes first ("Weekly" before "Weekly sync" and "Weekly!")', async () => {
      // The index key `<name>#<id>` alone would list "Weekly sync" and "Weekly!" before "Weekly"
      // ('#' sorts after ' ' and '!'); the list must still be in name order.
      const org = await seedOrg(buildTemplatesOrg('prefix'));
      const made = [];
      for (const name of ['Weekly sync', 'Weekly!', 'Weekly', 'Weekly-report']) made.push(await created(org, { name, sections: sections(1) }));
      const ids = (await listed(org)).map((t) => t.id);
      expect(ids).toEqual([...made].sort(byNameThenId).map((t) => t.id));
      expect((await listed(org)).map((t) => t.name)).toEqual(['Weekly', 'Weekly sync', 'Weekly!', 'Weekly-report']);
    });
  });

  describe('paging', () => {
    let org: Org;
    let ordered: string[];
    beforeAll(async () => {
      org = await seedOrg(buildTemplatesOrg('page'));
      const made = [];
      for (const name of ['echo', 'Alpha', 'delta', 'bravo', 'Charlie']) made.push(await created(org, { name, sections: sections(1) }));
      ordered = made.sort(byNameThenId).map((t) => t.id);
    });

    it(`without parameters: page 1 of up to ${TEMPLATE_PAGE.defaultLimit}, so a client that predates paging still gets every template`, async () => {
      const res = await list(org);
      expect(res.status).toBe(200);
      expect(res.body.templates.map((t: { id: string }) => t.id)).toEqual(ordered);
      expect(res.body.pagination).toEqual({ page: 1, limit: TEMPLATE_PAGE.defaultLimit, total: 5, total_pages: 1, has_more: false });
    });

    it('pages cut the name order; a page past the end is empty with the real totals', async () => {
      const pages = [];
      for (const page of [1, 2, 3, 4]) {
        const res = await list(org, org.keys.full, `?page=${page}&limit=2`);
        expect(res.status).toBe(200);
        pages.push(res.body);
      }
      expect(pages.map((p) => p.templates.map((t: { id: string }) => t.id))).toEqual([ordered.slice(0, 2), ordered.slice(2, 4), ordered.slice(4), []]);
      expect(pages.map((p) => p.pagination)).toEqual(
        [1, 2, 3, 4].map((page) => ({ page, limit: 2, total: 5, total_pages: 3, has_more: page < 3 })),
      );
    });

    it.each(['limit=0', `limit=${TEMPLATE_PAGE.maxLimit + 1}`, 'limit=ten', 'page=0', 'page=-1', 'page=1.5'])('%s is 400 naming the parameter', async (query) => {
      const res = await list(org, org.keys.full, `?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(failure('VALIDATION_ERROR'));
      expect(res.body.message).toContain(query.split('=')[0]);
    });

    it('List takes page and limit only (400 naming any other parameter)', async () => {
      const res = await list(org, org.keys.full, '?limit=5&sort=name');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(failure('VALIDATION_ERROR'));
      expect(res.body.message).toContain('sort');
      expect(res.body.message).not.toContain('limit');
    });
  });

  describe('a full page of the largest templates', () => {
    it(`a full page of ${TEMPLATE_PAGE.maxLimit} of them is listed within Lambda's 6 MB`, async () => {
      const pageOrg = await seedOrg(buildTemplatesOrg('bigpage'));
      const now = new Date().toISOString();
      // Seeded through the storage layer, side by side: HTTP creates would only repeat the test above.
      await Promise.all(
        Array.from({ length: TEMPLATE_PAGE.maxLimit + 1 }, (_, i) =>
          putTemplate(db, { id: `tpl_big_${pageOrg.id}_${String(i).padStart(3, '0')}`, org_id: pageOrg.org, ...largestTemplate(String(i).padStart(3, '0')), created_at: now, updated_at: now }, 'create'),
        ),
      );
      const res = await list(pageOrg, pageOrg.keys.full, `?limit=${TEMPLATE_PAGE.maxLimit}`);
      const bytes = expectUnderLimit(res, 200);
      expect(res.body.templates).toHaveLength(TEMPLATE_PAGE.maxLimit);
      expect(res.body.templates[0]).toMatchObject(largestTemplate('000'));
      expect(res.body.pagination).toEqual({ page: 1, limit: TEMPLATE_PAGE.maxLimit, total: TEMPLATE_PAGE.maxLimit + 1, total_pages: 2, has_more: true });
      // The unit budget (test/unit/size-budgets.test.ts) keeps this under 5 MiB; check the same here.
      expect(bytes.lambda).toBeLessThan(5 * 1024 * 1024);
      const last = await list(pageOrg, pageOrg.keys.full, `?page=2&limit=${TEMPLATE_PAGE.maxLimit}`);
      expect(last.body.templates.map((t: { name: string }) => t.name.slice(0, 3))).toEqual([String(TEMPLATE_PAGE.maxLimit)]);
    });
  });

  describe('isolation between organizations', () => {
    let mine: Org;
    let theirs: Org;
    beforeAll(async () => {
      ({ mine, theirs } = await isolation());
    });
    const mineId = () => mine.tpl('Mine').id;

    it('each list holds only its own organization’s templates', async () => {
      expect((await listed(mine)).map((t) => t.id)).toEqual([mineId()]);
      expect((await listed(theirs)).map((t) => t.id)).toEqual([theirs.tpl('Theirs').id]);
    });

    it('a template created in one organization is not in another’s list', async () => {
      const made = await created(mine, { name: 'Fresh', sections: sections(1) });
      expect((await listed(mine)).map((t) => t.id)).toContain(made.id);
      expect((await listed(theirs)).map((t) => t.id)).not.toContain(made.id);
    });
  });

  describe('callers it admits', () => {
    it.each(READERS)('List with %s: the organization’s templates', async (_caller, tokenOf) => {
      const org = await callers();
      const res = await list(org, await tokenOf(org));
      expect(res.status).toBe(200);
      expect(res.body.templates.map((t: { id: string }) => t.id)).toContain(org.tpl('Shared').id);
    });
  });
});

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
        ['titles and prompts of 10,200 characters together', { ...ok, sections: Array.from({ length: 50 }, () => ({ title: chars(4), prompt: chars(200) })) }],
        ['tab, line feed and carriage return in text', { ...ok, description: 'a\tb\nc\r\nd', sections: [{ title: 'Step\t1', prompt: 'line 1\nline 2' }] }],
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
        ['a bad section among good ones', { ...ok, sections: [...sections(3), { title: 't', prompt: chars(10_001) }] }, 'sections.3.prompt'],
        [
          'titles and prompts of 10,201 characters together',
          { ...ok, sections: [...Array.from({ length: 49 }, () => ({ title: chars(4), prompt: chars(200) })), { title: chars(5), prompt: chars(200) }] },
          'sections',
        ],
        // The issue's case: within every per-field limit, but no DynamoDB item holds it (it was a 500).
        ['45 sections of a 200-character title and a 10,000-character prompt', { ...ok, sections: Array.from({ length: 45 }, () => ({ title: chars(200), prompt: chars(10_000) })) }, 'sections'],
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

describe('GET /api/v1/organization/{orgId}/templates/{templateId}', () => {
  describe('unknown ids, and other organizations’ templates', () => {
    let world: Awaited<ReturnType<typeof isolation>>;
    beforeAll(async () => {
      world = await isolation();
    });

    it('an unknown template id is 404 TEMPLATE_NOT_FOUND', async () => {
      const res = await getTpl(world.mine, `tpl_missing_${unique()}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    });

    it.each(['key', 'admin'] as const)('another organization’s template id is 404 (its %s)', async (credential) => {
      const { mine, theirs, mineId } = world;
      const token = credential === 'key' ? theirs.keys.full : await idTokenFor(theirs.people.admin);
      const res = await getTpl(theirs, mineId, token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      await expectUntouchedByTheirs({ mine, theirs, mineId });
    });
  });

  describe('callers it admits', () => {
    it.each(READERS)('Get with %s: the template', async (_caller, tokenOf) => {
      const org = await callers();
      const res = await getTpl(org, org.tpl('Shared').id, await tokenOf(org));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: org.tpl('Shared').id, name: 'Shared' });
    });
  });
});

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
      ['50 sections of a 200-character title and a 10,000-character prompt', { sections: Array.from({ length: 50 }, () => ({ title: chars(200), prompt: chars(10_000) })) }, 'sections'],
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

describe('DELETE /api/v1/organization/{orgId}/templates/{templateId}', () => {
  describe('results', () => {
    it('answers {success: true}; the template is gone from get, list, patch and delete', async () => {
      const org = await seedOrg(buildTemplatesOrg('del'));
      const doomed = await created(org, { name: 'Doomed', sections: sections(2) });
      const kept = await created(org, { name: 'Kept', sections: sections(1) });

      const res = await remove(org, doomed.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });

      for (const again of [await getTpl(org, doomed.id), await patch(org, doomed.id, { name: 'Back' }), await remove(org, doomed.id)]) {
        expect(again.status).toBe(404);
        expect(again.body).toEqual(NOT_FOUND);
      }
      expect((await listed(org)).map((t) => t.id)).toEqual([kept.id]);
      expect((await getTpl(org, kept.id)).body).toEqual(kept);
    });

    it('a summary made with a template keeps its template id and name after the template is deleted', async () => {
      const org = buildTemplatesOrg('sum');
      const template = org.tpl('Customer call');
      const recordingId = `rec_sum_${org.id}`;
      await seedOrg(org, {
        templates: [template],
        recordings: [
          {
            id: recordingId,
            org_id: org.org,
            recorded_by: org.people.member.id,
            title: 'Call with ACME',
            duration: 120,
            language: 'en',
            summary: { markdown: '# Call with ACME\n\nThey want a demo.', template_id: template.id, template_name: template.name },
          },
        ],
      });
      const read = () => send('GET', `/api/v1/organization/${org.org}/recordings/${recordingId}?include=summary`, org.keys.full);
      const before = await read();
      expect(before.status).toBe(200);
      expect(before.body.summary).toMatchObject({ markdown: '# Call with ACME\n\nThey want a demo.', template_id: template.id, template_name: 'Customer call' });

      expect((await remove(org, template.id)).body).toEqual({ success: true });
      expect((await getTpl(org, template.id)).status).toBe(404);

      const after = await read();
      expect(after.status).toBe(200);
      expect(after.body.summary).toEqual(before.body.summary);
      expect(after.body.summary).toMatchObject({ template_id: template.id, template_name: 'Customer call' });
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
      const res = await remove(theirs, mineId, token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      await expectUntouchedByTheirs({ mine, theirs, mineId });
    });
  });

  describe('callers it admits', () => {
    it.each(WRITERS)('Delete with %s: gone', async (caller, tokenOf) => {
      const org = await callers();
      const template = org.tpl(`del ${caller}`);
      const res = await remove(org, template.id, await tokenOf(org));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect((await getTpl(org, template.id)).status).toBe(404);
    });
  });
});
