import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startS3, type Emulator } from '../../infra/local/emulators';
import { LocalEngineError, type RecognizedWord } from '../../infra/local/local-speech-engine';
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
  { word: 'budget', start: 0.5, end: 0.9, confidence: 0.8 },
  { word: 'approved', start: 0.95, end: 1.6, confidence: 0.7 },
];

let dir: string;
let s3Emulator: Emulator;
let transcribe: Emulator;
let s3: S3Client;
let jobs: TranscriptionJobs;
const events: ServiceEvent[] = [];
/** What the engine does with the next file: resolve with words, or throw. */
let engine: () => Promise<{ words: RecognizedWord[]; audioSeconds: number }>;
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
  engine = async () => ({ words: WORDS, audioSeconds: 2 });
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
    expect(speakerTurnsOf(output)).toEqual([{ speaker: 'Speaker 1', text: 'Budget approved.', start: 0.5, end: 1.6 }]);
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
      throw new LocalEngineError('unavailable', 'pocketsphinx_continuous is not installed');
    };
    await jobs.start(job('voice-org-rec_1-6'));
    await stateChangeOf('voice-org-rec_1-6');
    expect(failureOf((await jobs.get('voice-org-rec_1-6'))?.failureReason)).toEqual({
      code: 'ENGINE_UNAVAILABLE',
      reason: 'install the Debian packages pocketsphinx pocketsphinx-en-us ffmpeg',
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
        release = () => resolve({ words: WORDS, audioSeconds: 2 });
        engineRuns();
      });
    await jobs.start(job('voice-org-rec_1-8'));
    await jobs.start(job('voice-org-rec_1-9'));
    await engineRunning;
    await expect(jobs.get('voice-org-rec_1-8')).resolves.toMatchObject({ status: 'IN_PROGRESS' });
    await expect(jobs.get('voice-org-rec_1-9')).resolves.toMatchObject({ status: 'QUEUED' });
    engine = async () => ({ words: WORDS, audioSeconds: 2 });
    release();
    await stateChangeOf('voice-org-rec_1-9');
    expect(events.map((event) => event.detail.TranscriptionJobName)).toEqual(['voice-org-rec_1-8', 'voice-org-rec_1-9']);
  });
});
