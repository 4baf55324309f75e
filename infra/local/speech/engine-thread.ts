import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EngineReply, EngineRequest } from './engine-worker';
import { LocalEngineError, type Recognition, type RecognizeOptions } from './recognize-speech';

/**
 * The engine runs in one worker thread, started at the first job and kept (the models load once):
 * its CPU work never blocks the API's event loop, and a thread cannot outlive the process. The
 * worker loads TypeScript through tsx, as `npm start` does.
 */
let worker: Worker | undefined;
let nextId = 1;
const waiting = new Map<number, { resolve: (result: Recognition) => void; reject: (error: Error) => void }>();

function engineWorker(): Worker {
  if (worker) return worker;
  const tsx = createRequire(__filename).resolve('tsx/cjs');
  const entry = path.join(__dirname, 'engine-worker.ts');
  const started = new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(entry)});`, { eval: true });
  started.unref();
  started.on('message', (reply: EngineReply) => {
    const pending = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (!pending) return;
    if ('result' in reply) return pending.resolve(reply.result);
    const { kind, message } = reply.error;
    pending.reject(kind ? new LocalEngineError(kind as LocalEngineError['kind'], message) : new Error(message));
  });
  // A worker that died takes its requests with it; the next job starts a new one.
  started.on('error', (error) => failAll(error));
  started.on('exit', (code) => failAll(new Error(`the speech engine's worker exited (${code})`)));
  const failAll = (error: Error) => {
    if (worker === started) worker = undefined;
    for (const [id, pending] of waiting) {
      waiting.delete(id);
      pending.reject(error);
    }
  };
  worker = started;
  return started;
}

export function recognizeInWorker(file: string, options: RecognizeOptions): Promise<Recognition> {
  const { signal, ...rest } = options;
  const thread = engineWorker();
  const id = nextId++;
  return new Promise<Recognition>((resolve, reject) => {
    // An AbortSignal's reason is an Error unless the caller chose otherwise (a DOMException by default).
    const aborted = (): Error => (signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal?.aborted) return reject(aborted());
    const onAbort = () => {
      thread.postMessage({ abort: id } satisfies EngineRequest);
      waiting.delete(id);
      reject(aborted());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    waiting.set(id, {
      resolve: (result) => (signal?.removeEventListener('abort', onAbort), resolve(result)),
      reject: (error) => (signal?.removeEventListener('abort', onAbort), reject(error)),
    });
    thread.postMessage({ id, file, options: rest } satisfies EngineRequest);
  });
}

/** Ends the worker (the stand-in stopping); the next job starts another. */
export async function stopEngineWorker(): Promise<void> {
  const running = worker;
  worker = undefined;
  await running?.terminate();
}
