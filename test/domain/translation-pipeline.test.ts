import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { OrgKeyCaller, UserKeyCaller } from '../../shared/auth/policy';
import { translateRecording } from '../../shared/domain/translations/translate-recording';
import { runTranslation } from '../../shared/domain/translations/run-translation';
import { keys } from '../../shared/storage/keys';
import { recordingItem } from '../../shared/storage/recording-items';
import { queryAll } from '../../shared/storage/query-all';
import { deleteRelatedItems, getRecording } from '../../shared/storage/recordings';
import { readTranslation } from '../../shared/storage/translations';
import { TranslationError } from '../../shared/translation/translator';
import { localDeployment, seed, unique } from '../support/api';
import { fakeTranslator, putTranscribedRecording, queuedRun, runDepsAt, TURNS } from '../support/translations';

/**
 * The translation pipeline's domain functions on the local table, with an in-memory
 * translator and a chosen clock: a queued translation runs to completion (segments, times and
 * speakers kept, the summary's structure kept, a redelivery changes nothing), a language
 * translated again replaces its chunks, failures (unsupported pair, throttling, engine errors on
 * the last delivery), a run discarded with its recording, and the request's refusals.
 */
const { db } = localDeployment();
const AT = '2030-04-01T10:00:00.000Z';
const last = { last: true };
const notLast = { last: false };

async function organization() {
  const u = unique();
  const orgId = `org_dtl_${u}`;
  const userId = `usr_dtl_${u}`;
  await seed(db, {
    orgs: [{ id: orgId, name: `Translation ${u}` }],
    users: [{ id: userId, email: `tl.${u}@example.com`, display_name: 'Tom' }],
    memberships: [{ org_id: orgId, user_id: userId, role: 'member' }],
  });
  return { orgId, userId, u };
}

const queuedEvent = (orgId: string, recordingId: string, translationId: string) => ({
  type: 'recording.translation_queued' as const,
  org_id: orgId,
  resource: { type: 'recording' as const, id: recordingId },
  data: { translation_id: translationId },
});

const chunkKeysOf = async (orgId: string, recordingId: string) =>
  (
    await queryAll(db, {
      TableName: db.tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.recordingTranslation(orgId, recordingId, '').PK },
      ConsistentRead: true,
    })
  ).map((item) => String(item.SK));

