import {
  GetTranscriptionJobCommand,
  StartTranscriptionJobCommand,
  TranscribeClient,
  type LanguageCode,
  type PiiEntityType,
} from '@aws-sdk/client-transcribe';
import { config } from '../config';
import { traced } from '../observability/tracer';
import type { TranscriptionLanguage } from './languages';

/**
 * Amazon Transcribe batch jobs behind a small interface: the domain starts a job and reads its
 * status through this, and tests give it an in-memory one. Locally the client points at the
 * stand-in (infra/local/transcribe-emulator.ts, TRANSCRIBE_ENDPOINT), which speaks the same API.
 */
export interface StartJob {
  /** Unique per account and region ([0-9a-zA-Z._-], at most 200): the domain names it (jobNameOf in shared/domain/transcription/transcription-changes.ts). */
  jobName: string;
  bucket: string;
  key: string;
  outputBucket: string;
  outputKey: string;
  language: TranscriptionLanguage;
  /** Speakers to tell apart (Transcribe: 2 to 30). */
  maxSpeakers: number;
  /** A custom vocabulary in the job's language that is READY (Settings.VocabularyName). */
  vocabularyName?: string;
  /** PII to redact (ContentRedaction): only for a language Transcribe redacts (en-US, es-US), never with identification. */
  redactEntityTypes?: readonly string[];
}

/** The languages Transcribe's batch ContentRedaction takes (never together with language identification). */
export const TRANSCRIBE_REDACTION_LANGUAGES: readonly string[] = ['en-US', 'es-US'];

export type JobState = 'QUEUED' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

export interface JobStatus {
  status: JobState;
  failureReason?: string;
  /** Where the output JSON is, as the job reports it (the key asked for in StartJob). */
  outputKey?: string;
  /** The language transcribed: the one asked for, or the one identified. */
  languageCode?: string;
  /** Seconds of speech Transcribe reports per language (multi-language identification only); usually absent. */
  mediaSeconds?: number;
}

export interface TranscriptionJobs {
  /**
   * 'started'; 'already-started' when a job of that name exists (a redelivered start);
   * 'throttled' when the account is at its job or request quota: try again later, the job
   * queues on our side rather than failing. Throws TranscriptionJobRefusedError when
   * Transcribe refuses the job itself (BadRequestException), other errors as they come.
   */
  start(job: StartJob): Promise<'started' | 'already-started' | 'throttled'>;
  /** The job's status; undefined when no job has that name (never started, or forgotten): the caller fails the attempt, never waits on it. */
  get(jobName: string): Promise<JobStatus | undefined>;
}

/** Transcribe refused to start the job (a setting it does not accept for this media or language): retrying cannot help. */
export class TranscriptionJobRefusedError extends Error {
  override readonly name = 'TranscriptionJobRefusedError';
  constructor(readonly reason: string) {
    super(`Transcribe refused the job: ${reason}`);
  }
}

/** Speaker labels need 2 to 30 speakers in a batch job. */
const clampSpeakers = (count: number) => Math.min(30, Math.max(2, Math.floor(count)));

export function createTranscriptionJobs(client: TranscribeClient): TranscriptionJobs {
  return {
    async start(job) {
      try {
        await client.send(
          new StartTranscriptionJobCommand({
            TranscriptionJobName: job.jobName,
            Media: { MediaFileUri: `s3://${job.bucket}/${job.key}` },
            // No MediaFormat: Transcribe detects it, so a recording uploaded under another extension still works.
            OutputBucketName: job.outputBucket,
            OutputKey: job.outputKey,
            ...('languageCode' in job.language ? { LanguageCode: job.language.languageCode as LanguageCode } : { IdentifyLanguage: true }),
            Settings: {
              ShowSpeakerLabels: true,
              MaxSpeakerLabels: clampSpeakers(job.maxSpeakers),
              ...(job.vocabularyName ? { VocabularyName: job.vocabularyName } : {}),
            },
            // Only the redacted transcript is written: no unredacted copy is ever in the bucket.
            ...(job.redactEntityTypes?.length
              ? {
                  ContentRedaction: {
                    RedactionType: 'PII' as const,
                    RedactionOutput: 'redacted' as const,
                    PiiEntityTypes: [...job.redactEntityTypes] as PiiEntityType[],
                  },
                }
              : {}),
          }),
        );
        return 'started';
      } catch (error) {
        const name = (error as Error).name;
        if (name === 'ConflictException') return 'already-started';
        if (name === 'LimitExceededException' || name === 'ThrottlingException' || name === 'TooManyRequestsException') return 'throttled';
        if (name === 'BadRequestException') throw new TranscriptionJobRefusedError(String((error as Error).message ?? '').slice(0, 300));
        throw error;
      }
    },

    async get(jobName) {
      try {
        const { TranscriptionJob: job } = await client.send(new GetTranscriptionJobCommand({ TranscriptionJobName: jobName }));
        if (!job?.TranscriptionJobStatus) return undefined;
        const spoken = (job.LanguageCodes ?? []).reduce((sum, item) => sum + (item.DurationInSeconds ?? 0), 0);
        return {
          status: job.TranscriptionJobStatus,
          failureReason: job.FailureReason,
          outputKey: outputKeyOf(job.Transcript?.TranscriptFileUri),
          languageCode: job.LanguageCode,
          mediaSeconds: spoken > 0 ? spoken : undefined,
        };
      } catch (error) {
        // A job Transcribe does not know (never started, or forgotten 90 days after it was created): BadRequestException
        // ("The requested job couldn't be found") as observed, or the API reference's NotFoundException.
        const name = (error as Error).name;
        if (name === 'NotFoundException') return undefined;
        if (name === 'BadRequestException' && /couldn.?t be found|not found|does not exist/i.test((error as Error).message))
          return undefined;
        throw error;
      }
    },
  };
}

/**
 * The object key in a TranscriptFileUri. With OutputBucketName set, Transcribe answers a
 * path-style URL (https://s3.<region>.amazonaws.com/<bucket>/<key>); a virtual-hosted one
 * (https://<bucket>.s3.<region>.amazonaws.com/<key>) is read too.
 */
export function outputKeyOf(uri: string | undefined): string | undefined {
  if (!uri) return undefined;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  const path = url.pathname.replace(/^\//, '');
  const virtualHosted = /^[^.]+\.s3[.-]/.test(url.hostname) && !url.hostname.startsWith('s3.');
  const key = virtualHosted ? path : path.split('/').slice(1).join('/');
  return key ? decodeURIComponent(key) : undefined;
}

/** A Transcribe client for this function's region (the local stand-in when configured). */
export function createTranscribeClient(options: { region: string; endpoint?: string }): TranscribeClient {
  return traced(
    new TranscribeClient({
      region: options.region,
      endpoint: options.endpoint,
      ...(options.endpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    }),
  );
}

let shared: TranscriptionJobs | undefined;

/** The function's Transcribe jobs, from config, created once per module (cold start). */
export function transcriptionJobs(): TranscriptionJobs {
  if (!shared) {
    const { region, transcription } = config();
    shared = createTranscriptionJobs(createTranscribeClient({ region, endpoint: transcription.endpoint }));
  }
  return shared;
}
