import { config } from '../config';
import type { QueueDeps } from '../domain/transcription/transcribe-recording';
import type { TranscriptionJobDeps } from '../domain/transcription/transcription-deps';
import { table } from '../storage/dynamo';
import { recordingObjects } from '../storage/recording-objects';
import { transcriptionJobs } from '../transcription/transcribe-jobs';

/**
 * The transcription's composition root (docs/transcription.md): what its routes and consumers
 * hand the domain, built from config on first use and kept for the warm function. Each export
 * is its own function, so only the functions that reach Transcribe or the bucket carry their clients.
 */

let queue: QueueDeps | undefined;
let jobs: TranscriptionJobDeps | undefined;

/** The table and the clock: queuing a transcription (Transcribe recording, the automatic transcription on upload), Get transcript and Get usage. */
export function transcriptionDeps(): QueueDeps {
  return (queue ??= { db: table(), now: () => new Date() });
}

/** Starting, finishing and sweeping Transcribe jobs: Transcribe's job API (the local stand-in under npm start) and the recordings bucket. */
export function transcriptionJobDeps(): TranscriptionJobDeps {
  if (!jobs) {
    const bucket = config().bucket;
    if (!bucket) throw new Error('Invalid configuration: BUCKET_NAME is required');
    const objects = recordingObjects();
    jobs = {
      db: table(),
      now: () => new Date(),
      jobs: transcriptionJobs(),
      bucket: bucket.name,
      outputs: { readJson: (key) => objects.readJson(key), remove: (key) => objects.deleteObject(key) },
    };
  }
  return jobs;
}