describe('a queued translation runs to completion', () => {
  it('translates every turn and the summary lines in one call, keeps speakers and times, and stores the language', async () => {
    const { orgId, userId, u } = await organization();
    const id = `rec_dtl_${u}`;
    await putTranscribedRecording(db, { orgId, userId, id, at: AT, translation: queuedRun('trl_a') });
    const clock = { now: new Date('2030-04-01T10:00:05.000Z') };
    const translator = fakeTranslator();
    const deps = runDepsAt(db, clock, translator, {
      id: 'sum_1',
      markdown: '## Overview\nThe budget is approved.\n\n- Maria sends the contract',
    });

    const characters = [...TURNS.map((turn) => turn.text), 'Overview', 'The budget is approved.', '', 'Maria sends the contract'].join(
      '',
    ).length;
    expect(await runTranslation(deps, queuedEvent(orgId, id, 'trl_a'), notLast)).toEqual({ kind: 'completed', characters });
    expect(translator.calls).toEqual([
      {
        texts: [...TURNS.map((turn) => turn.text), 'Overview', 'The budget is approved.', '', 'Maria sends the contract'],
        from: 'en',
        to: 'es',
      },
    ]);
    const recording = await getRecording(db, orgId, id, { consistent: true });
    expect(recording?.translation).toMatchObject({
      id: 'trl_a',
      status: 'completed',
      segment_count: 3,
      finished_at: clock.now.toISOString(),
    });
    expect(recording?.translation_error).toBeUndefined();
    const stored = await readTranslation(db, orgId, id, 'es');
    expect(stored?.segments).toEqual(TURNS.map((turn) => ({ ...turn, text: `[es] ${turn.text}` })));
    expect(stored?.header).toMatchObject({
      id: 'trl_a',
      language: 'es',
      from_language: 'en',
      chunk_set: 1,
      summary: { id: 'sum_1', markdown: '## [es] Overview\n[es] The budget is approved.\n\n- [es] Maria sends the contract' },
    });
    // Another language of the same recording is not this one.
    expect(await readTranslation(db, orgId, id, 'es-MX')).toBeUndefined();

    // The same event again: the translation is no longer queued or running, nothing moves.
    expect(await runTranslation(deps, queuedEvent(orgId, id, 'trl_a'), notLast)).toEqual({ kind: 'ignored' });
    expect(translator.calls).toHaveLength(1);
  });

  it('a language translated again replaces its previous chunks when the new run completes', async () => {
    const { orgId, userId, u } = await organization();
    const id = `rec_dtl_${u}`;
    await putTranscribedRecording(db, { orgId, userId, id, at: AT, translation: queuedRun('trl_1') });
    const clock = { now: new Date('2030-04-01T10:00:05.000Z') };
    await runTranslation(runDepsAt(db, clock, fakeTranslator()), queuedEvent(orgId, id, 'trl_1'), notLast);
    expect(await chunkKeysOf(orgId, id)).toEqual(['es', 'es#0001#0001']);

    const done = await getRecording(db, orgId, id, { consistent: true });
    // Removed and written again: an INSERT gives no queued event, so the deployment's consumer does not race this one.
    await db.client.send(new DeleteCommand({ TableName: db.tableName, Key: keys.recording(orgId, id) }));
    await db.client.send(
      new PutCommand({
        TableName: db.tableName,
        Item: recordingItem({ ...done!, translation: queuedRun('trl_2', 'es', 2, '2030-04-01T11:00:00.000Z') }),
      }),
    );
    clock.now = new Date('2030-04-01T11:00:05.000Z');
    await runTranslation(
      runDepsAt(
        db,
        clock,
        fakeTranslator(async (texts) => texts.map((text) => `otra ${text}`)),
      ),
      queuedEvent(orgId, id, 'trl_2'),
      notLast,
    );
    expect(await chunkKeysOf(orgId, id)).toEqual(['es', 'es#0002#0001']);
    expect((await readTranslation(db, orgId, id, 'es'))?.segments[0].text).toBe(`otra ${TURNS[0].text}`);
  });

  it('the same language as the transcript copies it without calling the engine', async () => {
    const { orgId, userId, u } = await organization();
    const id = `rec_dtl_${u}`;
    await putTranscribedRecording(db, { orgId, userId, id, at: AT, translation: { ...queuedRun('trl_s', 'en') } });
    const translator = fakeTranslator();
    expect(await runTranslation(runDepsAt(db, { now: new Date(AT) }, translator), queuedEvent(orgId, id, 'trl_s'), notLast)).toEqual({
      kind: 'completed',
      characters: 0,
    });
    expect(translator.calls).toEqual([]);
    expect((await readTranslation(db, orgId, id, 'en'))?.segments).toEqual(TURNS);
  });
});

describe('a recording deleted for good', () => {
  it('loses its translations with its other related items (the object cleanup)', async () => {
    const { orgId, userId, u } = await organization();
    const id = `rec_dtl_${u}`;
    await putTranscribedRecording(db, { orgId, userId, id, at: AT, translation: queuedRun('trl_g') });
    await runTranslation(runDepsAt(db, { now: new Date(AT) }, fakeTranslator()), queuedEvent(orgId, id, 'trl_g'), notLast);
    expect(await chunkKeysOf(orgId, id)).toEqual(['es', 'es#0001#0001']);
    await db.client.send(new DeleteCommand({ TableName: db.tableName, Key: keys.recording(orgId, id) }));
    // The transcript's header and chunk, and the translation's header and chunk.
    expect(await deleteRelatedItems(db, orgId, id)).toEqual({ deleted: 4, recordingExists: false });
    expect(await chunkKeysOf(orgId, id)).toEqual([]);
  });
});

