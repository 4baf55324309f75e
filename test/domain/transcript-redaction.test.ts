import { finishTranscriptionJob } from '../../shared/domain/transcription/finish-transcription-job';
import { startQueuedTranscription } from '../../shared/domain/transcription/start-transcription-job';
import { jobNameOf, outputKeyOf } from '../../shared/domain/transcription/transcription-changes';
import { PII_ENTITY_TYPES } from '../../shared/core/pii-entity-types';
import { keys } from '../../shared/storage/keys';
import { queryAll } from '../../shared/storage/query-all';
import type { RecordingTranscription } from '../../shared/storage/recording-items';
import { getRecording, getRecordingWithParts } from '../../shared/storage/recordings';
import { setRedaction } from '../../shared/storage/transcript-settings';
import { localDeployment, seed, unique } from '../support/api';
import { jobDepsAt, putUploadedRecording, transcribeOutput, type TestJobDeps } from '../support/transcription';

/**
 * PII redaction of transcripts in the transcription pipeline's domain functions (docs/transcript-controls.md,
 * "Redaction"), on the local table with Transcribe's job API and its output objects in memory: off, the
 * turns are stored as heard; on, an en-US job asks Transcribe to redact (ContentRedaction) and its output is
 * stored as written; another language or language identification gets no ContentRedaction, and the finisher
 * redacts with the service's redactor; a setting turned on while the job ran still applies at completion.
 * The stored items are read back: no entity's text is in them. Recordings are written already queued (an
 * INSERT gives no queued event), so the deployment's own consumers never race the test.
 */
const { db } = localDeployment();
const AT = '2030-04-02T10:00:00.000Z';

async function organization() {
  const u = unique();
  const orgId = `org_dred_${u}`;
  const userId = `usr_dred_${u}`;
  await seed(db, {
    orgs: [{ id: orgId, name: `Redaction ${u}` }],
    users: [{ id: userId, email: `red.${u}@example.com`, display_name: 'Rae' }],
    memberships: [{ org_id: orgId, user_id: userId, role: 'owner' }],
  });
  return { orgId, userId, recordingId: `rec_dred_${u}` };
}

const redactionOn = (orgId: string, entityTypes: string[] = ['ALL'], pii: 'redact' | 'off' = 'redact') =>
  setRedaction(db, orgId, { pii, entity_types: entityTypes, updated_at: AT, updated_by: 'usr_owner' });

const queuedRun = (jobLanguage: string): RecordingTranscription => ({
  status: 'queued',
  attempt: 1,
  job_language: jobLanguage,
  queued_at: AT,
  watch_due_at: '2030-04-02T10:10:00.000Z',
});

/** Transcribe's timed words of one speaker for a text: words 0.4 s apart, a final `.` or `,` a punctuation item. */
function wordsOf(text: string, label = 'spk_0', from = 0.5): Parameters<typeof transcribeOutput>[1] {
  const words: Parameters<typeof transcribeOutput>[1] = [];
  let at = from;
  for (const token of text.split(/\s+/).filter(Boolean)) {
    const mark = /[.,]$/.test(token) && token.length > 1 ? token.slice(-1) : undefined;
    words.push([label, mark ? token.slice(0, -1) : token, at, at + 0.35]);
    if (mark) words.push([label, mark, null, null]);
    at += 0.4;
  }
  return words;
}

/** Starts the queued attempt (answering what was sent), then lets Transcribe complete it with this output. */
async function startJob(deps: TestJobDeps, orgId: string, recordingId: string) {
  expect(await startQueuedTranscription(deps, orgId, recordingId, 1)).toBe('started');
  return { jobName: jobNameOf(orgId, recordingId, 1), sent: deps.jobs.started.at(-1)! };
}

function completeJob(deps: TestJobDeps, orgId: string, recordingId: string, output: ReturnType<typeof transcribeOutput>) {
  deps.jobs.statuses.set(jobNameOf(orgId, recordingId, 1), { status: 'COMPLETED' });
  deps.outputs.objects.set(outputKeyOf(orgId, recordingId, 1), output);
}

/** Every stored item of the recording (the recording, its transcript header and chunks), as text. */
async function storedText(orgId: string, recordingId: string): Promise<string> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.recording(orgId, recordingId).PK, ':prefix': keys.recording(orgId, recordingId).SK },
    ConsistentRead: true,
  });
  expect(items.some((item) => String(item.SK).includes('#TRANSCRIPT#'))).toBe(true);
  return JSON.stringify(items);
}

const SAID = 'My card number is 4539 1488 0343 6467 and my email is john.smith@example.com, call me on 555-234-5678 by Friday.';
const PII_TEXTS = ['4539', '1488', '6467', 'john', 'smith', 'example.com', '555', '5678'];

const expectNoneOf = (text: string, strings: string[]) => {
  for (const pii of strings) expect(text.toLowerCase()).not.toContain(pii);
};

