import type { TranscriptionJobs } from '../../transcription/transcribe-jobs';
import type { QueueDeps } from './transcribe-recording';

/** Transcribe's output JSON objects in the recordings bucket. */
export interface TranscriptOutputs {
  /** The object parsed as JSON, or undefined when there is none at `key`. */
  readJson(key: string): Promise<unknown>;
  /** Deletes the object at `key`; nothing there is a success. */
  remove(key: string): Promise<void>;
}

/** What starting and finishing jobs need: Transcribe's job API, the bucket media and output are in, and its output objects. */
export interface TranscriptionJobDeps extends QueueDeps {
  jobs: TranscriptionJobs;
  /** The recordings bucket: the job reads the media there and writes its output under the recording's prefix. */
  bucket: string;
  outputs: TranscriptOutputs;
}