describe('a translation that cannot complete', () => {
  it('an unsupported pair fails with the engine’s reason, on the recording and in translation_error', async () => {
    const { orgId, userId, u } = await organization();
    const id = `rec_dtl_${u}`;
    await putTranscribedRecording(db, { orgId, userId, id, at: AT, translation: queuedRun('trl_u', 'fr') });
    const translator = fakeTranslator(async () => {
      throw new TranslationError('UNSUPPORTED_LANGUAGE_PAIR', 'Unsupported language pair: en to fr.');
    });
    expect(await runTranslation(runDepsAt(db, { now: new Date(AT) }, translator), queuedEvent(orgId, id, 'trl_u'), notLast)).toEqual({
      kind: 'failed',
    });
    const recording = await getRecording(db, orgId, id, { consistent: true });
    expect(recording?.translation).toMatchObject({
      status: 'failed',
      error_code: 'UNSUPPORTED_LANGUAGE_PAIR',
      error_message: 'Unsupported language pair: en to fr.',
    });
    expect(recording?.translation_error).toBe('UNSUPPORTED_LANGUAGE_PAIR: Unsupported language pair: en to fr.');
    expect(await chunkKeysOf(orgId, id)).toEqual([]);
  });

  it('a translated transcript over the transcript’s 4 MB bound fails, nothing stored', async () => {
    const { orgId, userId, u } = await organization();
    const id = `rec_dtl_${u}`;
    await putTranscribedRecording(db, { orgId, userId, id, at: AT, translation: queuedRun('trl_big') });
    // Each turn comes back 1.4 MB long: three of them are over the bound.
    const verbose = fakeTranslator(async (texts) => texts.map(() => 'x'.repeat(1_400_000)));
    expect(await runTranslation(runDepsAt(db, { now: new Date(AT) }, verbose), queuedEvent(orgId, id, 'trl_big'), notLast)).toEqual({
      kind: 'failed',
    });
    expect((await getRecording(db, orgId, id, { consistent: true }))?.translation_error).toBe(
      'TRANSLATION_FAILED: The translated transcript is over 4 MB, the bound of a transcript.',
    );
    expect(await chunkKeysOf(orgId, id)).toEqual([]);
  });

  it('throttling asks for the message back later and stays processing; throttled on the last delivery, it fails', async () => {
    const { orgId, userId, u } = await organization();
    const id = `rec_dtl_${u}`;
    await putTranscribedRecording(db, { orgId, userId, id, at: AT, translation: queuedRun('trl_t') });
    const throttled = fakeTranslator(async () => {
      throw new TranslationError('TRANSLATION_THROTTLED', 'Rate exceeded', 30);
    });
    const deps = runDepsAt(db, { now: new Date(AT) }, throttled);
    expect(await runTranslation(deps, queuedEvent(orgId, id, 'trl_t'), notLast)).toEqual({ kind: 'retry', afterSeconds: 30 });
    expect((await getRecording(db, orgId, id, { consistent: true }))?.translation?.status).toBe('processing');
    expect(await runTranslation(deps, queuedEvent(orgId, id, 'trl_t'), last)).toEqual({ kind: 'failed' });
    expect((await getRecording(db, orgId, id, { consistent: true }))?.translation).toMatchObject({
      status: 'failed',
      error_code: 'TRANSLATION_FAILED',
    });
  });

  it('another engine error is thrown for the queue to retry, and fails the translation on the last delivery', async () => {
    const { orgId, userId, u } = await organization();
    const id = `rec_dtl_${u}`;
    await putTranscribedRecording(db, { orgId, userId, id, at: AT, translation: queuedRun('trl_e') });
    const broken = fakeTranslator(async () => {
      throw Object.assign(new Error('internal'), { name: 'InternalServerException' });
    });
    const deps = runDepsAt(db, { now: new Date(AT) }, broken);
    await expect(runTranslation(deps, queuedEvent(orgId, id, 'trl_e'), notLast)).rejects.toThrow('internal');
    expect(await runTranslation(deps, queuedEvent(orgId, id, 'trl_e'), last)).toEqual({ kind: 'failed' });
    expect((await getRecording(db, orgId, id, { consistent: true }))?.translation_error).toMatch(
      /^TRANSLATION_FAILED: the translation engine failed \(InternalServerException\)/,
    );
  });

  it('a recording moved to the trash while translated discards the run and its chunks, its translation failed', async () => {
    const { orgId, userId, u } = await organization();
    const id = `rec_dtl_${u}`;
    const written = await putTranscribedRecording(db, { orgId, userId, id, at: AT, translation: queuedRun('trl_d') });
    const trashing = fakeTranslator(async () => {
      const now = await getRecording(db, orgId, id, { consistent: true });
      await db.client.send(
        new PutCommand({
          TableName: db.tableName,
          Item: recordingItem({ ...now!, deleted_at: '2030-04-01T10:00:01.000Z', updated_at: '2030-04-01T10:00:01.000Z' }),
        }),
      );
      return undefined;
    });
    expect(written.deleted_at).toBeUndefined();
    expect(await runTranslation(runDepsAt(db, { now: new Date(AT) }, trashing), queuedEvent(orgId, id, 'trl_d'), notLast)).toMatchObject({
      kind: 'discarded',
    });
    expect(await chunkKeysOf(orgId, id)).toEqual([]);
    // Failed, so that a restore finds nothing stuck processing (which would refuse every other language).
    expect((await getRecording(db, orgId, id, { consistent: true }))?.translation).toMatchObject({
      status: 'failed',
      error_code: 'TRANSLATION_FAILED',
      error_message: expect.stringContaining('moved to the trash'),
    });
  });
});

