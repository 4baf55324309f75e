import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TranscriptionJobDeps } from '../../shared/domain/transcription/transcription-deps';
import type { TableContext } from '../../shared/storage/dynamo';
import { keys } from '../../shared/storage/keys';
import { recordingItem, type Recording, type RecordingTranscription } from '../../shared/storage/recording-items';
import { recordingObjectKey } from '../../shared/storage/recording-objects';
import type { JobStatus, StartJob, TranscriptionJobs } from '../../shared/transcription/transcribe-jobs';

/**
 * What the transcription's domain tests share: Transcribe's job API and the output objects in
 * memory (the real adapter and the local engine are tested with the local deployment), and
 * recordings written as a given step of the pipeline left them.
 */

/** Transcribe's job API in memory: started jobs are kept; a test finishes them, or fills the quota. */
export class InMemoryTranscriptionJobs implements TranscriptionJobs {
  readonly started: StartJob[] = [];
  readonly statuses = new Map<string, JobStatus>();
  quotaFull = false;

  async start(job: StartJob): Promise<'started' | 'already-started' | 'throttled'> {
    if (this.quotaFull) return 'throttled';
    if (this.statuses.has(job.jobName)) return 'already-started';
    this.started.push(job);
    this.statuses.set(job.jobName, { status: 'IN_PROGRESS' });
    return 'started';
  }

  async get(jobName: string): Promise<JobStatus | undefined> {
    return this.statuses.get(jobName);
  }
}

/** Output objects in memory, by key. */
export class InMemoryOutputs {
  readonly objects = new Map<string, unknown>();
  async readJson(key: string): Promise<unknown> {
    return this.objects.get(key);
  }
  async remove(key: string): Promise<void> {
    this.objects.delete(key);
  }
}

/** Amazon Transcribe's output for timed words of speakers (`[speaker label, word, start, end]`; punctuation as `[label, '.', null, null]`). */
export function transcribeOutput(jobName: string, words: [string, string, number | null, number | null][], languageCode = 'en-US') {
  return {
    jobName,
    accountId: '123456789012',
    status: 'COMPLETED',
    results: {
      language_code: languageCode,
      transcripts: [{ transcript: words.map(([, word]) => word).join(' ') }],
      speaker_labels: { speakers: new Set(words.map(([label]) => label)).size, segments: [] },
      items: words.map(([label, word, start, end]) =>
        start === null
          ? { type: 'punctuation', alternatives: [{ confidence: '0.0', content: word }] }
          : {
              type: 'pronunciation',
              start_time: start.toFixed(3),
              end_time: (end ?? start).toFixed(3),
              speaker_label: label,
              alternatives: [{ confidence: '0.98', content: word }],
            },
      ),
    },
  };
}

export interface TestJobDeps extends TranscriptionJobDeps {
  jobs: InMemoryTranscriptionJobs;
  outputs: InMemoryOutputs;
}

/** Deps with in-memory jobs and outputs, and a clock the test moves. */
export function jobDepsAt(db: TableContext, clock: { now: Date }): TestJobDeps {
  return { db, now: () => clock.now, jobs: new InMemoryTranscriptionJobs(), outputs: new InMemoryOutputs(), bucket: 'recordings-test' };
}

/** A recording of an existing organization whose file landed, optionally already at a transcription step (written as its INSERT: no event follows). */
export async function putUploadedRecording(
  db: TableContext,
  input: {
    orgId: string;
    userId: string;
    id: string;
    at: string;
    transcription?: RecordingTranscription;
    related?: Partial<Recording['related']>;
  },
): Promise<Recording> {
  const recording: Recording = {
    id: input.id,
    org_id: input.orgId,
    recorded_by: input.userId,
    title: 'Call',
    description: '',
    duration: 0,
    language: 'en',
    tags: [],
    folder_id: null,
    state: input.transcription ? 'processing' : 'uploaded',
    created_at: input.at,
    updated_at: input.at,
    recording_at: input.at,
    upload: {
      s3_key: recordingObjectKey(input.orgId, input.id, 'call.wav'),
      content_type: 'audio/wav',
      filename: 'call.wav',
      size_bytes: 10,
      uploaded_bytes: 10,
      uploaded_content_type: 'audio/wav',
      uploaded_at: input.at,
    },
    related: { transcript: false, summary: false, action_items: false, translation: false, ...input.related },
    ...(input.transcription ? { transcription: input.transcription } : {}),
  };
  await db.client.send(new PutCommand({ TableName: db.tableName, Item: recordingItem(recording) }));
  if (input.transcription?.watch_due_at) {
    const watch = keys.transcriptionWatch(input.transcription.watch_due_at, input.orgId, input.id);
    await db.client.send(
      new PutCommand({
        TableName: db.tableName,
        Item: {
          ...watch,
          due_at: input.transcription.watch_due_at,
          org_id: input.orgId,
          recording_id: input.id,
          attempt: input.transcription.attempt,
        },
      }),
    );
  }
  return recording;
}

/** A month's billed minutes of the organization, and of one member (0 when none). */
export async function usageOf(db: TableContext, orgId: string, month: string, userId: string): Promise<{ org: number; member: number }> {
  const read = async (Key: Record<string, string>) =>
    Number((await db.client.send(new GetCommand({ TableName: db.tableName, Key, ConsistentRead: true }))).Item?.transcription_minutes ?? 0);
  return {
    org: await read(keys.transcriptionUsage(orgId, month)),
    member: await read(keys.memberTranscriptionUsage(orgId, month, userId)),
  };
}
