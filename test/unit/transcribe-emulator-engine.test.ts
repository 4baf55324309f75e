import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startS3, type Emulator } from '../../infra/local/emulators';
import { isLocalTranscriptionAvailable } from '../../infra/local/local-speech-engine';
import type { ServiceEvent } from '../../infra/local/service-event';
import { startTranscribeEmulator } from '../../infra/local/transcribe-emulator';
import { createTranscribeClient, createTranscriptionJobs, type TranscriptionJobs } from '../../shared/transcription/transcribe-jobs';
import { failureOf } from '../../shared/transcription/transcription-failures';
import { durationOf, readTranscribeOutput, speakerTurnsOf } from '../../shared/transcription/transcribe-output';
import { eventually } from '../support/eventually';
import {
  normalizedWords,
  recordedSpeechAvailable,
  TESTDATA_PACKAGE,
  testSet,
  twoVoices,
  wavOf,
  wordErrors,
} from '../support/recorded-speech';

/**
 * The local Transcribe stand-in with the real offline engine (ffmpeg, Silero VAD, Moonshine)
 * on recorded speech: two voices taking turns (a LibriVox reader and the card caller of
 * Debian's pocketsphinx-testdata) come out as Transcribe's output with two speakers, every word
 * timed within the audio and heard as said; a file that is not audio fails as unsupported
 * media. Under CI the test fails without the recordings; elsewhere it is skipped.
 */
const available = isLocalTranscriptionAvailable() && recordedSpeechAvailable;
if (!available) console.warn(`Skipping the local speech engine test: npm ci, and apt-get install ${TESTDATA_PACKAGE}.`);
const describeWithEngine = available ? describe : describe.skip;

describeWithEngine('local Transcribe stand-in with the offline engine', () => {
  const BUCKET = 'recordings';
  let dir: string;
  let s3Emulator: Emulator;
  let transcribe: Emulator;
  let s3: S3Client;
  let jobs: TranscriptionJobs;
  let closeClient: () => void;
  const voices = twoVoices();
  const audioSeconds = voices.samples.length / 16000;
  const events: ServiceEvent[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'transcribe-engine-'));
    s3Emulator = await startS3(path.join(dir, 's3'), '127.0.0.1', BUCKET, () => undefined);
    transcribe = await startTranscribeEmulator({
      host: '127.0.0.1',
      region: 'us-east-1',
      s3Endpoint: s3Emulator.endpoint,
      onJobStateChange: (event) => events.push(event),
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
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'o1/speech/media', Body: wavOf(voices.samples) }));
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'o1/text/media', Body: 'This is a text file, not audio.\n'.repeat(50) }));
  });

  afterAll(async () => {
    closeClient?.();
    s3?.destroy();
    await transcribe?.stop();
    await s3Emulator?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The job's state change event: the stand-in puts it when the engine is done. */
  async function finished(jobName: string): Promise<ServiceEvent> {
    // The engine's own run time (model load included) on top of the one eventual bound.
    const event = await eventually(
      async () => events.find((candidate) => candidate.detail.TranscriptionJobName === jobName),
      (found) => found !== undefined,
      { alsoWaitingMs: 30_000 },
    );
    if (!event) throw new Error(`${jobName} did not finish`);
    return event;
  }

  const job = (jobName: string, key: string) => ({
    jobName,
    bucket: BUCKET,
    key,
    outputBucket: BUCKET,
    outputKey: `${key}.transcribe.json`,
    language: { languageCode: 'en-US' },
    maxSpeakers: 10,
  });

  it("transcribes two recorded voices into Transcribe's output: two speakers, their words as said, timed within their turns", async () => {
    await expect(jobs.start(job('voice-org-speech-1', 'o1/speech/media'))).resolves.toBe('started');
    expect((await finished('voice-org-speech-1')).detail.TranscriptionJobStatus).toBe('COMPLETED');
    const status = await jobs.get('voice-org-speech-1');
    expect(status).toMatchObject({ status: 'COMPLETED', languageCode: 'en-US', outputKey: 'o1/speech/media.transcribe.json' });

    const file = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: status!.outputKey }));
    const output = readTranscribeOutput(JSON.parse(await file.Body!.transformToString()));
    expect(output.results.speaker_labels?.speakers).toBe(2);
    expect(output.results.items.at(-1)).toMatchObject({ type: 'punctuation' });
    const pronounced = output.results.items.filter((item) => item.type === 'pronunciation');
    for (const item of pronounced) {
      expect(Number(item.alternatives[0].confidence)).toBeGreaterThan(0);
      expect(Number(item.alternatives[0].confidence)).toBeLessThanOrEqual(1);
      // Each word lies within the turn it was said in (the recordings' own silences included).
      expect(voices.turns.some((turn) => turn.start <= item.start_time! && item.end_time! <= turn.end)).toBe(true);
    }
    // The turns: the six turns of the recording, alternating Speaker 1 and Speaker 2, each with its words.
    const turns = speakerTurnsOf(output);
    expect(turns.map((turn) => turn.speaker)).toEqual(['Speaker 1', 'Speaker 2', 'Speaker 1', 'Speaker 2', 'Speaker 1', 'Speaker 2']);
    const clips = testSet();
    const said = voices.turns.map((turn) => clips.find((clip) => clip.file === turn.file)!.reference);
    const errors = turns.reduce((sum, turn, i) => sum + wordErrors(normalizedWords(said[i]), normalizedWords(turn.text)), 0);
    const total = said.reduce((sum, text) => sum + normalizedWords(text).length, 0);
    expect(errors / total).toBeLessThanOrEqual(0.1);
    expect(durationOf(output, audioSeconds)).toBeCloseTo(audioSeconds, 2);
  });

  it("fails a file that is not audio as unsupported media, with ffmpeg's reason", async () => {
    await jobs.start(job('voice-org-text-1', 'o1/text/media'));
    expect((await finished('voice-org-text-1')).detail.TranscriptionJobStatus).toBe('FAILED');
    const failure = failureOf((await jobs.get('voice-org-text-1'))?.failureReason);
    expect(failure.code).toBe('UNSUPPORTED_MEDIA');
    expect(failure.reason).toMatch(/^Unsupported media format: ffmpeg could not decode it as audio \(.+\)\.$/);
  });
});
