import { TEMPLATE_PAGE } from '../../../shared/schemas/templates';
import { putTemplate } from '../../../shared/storage/templates';
import { failure } from '../../support/api';
import { seedOrg } from '../../support/org-builder';
import {
  buildTemplatesOrg,
  byNameThenId,
  callers,
  created,
  db,
  expectUnderLimit,
  isolation,
  largestTemplate,
  list,
  listed,
  type Org,
  READERS,
  sections,
} from '../../support/templates';

/**
 * List templates end to end (HTTP -> local API Gateway emulator -> authorizer -> handler ->
 * DynamoDB Local): the order by name, paging, a full page of the largest templates within
 * Lambda's 6 MB, and isolation between organizations, each rule with a test that
 * fails when it breaks. The organizations and helpers of the templates suites:
 * test/support/templates.ts.
 */

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
      expect(res.body.pagination).toEqual({
        page: 1,
        limit: TEMPLATE_PAGE.defaultLimit,
        total: names.length,
        total_pages: 1,
        has_more: false,
      });
      expect(res.body.templates.map((t: { id: string }) => t.id)).toEqual([...made].sort(byNameThenId).map((t) => t.id));
      // Not a code-unit sort of the names as given (that would put every capital first).
      expect(res.body.templates.map((t: { name: string }) => t.name.toLowerCase())).toEqual([
        'alpha',
        'alpha',
        'alpha',
        'bravo',
        'bravo',
        'charlie',
        'delta',
        'echo',
      ]);
      for (const template of made) expect(res.body.templates).toContainEqual(template);
    });

    it('a name that begins another comes first ("Weekly" before "Weekly sync" and "Weekly!")', async () => {
      // The index key `<name>#<id>` alone would list "Weekly sync" and "Weekly!" before "Weekly"
      // ('#' sorts after ' ' and '!'); the list must still be in name order.
      const org = await seedOrg(buildTemplatesOrg('prefix'));
      const made = [];
      for (const name of ['Weekly sync', 'Weekly!', 'Weekly', 'Weekly-report'])
        made.push(await created(org, { name, sections: sections(1) }));
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
      expect(pages.map((p) => p.templates.map((t: { id: string }) => t.id))).toEqual([
        ordered.slice(0, 2),
        ordered.slice(2, 4),
        ordered.slice(4),
        [],
      ]);
      expect(pages.map((p) => p.pagination)).toEqual(
        [1, 2, 3, 4].map((page) => ({ page, limit: 2, total: 5, total_pages: 3, has_more: page < 3 })),
      );
    });

    it.each(['limit=0', `limit=${TEMPLATE_PAGE.maxLimit + 1}`, 'limit=ten', 'page=0', 'page=-1', 'page=1.5'])(
      '%s is 400 naming the parameter',
      async (query) => {
        const res = await list(org, org.keys.full, `?${query}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(failure('VALIDATION_ERROR'));
        expect(res.body.message).toContain(query.split('=')[0]);
      },
    );

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
          putTemplate(
            db,
            {
              id: `tpl_big_${pageOrg.id}_${String(i).padStart(3, '0')}`,
              org_id: pageOrg.org,
              ...largestTemplate(String(i).padStart(3, '0')),
              created_at: now,
              updated_at: now,
            },
            'create',
          ),
        ),
      );
      const res = await list(pageOrg, pageOrg.keys.full, `?limit=${TEMPLATE_PAGE.maxLimit}`);
      const bytes = expectUnderLimit(res, 200);
      expect(res.body.templates).toHaveLength(TEMPLATE_PAGE.maxLimit);
      expect(res.body.templates[0]).toMatchObject(largestTemplate('000'));
      expect(res.body.pagination).toEqual({
        page: 1,
        limit: TEMPLATE_PAGE.maxLimit,
        total: TEMPLATE_PAGE.maxLimit + 1,
        total_pages: 2,
        has_more: true,
      });
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
