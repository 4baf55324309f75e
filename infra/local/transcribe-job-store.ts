import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The local Transcribe stand-in's jobs on disk (one JSON file per job under the data
 * directory), so that a restart after a crash finds the jobs it had: queued or running ones run
 * again, finished ones answer Get as before. Transcribe forgets a job 90 days after it was
 * created; so does this store, when it loads.
 */
export type JobStatus = 'QUEUED' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

export interface StoredJob {
  name: string;
  status: JobStatus;
  media: { bucket: string; key: string; uri: string };
  output: { bucket: string; key: string };
  languageCode?: string;
  identifyLanguage: boolean;
  settings?: Record<string, unknown>;
  /** Seconds since the epoch, as Transcribe's API reports times. */
  creationTime: number;
  startTime?: number;
  completionTime?: number;
  failureReason?: string;
}

const FORGET_AFTER_SECONDS = 90 * 24 * 3600;

export interface JobStore {
  save(job: StoredJob): void;
  /** The stored jobs, oldest first, without those Transcribe would have forgotten by `now` (seconds). */
  load(now: number): StoredJob[];
}

/** Keeps nothing: the stand-in without a data directory (unit tests). */
export const memoryOnly: JobStore = { save: () => {}, load: () => [] };

/** Jobs as files under `dir`, each written whole (a temporary file renamed over it), so a crash never leaves half a job. */
export function jobStoreIn(dir: string): JobStore {
  mkdirSync(dir, { recursive: true });
  const fileOf = (name: string) => path.join(dir, `${name}.json`);
  return {
    save(job) {
      const temporary = `${fileOf(job.name)}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(job));
      renameSync(temporary, fileOf(job.name));
    },
    load(now) {
      const jobs: StoredJob[] = [];
      for (const entry of readdirSync(dir)) {
        const file = path.join(dir, entry);
        if (!entry.endsWith('.json')) {
          rmSync(file, { force: true }); // a write cut short by a crash
          continue;
        }
        let job: StoredJob;
        try {
          job = JSON.parse(readFileSync(file, 'utf8')) as StoredJob;
        } catch {
          rmSync(file, { force: true });
          continue;
        }
        if (now - job.creationTime > FORGET_AFTER_SECONDS) rmSync(file, { force: true });
        else jobs.push(job);
      }
      return jobs.sort((a, b) => a.creationTime - b.creationTime);
    },
  };
}
