import { expectFailure } from '../../support/api';
import { api, orgPath, summariesOrg } from './summaries-setup';

/** Delete summary: the summary goes, its recording's list and Get recording no longer show it. */
describe('DELETE /api/v1/organization/{orgId}/recordings/{recordingId}/summaries/{summaryId}', () => {
  it('deletes it (200 success); a second delete is 404; Get recording then has no summary', async () => {
    const org = await summariesOrg();
    const recordingId = org.recId('delete');
    const path = orgPath(org.org, recordingId, `/${recordingId}_summary`);
    const before = await api(
      'GET',
      `/api/v1/organization/${org.org}/recordings/${recordingId}?include=summary,action_items`,
      org.keys.read,
    );
    expect(before.body).toMatchObject({
      summary: { markdown: '## Overview\n\n- Budget approved', template_name: 'Standard summary' },
      action_items: [expect.objectContaining({ text: 'Send the contract' })],
    });

    const deleted = await api('DELETE', path, org.keys.write);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    expectFailure(await api('DELETE', path, org.keys.write), 404, 'SUMMARY_NOT_FOUND');
    expectFailure(await api('DELETE', path, org.keys.read), 403, 'INSUFFICIENT_SCOPES');
    expect((await api('GET', orgPath(org.org, recordingId), org.keys.read)).body).toEqual({ summaries: [] });
    const after = await api('GET', `/api/v1/organization/${org.org}/recordings/${recordingId}?include=summary,action_items`, org.keys.read);
    expect(after.body).toMatchObject({ summary: null, action_items: null });
  });
});
