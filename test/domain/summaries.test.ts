import type { OrgKeyCaller, UserKeyCaller } from '../../shared/auth/policy';
import { createSummary, type SummaryQueueDeps } from '../../shared/domain/summaries/create-summary';
import { queueSummaryOnTranscription } from '../../shared/domain/summaries/queue-summary-on-transcription';
import { latestSummary } from '../../shared/domain/summaries/summary-reads';
import { deleteSummary } from '../../shared/domain/summaries/delete-summary';
import { runSummary, type SummaryRunDeps } from '../../shared/domain/summaries/run-summary';
import { summaryIdForEvent } from '../../shared/domain/summaries/summary-changes';
import { getRecording } from '../../shared/storage/recordings';
import { getSummary } from '../../shared/storage/summaries';
import { SummaryEngineError } from '../../shared/summarization/summary-engine';
import { localDeployment, seed, unique } from '../support/api';
import { domainEvent } from '../support/events';
import { digestAt, InMemorySummaryEngine, putTranscribedRecording, queuedAt } from '../support/summaries';

/**
 * The summaries' domain functions on the local table, with an engine in memory and a chosen
 * clock: the queue's rules (transcript, template, one in flight per template, 20 at most, two
 * requests at once), the automatic summary's idempotency, and a run (completed, failed,
 * throttled, discarded). Recordings are written as INSERTs, so no queued event reaches the
 * deployment's own consumer.
 */
const { db } = localDeployment();
const AT = '2030-03-10T10:00:00.000Z';

async function organization(
  settings: Record<string, unknown> = {},
  preferences: { command_type: string; preference_content: string }[] = [],
) {
  const u = unique();
  const orgId = `org_dsu_${u}`;
  const userId = `usr_dsu_${u}`;
  const mariaId = `usr_dsu_${u}_maria`;
  await seed(db, {
    orgs: [{ id: orgId, name: `Summaries ${u}` }],
    users: [
      { id: userId, email: `su.${u}@example.com`, display_name: 'Tia Recorder' },
      { id: mariaId, email: `maria.${u}@example.com`, display_name: 'María López' },
    ],
    memberships: [
      { org_id: orgId, user_id: userId, role: 'member' },
      { org_id: orgId, user_id: mariaId, role: 'member' },
    ],
    templates: [
      {
        id: `tpl_dsu_${u}`,
        org_id: orgId,
        name: 'Sales call',
        description: '',
        sections: [
          { title: 'Customer', prompt: 'Who.' },
          { title: 'Next steps', prompt: 'What next.' },
        ],
      },
    ],
    settings: [
      {
        org_id: orgId,
        user_id: userId,
        settings,
        preferences: preferences.map((p, i) => ({
          command: `pref ${i}`,
          command_type: p.command_type,
          preference_content: p.preference_content,
        })),
      },
    ],
  });
  const orgKey: OrgKeyCaller = { kind: 'org_key', orgId, keyId: `key_dsu_${u}`, scopes: ['recordings:write'], actor: `key_dsu_${u}` };
  return { orgId, userId, mariaId, templateId: `tpl_dsu_${u}`, u, orgKey };
}

const clockAt = (iso: string) => ({ now: new Date(iso) });
let counter = 0;
const queueDeps = (clock: { now: Date }): SummaryQueueDeps => ({
  db,
  now: () => clock.now,
  newSummaryId: () => `sum_dsu_${unique()}_${++counter}`,
});

function runDeps(
  clock: { now: Date },
  engine = new InMemorySummaryEngine(),
): SummaryRunDeps & { engine: InMemorySummaryEngine; metrics: Record<string, number> } {
  const metrics: Record<string, number> = {};
  return {
    db,
    now: () => clock.now,
    engine,
    modelIdFor: (selected) => `bedrock:${selected ?? 'fallback'}`,
    countMetric: (name, count = 1) => void (metrics[name] = (metrics[name] ?? 0) + count),
    metrics,
  };
}

const queuedEvent = (orgId: string, recordingId: string, summaryId: string) =>
  domainEvent({
    type: 'recording.summary_queued',
    org_id: orgId,
    resource: { type: 'recording', id: recordingId },
    data: { summary_id: summaryId },
  });

