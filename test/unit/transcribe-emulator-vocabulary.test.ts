import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ListVocabulariesCommand, StartTranscriptionJobCommand, type TranscribeClient } from '@aws-sdk/client-transcribe';
import { startS3, type Emulator } from '../../infra/local/emulators';
import type { RecognizedWord } from '../../infra/local/local-speech-engine';
import type { ServiceEvent } from '../../infra/local/service-event';
import { startTranscribeEmulator } from '../../infra/local/transcribe-emulator';
import { jobStoreIn } from '../../infra/local/transcribe-job-store';
import { createCustomVocabularies, vocabularyNameOf, type CustomVocabularies } from '../../shared/transcription/custom-vocabularies';
import { readTranscribeOutput } from '../../shared/transcription/transcribe-output';
import { createTranscribeClient } from '../../shared/transcription/transcribe-jobs';
import { vocabularyTable } from '../../shared/transcription/vocabulary-terms';
import { eventually } from '../support/eventually';

/**
 * The local Transcribe stand-in's custom vocabularies driven by the real
 * @aws-sdk/client-transcribe (through the adapter the functions use), on the S3 emulator, and a
 * job naming one: the engine is scripted to mishear a term, and the output shows it corrected.
 */
const BUCKET = 'recordings';
const HEARD: RecognizedWord[] = [
  { word: 'Four', start: 0.1, end: 0.4, confidence: 0.9 },
  { word: 'of', start: 0.45, end: 0.6, confidence: 0.9 },
  { word: 'cloves', start: 0.65, end: 1.1, confidence: 0.6, punctuation: '.' },
];

let dir: string;
let s3Emulator: Emulator;
let transcribe: Emulator;
let s3: S3Client;
let client: TranscribeClient;
let vocabularies: CustomVocabularies;
const events: ServiceEvent[] = [];

const start = (store = jobStoreIn(path.join(dir, 'transcribe', 'jobs')), readyAfterMs = 150) =>
  startTranscribeEmulator({
    host: '127.0.0.1',
    region: 'us-east-1',
    s3Endpoint: s3Emulator.endpoint,
    onJobStateChange: (event) => events.push(event),
    recognize: async () => ({ words: HEARD, audioSeconds: 2, speakers: 1 }),
    store,
    vocabularies: { maxVocabularies: 2, readyAfterMs },
  });

const put = (key: string, body: string) => s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body }));
const fileUri = (key: string) => `s3://${BUCKET}/${key}`;
const stateOf = async (name: string) => (await vocabularies.get(name))?.state;
const settled = (name: string) =>
  eventually(
    () => vocabularies.get(name),
    (status) => status?.state !== 'PENDING',
  );

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'transcribe-vocabulary-'));
  s3Emulator = await startS3(path.join(dir, 's3'), '127.0.0.1', BUCKET, () => undefined);
  s3 = new S3Client({
    endpoint: s3Emulator.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  transcribe = await start();
  client = createTranscribeClient({ region: 'us-east-1', endpoint: transcribe.endpoint });
  vocabularies = createCustomVocabularies(client);
  await put('o1/media', 'audio bytes');
  await put(
    'o1/vocabulary.txt',
    vocabularyTable([
      { phrase: 'clubs', sounds_like: ['klubz'] },
      { phrase: 'queen of hearts', display_as: 'Queen of Hearts' },
    ]),
  );
});

