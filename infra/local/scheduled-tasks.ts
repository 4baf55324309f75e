import path from 'node:path';
import { RETENTION_SWEEPER, TRANSCRIPTION_SWEEPER } from '../../shared/events/scheduled-functions';
import { createTableContext } from '../../shared/storage/dynamo';
import type { Emulator } from './emulators';
import { LOCAL } from './local-config';
import { expireItems } from './ttl-emulator';

/** The stack's scheduled work, run by `npm start` on timers: the transcription sweeper, the retention sweep and DynamoDB's TTL. */

const repoRoot = path.resolve(__dirname, '../..');

/** A task run every `seconds` until stopped; stopping waits for a run under way. Failures are logged: the next run tries again. */
function repeatEvery(seconds: number, label: string, task: () => Promise<unknown>, cleanUp: () => void = () => {}): Emulator {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = task().catch((error) => console.error(`${label} failed`, error));
  }, seconds * 1000);
  return {
    endpoint: '',
    stop: async () => {
      clearInterval(timer);
      await running;
      cleanUp();
    },
  };
}

/** A scheduled function, emulated: its handler every `seconds`, as the stack's EventBridge schedule invokes it. */
function startScheduled(task: { handler: string }, seconds: number, label: string): Emulator {
  return repeatEvery(seconds, label, async () => {
    const scheduled = (await import(path.join(repoRoot, `${task.handler}.ts`))) as { handler: (event: unknown) => Promise<unknown> };
    return scheduled.handler({});
  });
}

export const startTranscriptionSweeps = (seconds: number) => startScheduled(TRANSCRIPTION_SWEEPER, seconds, 'local transcription sweeper');
export const startRetentionSweeps = (seconds: number) => startScheduled(RETENTION_SWEEPER, seconds, 'local retention sweep');

/** DynamoDB's TTL, emulated: every `seconds`, expired items are removed (their removal reaches the stream as in AWS). */
export function startTtlSweeps(endpoint: string, seconds: number): Emulator {
  const db = createTableContext({ tableName: LOCAL.tableName, region: LOCAL.region, endpoint });
  return repeatEvery(
    seconds,
    'local TTL emulator',
    () => expireItems(db, { now: new Date() }),
    () => db.client.destroy(),
  );
}