describe('Translate recording (the request)', () => {
  it('queues the next translation from the transcript’s language; refuses while one into another language runs (the same one answers it), without a completed transcript, and another member’s recording', async () => {
    const { orgId, userId, u } = await organization();
    const org: OrgKeyCaller = { kind: 'org_key', orgId, keyId: 'key_x', scopes: ['recordings:write'], actor: 'key_x' };
    const other: UserKeyCaller = {
      kind: 'user_key',
      orgId,
      userId: `usr_other_${u}`,
      keyId: 'key_y',
      role: 'member',
      scopes: ['recordings:write'],
      actor: `usr_other_${u}`,
    };
    const deps = { db, now: () => new Date('2030-04-01T12:00:00.000Z') };

    const busy = `rec_dtl_${u}_busy`;
    await putTranscribedRecording(db, { orgId, userId, id: busy, at: AT, translation: queuedRun('trl_b') });
    await expect(translateRecording(deps, org, busy, { to_language: 'de' })).rejects.toMatchObject({
      statusCode: 409,
      code: 'TRANSLATION_IN_PROGRESS',
    });
    // The same language again while it runs: that translation, nothing new queued.
    await expect(translateRecording(deps, org, busy, { to_language: 'es' })).resolves.toMatchObject({
      id: 'trl_b',
      status: 'queued',
      attempt: 1,
    });
    expect((await getRecording(db, orgId, busy, { consistent: true }))?.translation?.id).toBe('trl_b');

    const pt = `rec_dtl_${u}_pt`;
    await putTranscribedRecording(db, { orgId, userId, id: pt, at: AT, language: 'pt-BR' });
    await expect(translateRecording(deps, other, pt, { to_language: 'es' })).rejects.toMatchObject({
      statusCode: 404,
      code: 'RECORDING_NOT_FOUND',
    });
    const queued = await translateRecording(deps, org, pt, { to_language: 'es' });
    expect(queued).toMatchObject({
      status: 'queued',
      from_language: 'pt',
      to_language: 'es',
      attempt: 1,
      created_at: '2030-04-01T12:00:00.000Z',
    });
    expect(queued.id).toMatch(/^trl_[0-9a-f]{20}$/);

    const untranscribed = `rec_dtl_${u}_none`;
    await db.client.send(
      new PutCommand({
        TableName: db.tableName,
        Item: recordingItem({
          ...(await getRecording(db, orgId, pt, { consistent: true }))!,
          id: untranscribed,
          related: { transcript: false, summary: false, action_items: false, translation: false },
          translation: undefined,
        }),
      }),
    );
    await expect(translateRecording(deps, org, untranscribed, { to_language: 'es' })).rejects.toMatchObject({
      statusCode: 409,
      code: 'TRANSCRIPT_NOT_READY',
    });
  });
});