describe('queueing a summary', () => {
  it('queues one with the built-in template when the organization has no default, and lists it on the recording', async () => {
    const { orgId, userId, u, orgKey } = await organization();
    const id = `rec_dsu_${u}`;
    await putTranscribedRecording(db, { orgId, userId, id, at: AT });
    const summary = await createSummary(queueDeps(clockAt('2030-03-10T10:05:00.000Z')), orgKey, id, {});
    expect(summary).toMatchObject({
      status: 'queued',
      template_id: null,
      template_name: 'Standard summary',
      model: null,
      markdown: '',
      created_at: '2030-03-10T10:05:00.000Z',
    });
    expect(summary.template_sections.map((s) => s.title)).toEqual(['Overview', 'Key points', 'Decisions', 'Action items']);
    const recording = await getRecording(db, orgId, id);
    expect(recording?.summaries).toEqual([expect.objectContaining({ id: summary.id, status: 'queued', excerpt: '', error: null })]);
    expect(recording?.updated_at).toBe('2030-03-10T10:05:00.000Z');
  });

  it("snapshots a named template; refuses an unknown one, a recording without transcript, and another member's for a personal key", async () => {
    const { orgId, userId, templateId, u, orgKey } = await organization();
    const id = `rec_dsu_${u}`;
    await putTranscribedRecording(db, { orgId, userId, id, at: AT });
    const deps = queueDeps(clockAt('2030-03-10T10:05:00.000Z'));
    const summary = await createSummary(deps, orgKey, id, { template_id: templateId });
    expect(summary).toMatchObject({
      template_id: templateId,
      template_name: 'Sales call',
      template_sections: [
        { title: 'Customer', prompt: 'Who.' },
        { title: 'Next steps', prompt: 'What next.' },
      ],
    });
    await expect(createSummary(deps, orgKey, id, { template_id: 'tpl_nope' })).rejects.toMatchObject({
      code: 'TEMPLATE_NOT_FOUND',
      statusCode: 404,
    });

    const bare = `rec_dsu_${u}_bare`;
    await putTranscribedRecording(db, { orgId, userId, id: bare, at: AT, transcript: null });
    await expect(createSummary(deps, orgKey, bare, {})).rejects.toMatchObject({ code: 'TRANSCRIPT_NOT_READY', statusCode: 409 });

    const stranger: UserKeyCaller = {
      kind: 'user_key',
      orgId,
      userId: `usr_other_${u}`,
      keyId: 'key_x',
      role: 'member',
      scopes: ['recordings:write'],
      actor: `usr_other_${u}`,
    };
    await expect(createSummary(deps, stranger, id, {})).rejects.toMatchObject({ code: 'RECORDING_NOT_FOUND', statusCode: 404 });
  });

  it('refuses a second summary with a template queued or running (SUMMARY_IN_PROGRESS), not with another template', async () => {
    const { orgId, userId, templateId, u, orgKey } = await organization();
    const id = `rec_dsu_${u}`;
    await putTranscribedRecording(db, {
      orgId,
      userId,
      id,
      at: AT,
      digests: [digestAt(`sum_dsu_${u}_running`, 'processing', AT, templateId)],
    });
    const deps = queueDeps(clockAt('2030-03-10T10:05:00.000Z'));
    await expect(createSummary(deps, orgKey, id, { template_id: templateId })).rejects.toMatchObject({
      code: 'SUMMARY_IN_PROGRESS',
      statusCode: 409,
    });
    await expect(createSummary(deps, orgKey, id, {})).resolves.toMatchObject({ status: 'queued', template_id: null });
  });

  it('a summary left queued or processing for 3 hours no longer holds its template (its writer never finished it)', async () => {
    const { orgId, userId, templateId, u, orgKey } = await organization();
    const id = `rec_dsu_${u}`;
    await putTranscribedRecording(db, {
      orgId,
      userId,
      id,
      at: AT,
      digests: [digestAt(`sum_dsu_${u}_stuck`, 'processing', AT, templateId)],
    });
    await expect(
      createSummary(queueDeps(clockAt('2030-03-10T12:59:59.000Z')), orgKey, id, { template_id: templateId }),
    ).rejects.toMatchObject({ code: 'SUMMARY_IN_PROGRESS' });
    await expect(
      createSummary(queueDeps(clockAt('2030-03-10T13:00:00.000Z')), orgKey, id, { template_id: templateId }),
    ).resolves.toMatchObject({ status: 'queued' });
  });

  it('keeps at most 20 summaries per recording (SUMMARY_LIMIT_REACHED)', async () => {
    const { orgId, userId, u, orgKey } = await organization();
    const id = `rec_dsu_${u}`;
    const digests = Array.from({ length: 20 }, (_, i) => digestAt(`sum_dsu_${u}_${i}`, 'completed', AT));
    await putTranscribedRecording(db, { orgId, userId, id, at: AT, digests });
    await expect(createSummary(queueDeps(clockAt('2030-03-10T10:05:00.000Z')), orgKey, id, {})).rejects.toMatchObject({
      code: 'SUMMARY_LIMIT_REACHED',
      statusCode: 409,
    });
  });

  it('two requests at once with the same template: one is queued, the other refused; with two templates both are', async () => {
    const { orgId, userId, templateId, u, orgKey } = await organization();
    const same = `rec_dsu_${u}_same`;
    const two = `rec_dsu_${u}_two`;
    await putTranscribedRecording(db, { orgId, userId, id: same, at: AT });
    await putTranscribedRecording(db, { orgId, userId, id: two, at: AT });
    const deps = queueDeps(clockAt('2030-03-10T10:05:00.000Z'));

    const outcomes = await Promise.allSettled([createSummary(deps, orgKey, same, {}), createSummary(deps, orgKey, same, {})]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: { code: 'SUMMARY_IN_PROGRESS' } });
    expect((await getRecording(db, orgId, same))?.summaries).toHaveLength(1);

    await Promise.all([createSummary(deps, orgKey, two, {}), createSummary(deps, orgKey, two, { template_id: templateId })]);
    expect((await getRecording(db, orgId, two))?.summaries?.map((d) => d.template_id).sort()).toEqual([templateId, null].sort());
  });
});