describe('redaction off', () => {
  it('stores the turns as heard and records no redaction on the attempt', async () => {
    const { orgId, userId, recordingId } = await organization();
    await putUploadedRecording(db, { orgId, userId, id: recordingId, at: AT, transcription: queuedRun('en-US') });
    // Set and turned off again: off is off, whatever the types.
    await redactionOn(orgId, ['EMAIL'], 'off');
    const deps = jobDepsAt(db, { now: new Date('2030-04-02T10:00:05.000Z') });
    const { jobName, sent } = await startJob(deps, orgId, recordingId);
    expect(sent.redactEntityTypes).toBeUndefined();
    completeJob(deps, orgId, recordingId, transcribeOutput(jobName, wordsOf(SAID)));

    expect(await finishTranscriptionJob(deps, jobName)).toBe('completed');
    const { recording, parts } = await getRecordingWithParts(db, orgId, recordingId);
    expect(parts.transcript?.segments).toEqual([{ speaker: 'Speaker 1', text: SAID, start: 0.5, end: expect.any(Number) }]);
    expect(recording?.transcription).toMatchObject({ status: 'completed' });
    expect(recording?.transcription?.redaction).toBeUndefined();
  });
});

describe('redaction on, an en-US job: Transcribe redacts', () => {
  it('asks for ContentRedaction of the types set, records engine transcribe, and stores the output as Transcribe wrote it', async () => {
    const { orgId, userId, recordingId } = await organization();
    await redactionOn(orgId, ['PHONE', 'EMAIL', 'CREDIT_DEBIT_NUMBER']);
    await putUploadedRecording(db, { orgId, userId, id: recordingId, at: AT, transcription: queuedRun('en-US') });
    const deps = jobDepsAt(db, { now: new Date('2030-04-02T10:00:05.000Z') });
    const { jobName, sent } = await startJob(deps, orgId, recordingId);
    // In Transcribe's order of types, whatever the order set.
    expect(sent).toMatchObject({ language: { languageCode: 'en-US' }, redactEntityTypes: ['CREDIT_DEBIT_NUMBER', 'EMAIL', 'PHONE'] });
    expect((await getRecording(db, orgId, recordingId))?.transcription).toMatchObject({
      status: 'processing',
      redaction: { engine: 'transcribe', entity_types: ['CREDIT_DEBIT_NUMBER', 'EMAIL', 'PHONE'] },
    });

    // Transcribe's redacted output (RedactionOutput redacted): the finisher takes it as written.
    const redacted = 'My card number is [PII] and my email is [PII], call me on [PII] by Friday.';
    completeJob(deps, orgId, recordingId, transcribeOutput(jobName, wordsOf(redacted)));
    expect(await finishTranscriptionJob(deps, jobName)).toBe('completed');
    const { recording, parts } = await getRecordingWithParts(db, orgId, recordingId);
    expect(parts.transcript?.segments.map((segment) => segment.text)).toEqual([redacted]);
    expect(recording?.transcription).toMatchObject({
      status: 'completed',
      redaction: { engine: 'transcribe', entity_types: ['CREDIT_DEBIT_NUMBER', 'EMAIL', 'PHONE'] },
    });
    expect(deps.outputs.objects.size).toBe(0);
    expectNoneOf(await storedText(orgId, recordingId), PII_TEXTS);
  });

  it("keeps Transcribe's redaction when the setting is turned off while the job runs (the job wrote only redacted output)", async () => {
    const { orgId, userId, recordingId } = await organization();
    await redactionOn(orgId);
    await putUploadedRecording(db, { orgId, userId, id: recordingId, at: AT, transcription: queuedRun('en-US') });
    const deps = jobDepsAt(db, { now: new Date('2030-04-02T10:00:05.000Z') });
    const { jobName, sent } = await startJob(deps, orgId, recordingId);
    expect(sent.redactEntityTypes).toEqual([...PII_ENTITY_TYPES]);
    await redactionOn(orgId, ['ALL'], 'off');
    completeJob(deps, orgId, recordingId, transcribeOutput(jobName, wordsOf('Call me on [PII] please.')));
    expect(await finishTranscriptionJob(deps, jobName)).toBe('completed');
    expect((await getRecording(db, orgId, recordingId))?.transcription?.redaction).toEqual({
      engine: 'transcribe',
      entity_types: [...PII_ENTITY_TYPES],
    });
  });
});

