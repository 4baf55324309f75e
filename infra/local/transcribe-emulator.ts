import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Emulator } from './emulators';
import { freePort } from './emulators';
import {
  LOCAL_ENGINE_LANGUAGE,
  LOCAL_ENGINE_NAME,
  LOCAL_ENGINE_PACKAGES,
  LocalEngineError,
  recognizeSpeech,
  transcribeOutputOf,
  type Recognition,
  type RecognizeOptions,
} from './local-speech-engine';
import { stopEngineWorker } from './speech/engine-thread';
import { correctWords } from './speech/vocabulary-correction';
import type { PiiEntityType } from '../../shared/core/pii-entity-types';
import { redactTranscribeOutput } from '../../shared/redaction/redactor';
import { redactionOf } from './transcribe-redaction-option';
import { memoryOnly, type JobStore, type StoredJob } from './transcribe-job-store';
import { RESOURCE_NAME, S3_URI, ServiceError } from './transcribe-service-error';
import { localVocabularies, type VocabularyOptions } from './transcribe-vocabularies';
import { serviceEvent, type ServiceEvent } from './service-event';

/**
 * A local stand-in of Amazon Transcribe's batch job API for `npm start` and the tests: an HTTP
 * server speaking AWS JSON 1.1 (`X-Amz-Target: Transcribe.StartTranscriptionJob`,
 * `Transcribe.GetTranscriptionJob`, and the custom vocabulary operations of
 * transcribe-vocabularies.ts), so the real @aws-sdk/client-transcribe works against it
 * with an endpoint (TRANSCRIBE_ENDPOINT). A job reads its media from the S3 emulator, runs the
 * offline engine (local-speech-engine.ts), writes Transcribe's output JSON to its OutputBucketName
 * and OutputKey, and puts a `Transcribe Job State Change` event (source aws.transcribe) through
 * `onJobStateChange`, as Transcribe does on the account's default bus.
 *
 * Jobs run one at a time (the machine's cores are few); later ones wait as QUEUED, as jobs beyond
 * the concurrent quota do in AWS. With a job store (npm start: the data directory) jobs outlive
 * a restart: a job queued or running when the process died runs again from the start. Without
 * one, or for a job it never had, Get answers "couldn't be found" as Transcribe does for a job it
 * deleted. Failures are worded like Transcribe's (docs/transcription.md): a language other than
 * English, media ffmpeg cannot decode, an engine that is not installed.
 */
export interface TranscribeEmulatorOptions {
  host: string;
  region: string;
  s3Endpoint: string;
  onJobStateChange: (event: ServiceEvent) => void;
  /** The engine; tests replace it to run jobs without the models. */
  recognize?: (mediaFile: string, options: RecognizeOptions) => Promise<Recognition>;
  /** Where jobs and vocabularies are kept across restarts (jobStoreIn); in memory only without. */
  store?: JobStore;
  /** The vocabulary quota and how long a vocabulary stays PENDING (tests shorten or lengthen it). */
  vocabularies?: Omit<VocabularyOptions, 's3' | 'store'>;
}

type Job = StoredJob;

/** Transcribe's wording for the failures the local engine has (failureOf maps them to codes). */
export const LOCAL_FAILURES = {
  unsupportedLanguage: (code: string) =>
    `Unsupported language: the local engine (${LOCAL_ENGINE_NAME}) transcribes English only, not ${code}.`,
  unsupportedMedia: (why: string) => `Unsupported media format: ${why}.`,
  missingMedia: "The URI that you provided doesn't point to an S3 object. Make sure that the object exists and try your request again.",
  engineUnavailable: `ENGINE_UNAVAILABLE: the local engine's npm packages are missing (${LOCAL_ENGINE_PACKAGES.join(', ')}): run npm ci`,
} as const;

