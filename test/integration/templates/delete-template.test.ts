import { idTokenFor } from '../../support/api';
import { seedOrg } from '../../support/org-builder';
import {
  buildTemplatesOrg,
  callers,
  created,
  expectUntouchedByTheirs,
  getTpl,
  isolation,
  listed,
  NOT_FOUND,
  patch,
  remove,
  sections,
  send,
  WRITERS,
} from '../../support/templates';

/**
 * Delete template end to end (HTTP -> local API Gateway emulator -> authorizer -> handler ->
 * DynamoDB Local): what it removes, and isolation between organizations. The organizations and
 * helpers of the templates suites: test/support/templates.ts.
 */

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
      expect(before.body.summary).toMatchObject({
        markdown: '# Call with ACME\n\nThey want a demo.',
        template_id: template.id,
        template_name: 'Customer call',
      });

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
