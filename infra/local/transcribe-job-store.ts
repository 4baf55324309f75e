import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The local Transcribe stand-in's jobs and custom vocabularies on disk (one JSON file each under
 * the data directory: jobs in `dir`, vocabularies beside it in `vocabularies/`), so that a restart
 * after a crash finds what it had: queued or running jobs run again, finished ones answer Get as
 * before; vocabularies keep their state and terms. Transcribe forgets a job 90 days after it was
 * created; so does this store, when it loads. Vocabularies stay until deleted, as in Transcribe.
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
  /** ContentRedaction's entity types, when the job redacts PII. */
  redaction?: string[];
  /** Seconds since the epoch, as Transcribe's API reports times. */
  creationTime: number;
  startTime?: number;
  completionTime?: number;
  failureReason?: string;
}

const FORGET_AFTER_SECONDS = 90 * 24 * 3600;

/** A custom vocabulary as the stand-in keeps it; `terms` once READY (infra/local/vocabulary-file.ts). */
export interface StoredVocabulary {
  name: string;
  languageCode: string;
  fileUri: string;
  state: 'PENDING' | 'READY' | 'FAILED';
  /** Seconds since the epoch. */
  lastModified: number;
  failureReason?: string;
  terms?: { phrase: string; soundsLike?: string[]; displayAs?: string }[];
}

export interface VocabularyStore {
  save(vocabulary: StoredVocabulary): void;
  remove(name: string): void;
  load(): StoredVocabulary[];
}

export interface JobStore {
  save(job: StoredJob): void;
  /** The stored jobs, oldest first, without those Transcribe would have forgotten by `now` (seconds). */
  load(now: number): StoredJob[];
  vocabularies: VocabularyStore;
}

/** Keeps nothing: the stand-in without a data directory (unit tests). */
export const memoryOnly: JobStore = { save: () => {}, load: () => [], vocabularies: { save: () => {}, remove: () => {}, load: () => [] } };

/** Records as files under `dir`, each written whole (a temporary file renamed over it), so a crash never leaves half of one. */
function filesIn<T extends { name: string }>(dir: string) {
  mkdirSync(dir, { recursive: true });
  const fileOf = (name: string) => path.join(dir, `${name}.json`);
  return {
    save(record: T) {
      const temporary = `${fileOf(record.name)}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(record));
      renameSync(temporary, fileOf(record.name));
    },
    remove(name: string) {
      rmSync(fileOf(name), { force: true });
    },
    /** Every record, dropping what `forget` says and what a crash left half written. */
    load(forget: (record: T) => boolean = () => false): T[] {
      const records: T[] = [];
      for (const entry of readdirSync(dir)) {
        const file = path.join(dir, entry);
        if (!entry.endsWith('.json')) {
          rmSync(file, { force: true }); // a write cut short by a crash
          continue;
        }
        let record: T;
        try {
          record = JSON.parse(readFileSync(file, 'utf8')) as T;
        } catch {
          rmSync(file, { force: true });
          continue;
        }
        if (forget(record)) rmSync(file, { force: true });
        else records.push(record);
      }
      return records;
    },
  };
}

/** Jobs under `dir`, vocabularies in `vocabularies/` beside it (npm start: <data>/transcribe/jobs and <data>/transcribe/vocabularies). */
export function jobStoreIn(dir: string): JobStore {
  const jobs = filesIn<StoredJob>(dir);
  const vocabularies = filesIn<StoredVocabulary>(path.join(path.dirname(dir), 'vocabularies'));
  return {
    save: (job) => jobs.save(job),
    load: (now) => jobs.load((job) => now - job.creationTime > FORGET_AFTER_SECONDS).sort((a, b) => a.creationTime - b.creationTime),
    vocabularies: {
      save: (vocabulary) => vocabularies.save(vocabulary),
      remove: (name) => vocabularies.remove(name),
      load: () => vocabularies.load(),
    },
  };
}