describe('the automatic summary', () => {
  it('queues one summary per completed transcription event, idempotent by event id', async () => {
    const { orgId, userId, u } = await organization();
    const id = `rec_dsu_${u}`;
    await putTranscribedRecording(db, { orgId, userId, id, at: AT });
    const event = domainEvent({ type: 'recording.transcription_completed', org_id: orgId, resource: { type: 'recording', id } });
    const deps = { db, now: () => new Date('2030-03-10T10:05:00.000Z') };
    expect(await queueSummaryOnTranscription(deps, event)).toBe('queued');
    expect(await queueSummaryOnTranscription(deps, event)).toBe('ignored');
    const recording = await getRecording(db, orgId, id);
    expect(recording?.summaries).toEqual([
      expect.objectContaining({ id: summaryIdForEvent(event.id), template_name: 'Standard summary', status: 'queued' }),
    ]);
  });
});

describe('running a summary', () => {
  async function queuedRecording(
    settings: Record<string, unknown> = {},
    preferences: { command_type: string; preference_content: string }[] = [],
  ) {
    const org = await organization(settings, preferences);
    const id = `rec_dsu_${org.u}`;
    const summary = queuedAt({ id, org_id: org.orgId }, `sum_dsu_${org.u}`, AT);
    await putTranscribedRecording(db, { orgId: org.orgId, userId: org.userId, id, at: AT, summaries: [summary] });
    return { ...org, id, summaryId: summary.id, event: queuedEvent(org.orgId, id, summary.id) };
  }

  it("completes with the engine's draft: the recorder's model, language and instructions, sections in order, assignees matched, usage counted", async () => {
    const { orgId, id, summaryId, event, mariaId } = await queuedRecording(
      { conversation_language: 'Spanish', selected_model: 'gpt-4o', auto_add_tasks_from_summaries: true },
      [
        { command_type: 'summary_enhance', preference_content: 'Always list attendee names' },
        { command_type: 'style', preference_content: 'Not for summaries' },
        { command_type: 'manual', preference_content: 'Keep it short' },
      ],
    );
    const deps = runDeps(clockAt('2030-03-10T10:06:00.000Z'));
    expect(await runSummary(deps, event, { attempt: 1, last: false })).toBe('completed');

    const [request] = deps.engine.requests;
    expect(request).toMatchObject({
      modelId: 'bedrock:gpt-4o',
      language: 'Spanish',
      recordedAt: '2030-03-04T09:00:00.000Z',
      template: { name: 'Standard summary' },
    });
    expect([...request.instructions].sort()).toEqual(['Always list attendee names', 'Keep it short']);
    expect(request.transcript).toHaveLength(3);

    const summary = await getSummary(db, orgId, id, summaryId);
    expect(summary).toMatchObject({
      status: 'completed',
      model: 'bedrock:gpt-4o',
      language: 'Spanish',
      preferences_applied: 2,
      announce_action_items: true,
      usage: { input_tokens: 1200, output_tokens: 150 },
    });
    expect(summary?.sections.map((s) => s.title)).toEqual(['Overview', 'Action items']);
    expect(summary?.action_items).toEqual([
      {
        id: 'ai_1',
        text: 'Send the contract',
        assignee: 'Maria',
        assignee_user_id: mariaId,
        due_date: '2030-03-08',
        completed: false,
        timestamp: 4.5,
      },
      { id: 'ai_2', text: 'Book the room', assignee: null, assignee_user_id: null, due_date: null, completed: false, timestamp: null },
    ]);
    const recording = await getRecording(db, orgId, id);
    expect(recording?.summaries?.[0]).toMatchObject({
      status: 'completed',
      model: 'bedrock:gpt-4o',
      excerpt: expect.stringContaining('## Overview'),
    });
    expect(deps.metrics).toEqual({ SummariesCompleted: 1, SummaryInputTokens: 1200, SummaryOutputTokens: 150 });

    // The translation's dependency reads this one, the latest completed.
    expect(await latestSummary(db, orgId, id)).toEqual({ id: summaryId, markdown: summary?.markdown });

    // The same event again: nothing changes.
    expect(await runSummary(deps, event, { attempt: 2, last: false })).toBe('ignored');
    expect(deps.engine.requests).toHaveLength(1);
  });

  it("fails with the engine's code and reason; the recording lists the reason in summarizations_errors", async () => {
    const { orgId, id, summaryId, event } = await queuedRecording();
    const deps = runDeps(clockAt('2030-03-10T10:06:00.000Z'));
    deps.engine.answer = async () => {
      throw new SummaryEngineError('SUMMARY_OUTPUT_INVALID', "the model answered sections other than the template's twice.");
    };
    expect(await runSummary(deps, event, { attempt: 1, last: false })).toBe('failed');
    expect(await getSummary(db, orgId, id, summaryId)).toMatchObject({
      status: 'failed',
      error: "SUMMARY_OUTPUT_INVALID: the model answered sections other than the template's twice.",
    });
    expect((await getRecording(db, orgId, id))?.summarizations_errors).toEqual([
      "SUMMARY_OUTPUT_INVALID: the model answered sections other than the template's twice.",
    ]);
  });

  it('throttled: gives the event back with a delay of at least what the engine asked (capped), and fails with SUMMARY_THROTTLED on the last delivery', async () => {
    const { orgId, id, summaryId, event } = await queuedRecording();
    const deps = runDeps(clockAt('2030-03-10T10:06:00.000Z'));
    deps.engine.answer = async () => {
      throw new SummaryEngineError('SUMMARY_THROTTLED', 'Bedrock is throttling this model.', 20);
    };
    const first = await runSummary(deps, event, { attempt: 1, last: false });
    expect(first).toEqual({ retryAfterSeconds: expect.any(Number) });
    const delay = (first as { retryAfterSeconds: number }).retryAfterSeconds;
    expect(delay).toBeGreaterThanOrEqual(20);
    expect(delay).toBeLessThanOrEqual(900);
    expect(await getSummary(db, orgId, id, summaryId)).toMatchObject({ status: 'processing' });

    expect(await runSummary(deps, event, { attempt: 8, last: true })).toBe('failed');
    expect(await getSummary(db, orgId, id, summaryId)).toMatchObject({
      status: 'failed',
      error: 'SUMMARY_THROTTLED: Bedrock is throttling this model.',
    });
  });

  it('discards the result of a summary deleted while the engine wrote it', async () => {
    const { orgId, id, summaryId, event, orgKey } = await queuedRecording();
    const clock = clockAt('2030-03-10T10:06:00.000Z');
    const deps = runDeps(clock);
    const draft = deps.engine.answer;
    deps.engine.answer = async (request) => {
      await deleteSummary({ db, now: () => clock.now }, orgKey, id, summaryId);
      return draft(request);
    };
    expect(await runSummary(deps, event, { attempt: 1, last: false })).toBe('discarded');
    expect(await getSummary(db, orgId, id, summaryId)).toBeUndefined();
    expect((await getRecording(db, orgId, id))?.summaries).toEqual([]);
  });
});
