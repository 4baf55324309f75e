import { expectFailure, idTokenFor } from '../../support/api';
import { api, orgPath, publicPath, summariesOrg } from './summaries-setup';

/** List summaries on both hosts: a fixture's summary reads as a completed Summary; newest first; the public alias reaches own recordings only. */
describe('GET /api/v1/organization/{orgId}/recordings/{recordingId}/summaries (and the public alias)', () => {
  it("a viewer reads the recording's summaries, the fixture's among them as a completed summary with its action items", async () => {
    const org = await summariesOrg();
    const listed = await api('GET', orgPath(org.org, org.recId('admins')), await idTokenFor(org.people.viewer));
    expect(listed.status).toBe(200);
    expect(listed.body.summaries).toEqual([
      expect.objectContaining({
        id: `${org.recId('admins')}_summary`,
        status: 'completed',
        template_id: null,
        template_name: 'Standard summary',
        markdown: '## Overview\n\n- Budget approved',
        action_items: [
          {
            id: `${org.recId('admins')}_action_1`,
            text: 'Send the contract',
            assignee: org.people.admin.id,
            assignee_user_id: org.people.admin.id,
            due_date: '2030-03-08',
            completed: false,
            timestamp: null,
          },
        ],
      }),
    ]);
  });

  it('newest first, once more are queued', async () => {
    const org = await summariesOrg();
    const recordingId = org.recId('admins');
    const queued = await api('POST', orgPath(org.org, recordingId), org.keys.write, { template_id: org.templateId });
    const listed = await api('GET', orgPath(org.org, recordingId), org.keys.read);
    expect(listed.body.summaries.map((s: { id: string }) => s.id)).toEqual([queued.body.id, `${recordingId}_summary`]);
  });

  it("deleting a template keeps every summary made with it, with the template's name", async () => {
    const org = await summariesOrg();
    const recordingId = org.recId('mine');
    const queued = await api('POST', orgPath(org.org, recordingId), org.keys.write, { template_id: org.templateId });
    expect(queued.status).toBe(202);
    expect((await api('DELETE', `/api/v1/organization/${org.org}/templates/${org.templateId}`, org.keys.templates)).status).toBe(200);
    const listed = await api('GET', orgPath(org.org, recordingId), org.keys.read);
    expect(listed.body.summaries).toContainEqual(
      expect.objectContaining({ id: queued.body.id, template_id: org.templateId, template_name: 'Sales call' }),
    );
  });

  it("the public alias: a personal key lists its own recordings' summaries in the envelope; another member's is 404; unknown 404", async () => {
    const org = await summariesOrg();
    const mine = await api('GET', publicPath(org.recId('patch')), org.keys.memberRead);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({
      success: true,
      data: { summaries: [expect.objectContaining({ id: `${org.recId('patch')}_summary` })] },
    });
    expectFailure(await api('GET', publicPath(org.recId('admins')), org.keys.memberRead), 404, 'RECORDING_NOT_FOUND');
    expectFailure(await api('GET', orgPath(org.org, 'rec_nope'), org.keys.read), 404, 'RECORDING_NOT_FOUND');
  });
});
