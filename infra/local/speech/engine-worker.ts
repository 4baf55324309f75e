import { parentPort } from 'node:worker_threads';
import { LocalEngineError, recognizeInThisThread, type RecognizeOptions } from './recognize-speech';

/**
 * The engine's worker thread: transcribes one file per request, in order, and answers with the
 * words or the failure ({kind, message}); an `abort` request stops the one under way.
 */
export type EngineRequest = { id: number; file: string; options: Omit<RecognizeOptions, 'signal'> } | { abort: number };
export type EngineReply =
  { id: number; result: Awaited<ReturnType<typeof recognizeInThisThread>> } | { id: number; error: { kind?: string; message: string } };

const running = new Map<number, AbortController>();

parentPort!.on('message', (request: EngineRequest) => {
  if ('abort' in request) return running.get(request.abort)?.abort(new Error('stopped'));
  const controller = new AbortController();
  running.set(request.id, controller);
  recognizeInThisThread(request.file, { ...request.options, signal: controller.signal })
    .then((result) => parentPort!.postMessage({ id: request.id, result } satisfies EngineReply))
    .catch((error: Error) =>
      parentPort!.postMessage({
        id: request.id,
        error: { kind: error instanceof LocalEngineError ? error.kind : undefined, message: error.message },
      } satisfies EngineReply),
    )
    .finally(() => running.delete(request.id));
});
