import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * The pieces the engine cuts a file into (start, length and overlap in seconds), computed in a
 * worker thread as the engine runs: onnxruntime-node's tensors fail instanceof checks inside
 * jest's sandbox, so the models never run in a test's own context.
 */
export function piecesOf(file: string): Promise<{ start: number; seconds: number; overlap: number }[]> {
  const tsx = createRequire(__filename).resolve('tsx/cjs');
  const entry = path.join(__dirname, 'pieces-worker.ts');
  const worker = new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(entry)});`, { eval: true, workerData: { file } });
  return new Promise((resolve, reject) => {
    worker.once('message', (pieces) => (resolve(pieces), void worker.terminate()));
    worker.once('error', reject);
  });
}
