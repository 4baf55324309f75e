import { expectFailure, idTokenFor } from '../../support/api';
import { api, orgPath, summariesOrg } from './summaries-setup';

/** Update action item: members on their own recordings, admins on anyone's; refusals. */
describe('PATCH /api/v1/organization/{orgId}/recordings/{recordingId}/summaries/{summaryId}/action-items/{itemId}', () => {
  it("a member marks their own recording's item done (and back); another member's recording is 403 INSUFFICIENT_ROLE; an admin may", async () => {
    const org = await summariesOrg();
    const own = org.recId('patch');
    const item = (recordingId: string) => orgPath(org.org, recordingId, `/${recordingId}_summary/action-items/${recordingId}_action_1`);
    const member = await idTokenFor(org.people.member);
    const done = await api('PATCH', item(own), member, { completed: true });
    expect(done.status).toBe(200);
    expect(done.body.action_items[0]).toMatchObject({ id: `${own}_action_1`, completed: true });
    expect((await api('PATCH', item(own), member, { completed: false })).body.action_items[0].completed).toBe(false);

    const admins = org.recId('adminpatch');
    expectFailure(await api('PATCH', item(admins), member, { completed: true }), 403, 'INSUFFICIENT_ROLE');
    expect((await api('PATCH', item(admins), await idTokenFor(org.people.admin), { completed: true })).body.action_items[0].completed).toBe(
      true,
    );
    expect((await api('PATCH', item(admins), org.keys.write, { completed: false })).body.action_items[0].completed).toBe(false);
  });

  it('refuses an unknown item 404, an unknown summary 404, a bad body 400, a viewer 403', async () => {
    const org = await summariesOrg();
    const recordingId = org.recId('patch');
    const base = orgPath(org.org, recordingId, `/${recordingId}_summary/action-items`);
    expectFailure(await api('PATCH', `${base}/ai_99`, org.keys.write, { completed: true }), 404, 'ACTION_ITEM_NOT_FOUND');
    expectFailure(
      await api('PATCH', orgPath(org.org, recordingId, '/sum_nope/action-items/ai_1'), org.keys.write, { completed: true }),
      404,
      'SUMMARY_NOT_FOUND',
    );
    expectFailure(await api('PATCH', `${base}/${recordingId}_action_1`, org.keys.write, { completed: 'yes' }), 400, 'VALIDATION_ERROR');
    expectFailure(await api('PATCH', `${base}/${recordingId}_action_1`, org.keys.write, {}), 400, 'VALIDATION_ERROR');
    expectFailure(
      await api('PATCH', `${base}/${recordingId}_action_1`, await idTokenFor(org.people.viewer), { completed: true }),
      403,
      'INSUFFICIENT_ROLE',
    );
  });
});
