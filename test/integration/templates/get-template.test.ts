import { idTokenFor, unique } from '../../support/api';
import { callers, expectUntouchedByTheirs, getTpl, isolation, NOT_FOUND, READERS } from '../../support/templates';

/**
 * Get template end to end (HTTP -> local API Gateway emulator -> authorizer -> handler ->
 * DynamoDB Local): unknown ids and other organizations' templates. The organizations and helpers
 * of the templates suites: test/support/templates.ts.
 */

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