export async function startTranscribeEmulator(options: TranscribeEmulatorOptions): Promise<Emulator> {
  const recognize = options.recognize ?? recognizeSpeech;
  const s3 = new S3Client({
    endpoint: options.s3Endpoint,
    region: options.region,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    // The S3 emulator (s3rver) knows only its own fixed access key.
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const store = options.store ?? memoryOnly;
  const vocabularies = localVocabularies({ s3, store: store.vocabularies, ...options.vocabularies });
  const jobs = new Map<string, Job>();
  const waiting: Job[] = [];
  // Jobs of an earlier run: finished ones as they were, unfinished ones queued to run again (the engine's work was lost with the process).
  for (const job of store.load(Date.now() / 1000)) {
    jobs.set(job.name, job);
    if (job.status === 'QUEUED' || job.status === 'IN_PROGRESS') {
      Object.assign(job, { status: 'QUEUED', startTime: undefined });
      waiting.push(job);
    }
  }
  let running: Promise<void> | undefined;
  let stopped = false;
  /** Stops the engine's programs when the stand-in stops: a long file would otherwise keep Ctrl-C waiting. */
  const stopping = new AbortController();

  const describe = (job: Job) => ({
    TranscriptionJobName: job.name,
    TranscriptionJobStatus: job.status,
    ...(job.languageCode ? { LanguageCode: job.languageCode } : {}),
    Media: { MediaFileUri: job.media.uri },
    ...(job.status === 'COMPLETED'
      ? {
          Transcript: {
            TranscriptFileUri: `${options.s3Endpoint}/${job.output.bucket}/${job.output.key.split('/').map(encodeURIComponent).join('/')}`,
          },
        }
      : {}),
    CreationTime: job.creationTime,
    ...(job.startTime ? { StartTime: job.startTime } : {}),
    ...(job.completionTime ? { CompletionTime: job.completionTime } : {}),
    ...(job.failureReason ? { FailureReason: job.failureReason } : {}),
    ...(job.settings ? { Settings: job.settings } : {}),
    ...(job.identifyLanguage ? { IdentifyLanguage: true } : {}),
  });

  const finish = (job: Job, status: 'COMPLETED' | 'FAILED', failureReason?: string) => {
    Object.assign(job, { status, failureReason, completionTime: Date.now() / 1000 });
    store.save(job);
    if (stopped) return;
    options.onJobStateChange(
      serviceEvent(
        'aws.transcribe',
        'Transcribe Job State Change',
        { TranscriptionJobName: job.name, TranscriptionJobStatus: status, ...(failureReason ? { FailureReason: failureReason } : {}) },
        { region: options.region },
      ),
    );
  };

  const runJob = async (job: Job) => {
    Object.assign(job, { status: 'IN_PROGRESS', startTime: Date.now() / 1000 });
    store.save(job);
    // The model knows English: another language fails as a language Transcribe cannot do would.
    if (job.languageCode && !job.languageCode.startsWith('en-'))
      return finish(job, 'FAILED', LOCAL_FAILURES.unsupportedLanguage(job.languageCode));
    const workDir = mkdtempSync(path.join(tmpdir(), 'voice-org-transcribe-'));
    try {
      const mediaFile = path.join(workDir, 'media');
      try {
        const object = await s3.send(new GetObjectCommand({ Bucket: job.media.bucket, Key: job.media.key }));
        // Streamed to the file: a recording may be up to 2 GB.
        await pipeline(object.Body as Readable, createWriteStream(mediaFile));
      } catch (error) {
        if ((error as Error).name === 'NoSuchKey' || (error as Error).name === 'NoSuchBucket')
          return finish(job, 'FAILED', LOCAL_FAILURES.missingMedia);
        throw error;
      }
      const speakerLabels = job.settings?.ShowSpeakerLabels === true;
      let words: Recognition['words'];
      try {
        ({ words } = await recognize(mediaFile, {
          signal: stopping.signal,
          maxSpeakers: speakerLabels ? Number(job.settings?.MaxSpeakerLabels ?? 2) : undefined,
        }));
      } catch (error) {
        if (!(error instanceof LocalEngineError)) throw error;
        return finish(
          job,
          'FAILED',
          error.kind === 'unavailable' ? LOCAL_FAILURES.engineUnavailable : LOCAL_FAILURES.unsupportedMedia(error.message),
        );
      }
      // The engine cannot be biased towards the vocabulary: its terms correct what it heard.
      const vocabularyName = job.settings?.VocabularyName;
      if (typeof vocabularyName === 'string') words = correctWords(words, vocabularies.termsOf(vocabularyName)).words;
      // Identification here can only find English: the one language the model knows.
      job.languageCode ??= LOCAL_ENGINE_LANGUAGE;
      const transcribed = transcribeOutputOf(job.name, words, job.languageCode, { speakerLabels });
      // ContentRedaction with RedactionOutput `redacted`: only the redacted output is written, as Transcribe does.
      const output = job.redaction
        ? redactTranscribeOutput(transcribed, job.redaction as PiiEntityType[], { language: job.languageCode })
        : transcribed;
      await s3.send(
        new PutObjectCommand({
          Bucket: job.output.bucket,
          Key: job.output.key,
          Body: JSON.stringify(output),
          ContentType: 'application/json',
        }),
      );
      finish(job, 'COMPLETED');
    } catch (error) {
      // Stopping (Ctrl-C): the job stays as stored, to run again at the next start.
      if (stopped) return;
      // Transcribe's own trouble (here: the S3 emulator failing): the job fails, the service goes on.
      console.error(`local Transcribe: job ${job.name} failed`, error);
      finish(job, 'FAILED', 'Internal failure. Please try your request again.');
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  };

  /** Runs waiting jobs one after another until none is left. */
  const drain = () => {
    running ??= (async () => {
      for (let job = waiting.shift(); job && !stopped; job = waiting.shift()) await runJob(job);
      running = undefined;
    })();
  };

  const startJob = (input: Record<string, unknown>) => {
    const name = typeof input.TranscriptionJobName === 'string' ? input.TranscriptionJobName : '';
    if (!RESOURCE_NAME.test(name))
      throw new ServiceError(
        'BadRequestException',
        'TranscriptionJobName must be 1 to 200 characters of letters, digits, dots, dashes and underscores.',
      );
    if (jobs.has(name)) throw new ServiceError('ConflictException', 'The requested job name already exists. Use a different job name.');
    const uri = String((input.Media as { MediaFileUri?: string } | undefined)?.MediaFileUri ?? '');
    const media = S3_URI.exec(uri);
    if (!media) throw new ServiceError('BadRequestException', "The URI that you provided doesn't point to an S3 object.");
    const languageCode = typeof input.LanguageCode === 'string' ? input.LanguageCode : undefined;
    const identifyLanguage = input.IdentifyLanguage === true;
    if (Boolean(languageCode) === identifyLanguage)
      throw new ServiceError('BadRequestException', 'Specify either LanguageCode or IdentifyLanguage, not both and not neither.');
    // Transcribe writes to a bucket of its own without OutputBucketName; the stand-in has none.
    if (typeof input.OutputBucketName !== 'string')
      throw new ServiceError('BadRequestException', 'The local Transcribe stand-in needs OutputBucketName.');
    const outputKey = typeof input.OutputKey === 'string' ? input.OutputKey : `${name}.json`;
    const settings = input.Settings as Record<string, unknown> | undefined;
    const redaction = redactionOf(input.ContentRedaction, languageCode, identifyLanguage);
    if (typeof settings?.VocabularyName === 'string') vocabularies.termsForJob(settings.VocabularyName, languageCode);
    const job: Job = {
      name,
      status: waiting.length || running ? 'QUEUED' : 'IN_PROGRESS',
      media: { bucket: media[1], key: media[2], uri },
      output: { bucket: input.OutputBucketName, key: outputKey },
      languageCode,
      identifyLanguage,
      settings,
      ...(redaction ? { redaction } : {}),
      creationTime: Date.now() / 1000,
    };
    jobs.set(name, job);
    store.save(job);
    waiting.push(job);
    drain();
    return { TranscriptionJob: describe(job) };
  };

  const getJob = (input: Record<string, unknown>) => {
    const job = jobs.get(typeof input.TranscriptionJobName === 'string' ? input.TranscriptionJobName : '');
    if (!job)
      throw new ServiceError('BadRequestException', "The requested job couldn't be found. Check the job name and try your request again.");
    return { TranscriptionJob: describe(job) };
  };

  const OPERATIONS: Record<string, (input: Record<string, unknown>) => unknown> = {
    'Transcribe.StartTranscriptionJob': startJob,
    'Transcribe.GetTranscriptionJob': getJob,
    ...vocabularies.operations,
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const reply = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': randomUUID() });
        response.end(JSON.stringify(body));
      };
      const operation = OPERATIONS[String(request.headers['x-amz-target'] ?? '')];
      if (request.method !== 'POST' || !operation)
        return reply(400, {
          __type: 'UnknownOperationException',
          message: `The local Transcribe stand-in does not do ${String(request.headers['x-amz-target'] ?? 'this request')}.`,
        });
      try {
        reply(200, operation(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>));
      } catch (error) {
        if (error instanceof ServiceError) return reply(400, { __type: error.type, message: error.message });
        reply(400, { __type: 'BadRequestException', message: 'The request body is not JSON.' });
      }
    });
  });
  const port = await freePort(options.host);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, options.host, resolve));
  if (waiting.length) drain();
  return {
    endpoint: `http://${options.host}:${(server.address() as AddressInfo).port}`,
    async stop() {
      stopped = true;
      stopping.abort();
      vocabularies.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // The job under way ends with its engine's programs, and puts no event.
      await running;
      s3.destroy();
      if (!options.recognize) await stopEngineWorker();
    },
  };
}
