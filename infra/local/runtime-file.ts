import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { OrganizationLimits } from '../../shared/core/rate-limits';
import { LOCAL } from './local-config';

/**
 * Where a running local deployment can be reached. `npm start` writes it into the data
 * directory; the CLI and the tests read it, so they need no other setup.
 */
export interface LocalRuntime {
  pid: number;
  apiUrl: string;
  dynamoDbEndpoint: string;
  s3Endpoint: string;
  sesEndpoint: string;
  /** The local Transcribe stand-in (absent in files written before it). */
  transcribeEndpoint?: string;
  translateEndpoint?: string;
  /** The Bedrock Runtime stand-in (local summaries). */
  bedrockEndpoint?: string;
  /** The OpenSearch stand-in (Search and Ask). */
  searchEndpoint?: string;
  tableName: string;
  bucketName: string;
  region: string;
  issuer: string;
  audience: string;
  /** The limits of an organization without its own, as this deployment's functions read them (for `org get-limits`). */
  rateLimitDefaults?: OrganizationLimits;
  /** The trash's retention in days, as this deployment's functions read it (TRASH_RETENTION_DAYS), for the timers `seed` and `reindex` set. */
  trashRetentionDays?: number;
}

export function writeRuntimeFile(dataDir: string, runtime: LocalRuntime): void {
  writeFileSync(path.join(dataDir, LOCAL.runtimeFile), JSON.stringify(runtime, null, 2));
}

export function removeRuntimeFile(dataDir: string): void {
  rmSync(path.join(dataDir, LOCAL.runtimeFile), { force: true });
}

/** The running deployment of this data directory, or undefined when none is running. */
export function readRuntimeFile(dataDir: string): LocalRuntime | undefined {
  const file = path.join(dataDir, LOCAL.runtimeFile);
  if (!existsSync(file)) return undefined;
  const runtime = JSON.parse(readFileSync(file, 'utf8')) as LocalRuntime;
  try {
    process.kill(runtime.pid, 0);
    return runtime;
  } catch {
    return undefined; // a stale file left by a killed process
  }
}
