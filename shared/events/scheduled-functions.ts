import type { FunctionPermissions } from '../function-permissions';

/** A function an EventBridge schedule invokes (`npm start` runs it on a timer). */
interface ScheduledTask {
  handler: string;
  summary: string;
  source: string;
  scheduleMinutes: number;
  timeoutSeconds: number;
  permissions: FunctionPermissions;
}

/**
 * The transcription sweeper (docs/transcription.md): on a schedule, it starts queued attempts
 * whose start never came or was throttled, and finishes jobs whose best-effort completion
 * event never came (or that ran past the bound). Locally `npm start` runs it on a timer.
 */
export const TRANSCRIPTION_SWEEPER = {
  handler: 'functions/events/sweep-transcriptions',
  summary: 'Starts queued transcriptions and finishes Transcribe jobs whose completion event never came, every few minutes',
  source: 'schedule',
  scheduleMinutes: 5,
  timeoutSeconds: 300,
  permissions: {
    table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
    transcribe: ['StartTranscriptionJob', 'GetTranscriptionJob'],
    bucket: ['GetObject', 'PutObject', 'DeleteObject'],
  },
} as const satisfies ScheduledTask;

/**
 * The retention sweep (docs/governance.md): once a day, every organization with a retention
 * policy has its expired recordings moved to the trash (held ones kept and counted). It reads the
 * registry of policies and each organization's retention index, never a Scan. `npx voice-org
 * retention sweep` runs the same function on demand; locally `npm start` runs it on a timer.
 */
export const RETENTION_SWEEPER = {
  handler: 'functions/events/sweep-retention',
  summary: "Moves recordings past their organization's retention policy to the trash, once a day",
  source: 'schedule',
  scheduleMinutes: 24 * 60,
  timeoutSeconds: 900,
  // Query: the registry and the retention index; the rest: the trash move's transaction, as Delete recording's.
  permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
} as const satisfies ScheduledTask;
