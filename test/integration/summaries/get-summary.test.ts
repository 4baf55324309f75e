import { expectFailure } from '../../support/api';
import { api, orgPath, summariesOrg } from './summaries-setup';

/** Get summary: the whole summary; 404 SUMMARY_NOT_FOUND for another recording's or an unknown one. */
describe('GET /api/v1/organization/{orgId}/recordings/{recordingId}/summaries/{summaryId}', () => {
  it("answers the summary; another recording's summary id or an unknown one is 404 SUMMARY_NOT_FOUND; a bad id 400", async () => {
    const org = await summariesOrg();
    const recordingId = org.recId('mine');
    const got = await api('GET', orgPath(org.org, recordingId, `/${recordingId}_summary`), org.keys.read);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      id: `${recordingId}_summary`,
      recording_id: recordingId,
      status: 'completed',
      usage: { input_tokens: 0, output_tokens: 0 },
    });
    expectFailure(
      await api('GET', orgPath(org.org, recordingId, `/${org.recId('admins')}_summary`), org.keys.read),
      404,
      'SUMMARY_NOT_FOUND',
    );
    expectFailure(await api('GET', orgPath(org.org, recordingId, '/sum_nope'), org.keys.read), 404, 'SUMMARY_NOT_FOUND');
    expectFailure(await api('GET', orgPath(org.org, recordingId, '/sum%20bad'), org.keys.read), 400, 'VALIDATION_ERROR');
  });
});
