import { expectFailure, idTokenFor, localDeployment, type ApiResponse } from '../../support/api';
import { digestAt, putTranscribedRecording } from '../../support/summaries';
import { eventually } from '../../support/eventually';
import { eventsInclude } from '../../support/events';
import { api, orgPath, publicPath, summariesOrg } from './summaries-setup';

/**
 * Create summary on both hosts: 202 with the queued Summary (the built-in template, or the
 * one named), the summary_queued event, Idempotency-Key, and every refusal: unknown template,
 * no transcript, one in progress, bad ids and body, another member's recording for a personal
 * key. Who may call it: the access matrix.
 */
describe('POST /api/v1/organization/{orgId}/recordings/{recordingId}/summaries (and the public alias)', () => {
  it('202 with the queued summary (the built-in template, or the one named), announced as recording.summary_queued', async () => {
    const org = await summariesOrg();
    const recordingId = org.recId('create');
    const created = await api('POST', orgPath(org.org, recordingId), org.keys.write, {});
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({
      recording_id: recordingId,
      status: 'queued',
      template_id: null,
      template_name: 'Standard summary',
      model: null,
      markdown: '',
      sections: [],
      action_items: [],
      error: null,
    });
    expect(created.body.id).toMatch(/^sum_/);

    const named = await api('POST', orgPath(org.org, recordingId), await idTokenFor(org.people.admin), { template_id: org.templateId });
    expect(named.status).toBe(202);
    expect(named.body).toMatchObject({ template_id: org.templateId, template_name: 'Sales call' });
    await eventsInclude(org.org, ['recording.summary_queued'], recordingId);

    // The audit log: queued (by the key), then the writer's outcome (by the service), never with text.
    const audit = await eventually(
      () => api('GET', `/api/v1/organization/${org.org}/audit-log?resource_id=${recordingId}&limit=50`, org.keys.audit),
      (r: ApiResponse) =>
        r.status === 200 &&
        r.body.entries?.some((e: { type: string }) => e.type === 'recording.summary_completed' || e.type === 'recording.summary_failed'),
    );
    const entries = audit.body.entries.filter((e: { type: string }) => e.type.startsWith('recording.summary_'));
    expect(entries).toContainEqual(
      expect.objectContaining({
        type: 'recording.summary_queued',
        actor: { kind: 'api_key', id: expect.any(String) },
        resource: { type: 'recording', id: recordingId },
      }),
    );
    expect(JSON.stringify(entries)).not.toMatch(/contract|budget|Maria/i);
  });

  it('409 SUMMARY_IN_PROGRESS while one with the same template is queued or running; another template is queued', async () => {
    const org = await summariesOrg();
    const recordingId = org.recId('inflight');
    // Written with its summary already running (an INSERT: no event starts the deployment's writer, which would end it at once).
    await putTranscribedRecording(localDeployment().db, {
      orgId: org.org,
      userId: org.people.member.id,
      id: recordingId,
      at: new Date().toISOString(),
      digests: [digestAt(`sum_run_${org.id}`, 'processing', new Date().toISOString())],
    });
    expectFailure(await api('POST', orgPath(org.org, recordingId), org.keys.write, {}), 409, 'SUMMARY_IN_PROGRESS');
    expect((await api('POST', orgPath(org.org, recordingId), org.keys.write, { template_id: org.templateId })).status).toBe(202);
  });

  it('honours Idempotency-Key: the same request again answers the same summary, nothing more is queued', async () => {
    const org = await summariesOrg();
    const recordingId = org.recId('mine');
    const headers = { 'idempotency-key': `sum-${org.id}` };
    const first = await api('POST', orgPath(org.org, recordingId), org.keys.write, { template_id: org.templateId }, headers);
    const again = await api('POST', orgPath(org.org, recordingId), org.keys.write, { template_id: org.templateId }, headers);
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body.id).toBe(first.body.id);
    const listed = await api('GET', orgPath(org.org, recordingId), org.keys.read);
    expect(listed.body.summaries.filter((s: { template_id: string }) => s.template_id === org.templateId)).toHaveLength(1);
  });

  it('refuses: unknown template 404, no transcript 409 TRANSCRIPT_NOT_READY, unknown recording 404, bad ids and body 400', async () => {
    const org = await summariesOrg();
    expectFailure(
      await api('POST', orgPath(org.org, org.recId('admins')), org.keys.write, { template_id: 'tpl_nope' }),
      404,
      'TEMPLATE_NOT_FOUND',
    );
    expectFailure(
      await api('POST', orgPath(org.org, org.recId('bare')), org.keys.write, {}),
      409,
      'TRANSCRIPT_NOT_READY',
      'Recording ' + org.recId('bare') + ' has no completed transcript yet.',
    );
    expectFailure(await api('POST', orgPath(org.org, 'rec_nope'), org.keys.write, {}), 404, 'RECORDING_NOT_FOUND');
    expectFailure(await api('POST', orgPath(org.org, 'rec bad'), org.keys.write, {}), 400, 'VALIDATION_ERROR');
    expectFailure(
      await api('POST', orgPath(org.org, org.recId('admins')), org.keys.write, { template_id: 'bad id!' }),
      400,
      'VALIDATION_ERROR',
    );
    expectFailure(await api('POST', orgPath(org.org, org.recId('admins')), org.keys.write, { template: 'x' }), 400, 'VALIDATION_ERROR');
    expectFailure(await api('POST', orgPath(org.org, org.recId('admins')), org.keys.read, {}), 403, 'INSUFFICIENT_SCOPES');
    expectFailure(
      await api('POST', orgPath(org.org, org.recId('admins')), await idTokenFor(org.people.member), {}),
      403,
      'INSUFFICIENT_ROLE',
    );
  });

  it("the public alias: a personal key summarizes its member's own recordings (202 in the envelope); another member's is 404", async () => {
    const org = await summariesOrg();
    const mine = await api('POST', publicPath(org.recId('mine')), org.keys.member, {});
    expect(mine.status).toBe(202);
    expect(mine.body).toMatchObject({ success: true, data: { recording_id: org.recId('mine'), status: 'queued' } });
    expectFailure(await api('POST', publicPath(org.recId('admins')), org.keys.member, {}), 404, 'RECORDING_NOT_FOUND');
    expectFailure(await api('POST', publicPath(org.recId('mine')), org.keys.memberRead, {}), 403, 'INSUFFICIENT_SCOPES');
  });
});