describe("redaction on, a language Transcribe does not redact: the service's redactor at completion", () => {
  it('de-DE: no ContentRedaction at the start; digits with checksums and written emails redacted, engine service with every type', async () => {
    const { orgId, userId, recordingId } = await organization();
    await redactionOn(orgId);
    await putUploadedRecording(db, { orgId, userId, id: recordingId, at: AT, transcription: queuedRun('de-DE') });
    const deps = jobDepsAt(db, { now: new Date('2030-04-02T10:00:05.000Z') });
    const { jobName, sent } = await startJob(deps, orgId, recordingId);
    expect(sent).toMatchObject({ language: { languageCode: 'de-DE' } });
    expect(sent.redactEntityTypes).toBeUndefined();
    expect((await getRecording(db, orgId, recordingId))?.transcription?.redaction).toBeUndefined();

    const said = 'Meine Kartennummer ist 4539 1488 0343 6467 und meine E-Mail ist john.smith@example.com, bis Freitag.';
    completeJob(deps, orgId, recordingId, transcribeOutput(jobName, wordsOf(said), 'de-DE'));
    expect(await finishTranscriptionJob(deps, jobName)).toBe('completed');
    const { recording, parts } = await getRecordingWithParts(db, orgId, recordingId);
    expect(parts.transcript?.segments.map((segment) => segment.text)).toEqual([
      'Meine Kartennummer ist [PII] und meine E-Mail ist [PII], bis Freitag.',
    ]);
    expect(recording).toMatchObject({
      language: 'de-DE',
      transcription: { status: 'completed', redaction: { engine: 'service', entity_types: [...PII_ENTITY_TYPES] } },
    });
    expect(deps.outputs.objects.size).toBe(0);
    expectNoneOf(await storedText(orgId, recordingId), ['4539', '6467', 'john', 'smith', 'example.com']);
  });

  it('language identification: no ContentRedaction (Transcribe redacts no identified job); redacted by the language identified', async () => {
    const { orgId, userId, recordingId } = await organization();
    await redactionOn(orgId, ['EMAIL', 'CREDIT_DEBIT_NUMBER', 'PHONE']);
    await putUploadedRecording(db, { orgId, userId, id: recordingId, at: AT, transcription: queuedRun('identify') });
    const deps = jobDepsAt(db, { now: new Date('2030-04-02T10:00:05.000Z') });
    const { jobName, sent } = await startJob(deps, orgId, recordingId);
    expect(sent.language).toEqual({ identify: true });
    expect(sent.redactEntityTypes).toBeUndefined();

    // Identified as British English: spoken numbers and a spoken email are read as English.
    const said =
      'My card number is four five three nine one four eight eight zero three four three six four six seven. ' +
      'Email me at john dot smith at example dot com. I will send the contract by Friday.';
    completeJob(deps, orgId, recordingId, transcribeOutput(jobName, wordsOf(said), 'en-GB'));
    expect(await finishTranscriptionJob(deps, jobName)).toBe('completed');
    const { recording, parts } = await getRecordingWithParts(db, orgId, recordingId);
    const text = parts.transcript!.segments.map((segment) => segment.text).join(' ');
    expect(text).toBe('My card number is [PII]. Email me at [PII]. I will send the contract by Friday.');
    expect(recording).toMatchObject({
      language: 'en-GB',
      transcription: { status: 'completed', redaction: { engine: 'service', entity_types: ['CREDIT_DEBIT_NUMBER', 'EMAIL', 'PHONE'] } },
    });
    expectNoneOf(await storedText(orgId, recordingId), ['four five three', 'six four six seven', 'john', 'smith', 'example']);
  });

  it('turned on after the job started (en-US, none asked of Transcribe): the finisher still redacts', async () => {
    const { orgId, userId, recordingId } = await organization();
    await putUploadedRecording(db, { orgId, userId, id: recordingId, at: AT, transcription: queuedRun('en-US') });
    const deps = jobDepsAt(db, { now: new Date('2030-04-02T10:00:05.000Z') });
    const { jobName, sent } = await startJob(deps, orgId, recordingId);
    expect(sent.redactEntityTypes).toBeUndefined();
    await redactionOn(orgId, ['CREDIT_DEBIT_NUMBER', 'EMAIL', 'PHONE']);

    completeJob(deps, orgId, recordingId, transcribeOutput(jobName, wordsOf(SAID)));
    expect(await finishTranscriptionJob(deps, jobName)).toBe('completed');
    const { recording, parts } = await getRecordingWithParts(db, orgId, recordingId);
    expect(parts.transcript?.segments.map((segment) => segment.text)).toEqual([
      'My card number is [PII] and my email is [PII], call me on [PII] by Friday.',
    ]);
    expect(recording?.transcription?.redaction).toEqual({ engine: 'service', entity_types: ['CREDIT_DEBIT_NUMBER', 'EMAIL', 'PHONE'] });
    expect(deps.outputs.objects.size).toBe(0);
    expectNoneOf(await storedText(orgId, recordingId), PII_TEXTS);
  });

  it('redacts only the types set: an email kept when only card numbers are', async () => {
    const { orgId, userId, recordingId } = await organization();
    await putUploadedRecording(db, { orgId, userId, id: recordingId, at: AT, transcription: queuedRun('en-GB') });
    await redactionOn(orgId, ['CREDIT_DEBIT_NUMBER']);
    const deps = jobDepsAt(db, { now: new Date('2030-04-02T10:00:05.000Z') });
    const { jobName } = await startJob(deps, orgId, recordingId);
    completeJob(deps, orgId, recordingId, transcribeOutput(jobName, wordsOf(SAID), 'en-GB'));
    expect(await finishTranscriptionJob(deps, jobName)).toBe('completed');
    const { parts } = await getRecordingWithParts(db, orgId, recordingId);
    expect(parts.transcript?.segments.map((segment) => segment.text)).toEqual([
      'My card number is [PII] and my email is john.smith@example.com, call me on 555-234-5678 by Friday.',
    ]);
  });
});