afterAll(async () => {
  client.destroy();
  s3.destroy();
  await transcribe.stop();
  await s3Emulator.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('local Transcribe stand-in: custom vocabularies', () => {
  const name = vocabularyNameOf('o1');

  it('creates a vocabulary PENDING, READY shortly after; updates it; refuses an update while PENDING', async () => {
    await expect(vocabularies.put({ name, languageCode: 'en-US', fileUri: fileUri('o1/vocabulary.txt') })).resolves.toBe('created');
    await expect(stateOf(name)).resolves.toBe('PENDING');
    await expect(vocabularies.put({ name, languageCode: 'en-US', fileUri: fileUri('o1/vocabulary.txt') })).rejects.toMatchObject({
      name: 'ConflictException',
    });
    expect(await settled(name)).toMatchObject({ state: 'READY', languageCode: 'en-US', lastModified: expect.any(Date) });
    await expect(vocabularies.put({ name, languageCode: 'en-US', fileUri: fileUri('o1/vocabulary.txt') })).resolves.toBe('updated');
    await expect(stateOf(name)).resolves.toBe('PENDING');
    expect(await settled(name)).toMatchObject({ state: 'READY' });
    const listed = await client.send(new ListVocabulariesCommand({}));
    expect(listed.Vocabularies?.map((vocabulary) => vocabulary.VocabularyName)).toEqual([name]);
  });

  it('fails a file Transcribe would refuse, with a reason; answers the quota and unknown names as Transcribe does', async () => {
    await put('o2/vocabulary.txt', 'Phrase\tSoundsLike\tIPA\tDisplayAs\nR2-D2\t\t\t\n');
    await expect(vocabularies.put({ name: 'voice-org-o2', languageCode: 'en-US', fileUri: fileUri('o2/vocabulary.txt') })).resolves.toBe(
      'created',
    );
    const failed = await settled('voice-org-o2');
    expect(failed).toMatchObject({ state: 'FAILED' });
    expect(failed?.failureReason).toMatch(/digit/);
    await expect(vocabularies.put({ name: 'voice-org-o3', languageCode: 'en-US', fileUri: fileUri('o1/vocabulary.txt') })).resolves.toBe(
      'quota_exceeded',
    );
    await expect(vocabularies.get('voice-org-none')).resolves.toBeUndefined();
    await vocabularies.remove('voice-org-o2');
    await vocabularies.remove('voice-org-o2');
    await expect(vocabularies.get('voice-org-o2')).resolves.toBeUndefined();
  });

  it('corrects a job naming a READY vocabulary: the term written, its confidence the match score', async () => {
    await client.send(
      new StartTranscriptionJobCommand({
        TranscriptionJobName: 'job-1',
        Media: { MediaFileUri: fileUri('o1/media') },
        LanguageCode: 'en-US',
        OutputBucketName: BUCKET,
        OutputKey: 'o1/job-1.json',
        Settings: { VocabularyName: name },
      }),
    );
    await eventually(
      async () => events.find((event) => event.detail.TranscriptionJobName === 'job-1'),
      (event) => event !== undefined,
    );
    const file = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'o1/job-1.json' }));
    const output = readTranscribeOutput(JSON.parse(await file.Body!.transformToString()));
    expect(output.results.transcripts[0].transcript).toBe('Four of clubs.');
    const clubs = output.results.items.find((item) => item.alternatives[0].content === 'clubs');
    expect(Number(clubs?.alternatives[0].confidence)).toBeGreaterThan(0.6);
    expect(Number(clubs?.alternatives[0].confidence)).toBeLessThan(1);
    expect(clubs).toMatchObject({ start_time: 0.65, end_time: 1.1 });
  });

  it('refuses a job naming an unknown or not-ready vocabulary (BadRequestException at start)', async () => {
    const job = (jobName: string, vocabularyName: string) =>
      client.send(
        new StartTranscriptionJobCommand({
          TranscriptionJobName: jobName,
          Media: { MediaFileUri: fileUri('o1/media') },
          LanguageCode: 'en-US',
          OutputBucketName: BUCKET,
          Settings: { VocabularyName: vocabularyName },
        }),
      );
    await expect(job('job-2', 'voice-org-none')).rejects.toMatchObject({ name: 'BadRequestException' });
    await vocabularies.put({ name, languageCode: 'en-US', fileUri: fileUri('o1/vocabulary.txt') });
    await expect(job('job-3', name)).rejects.toMatchObject({ name: 'BadRequestException', message: expect.stringMatching(/PENDING/) });
    await settled(name);
  });

  it('keeps vocabularies across a restart, and checks again one that was PENDING', async () => {
    await vocabularies.remove(name);
    await vocabularies.put({ name, languageCode: 'en-US', fileUri: fileUri('o1/vocabulary.txt') });
    await transcribe.stop();
    client.destroy();
    transcribe = await start(undefined, 5);
    client = createTranscribeClient({ region: 'us-east-1', endpoint: transcribe.endpoint });
    vocabularies = createCustomVocabularies(client);
    expect(await settled(name)).toMatchObject({ state: 'READY' });
  });
});
