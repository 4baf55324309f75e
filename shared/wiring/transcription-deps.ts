import type { QueueDeps } from '../domain/transcription/queue-transcription';
import { table } from '../storage/dynamo';

/**
 * The transcription's composition root (docs/transcription.md): what its routes and consumers
 * hand the domain, built from config on first use and kept for the warm function. Each export
 * is its own function, so only the functions that reach Transcribe or the bucket carry their clients.
 */

let queue: QueueDeps | undefined;

/** Queuing a transcription (Transcribe recording, the automatic transcription on upload): the table and the clock. */
export function transcriptionQueueDeps(): QueueDeps {
  return (queue ??= { db: table(), now: () => new Date() });
}
