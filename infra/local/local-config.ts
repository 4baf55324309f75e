import path from 'node:path';
import * as v from 'valibot';
import { GATEWAY } from '../../shared/http/gateway';

/** Settings of the local runtime and the admin CLI, parsed once from the environment. */
const LocalConfigSchema = v.object({
  LOCAL_DATA_DIR: v.optional(v.string(), '.data'),
  PORT: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a port number'), v.transform(Number)), '3000'),
  HOST: v.optional(v.string(), '127.0.0.1'),
  /** demo (default): load the demo organization into a fresh data directory; none: start empty. */
  LOCAL_SEED: v.optional(v.picklist(['demo', 'none']), 'demo'),
  /** Seconds the emulated gateway caches an authorizer result per token (API Gateway's TTL by default). */
  LOCAL_AUTHORIZER_CACHE_SECONDS: v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number)),
    String(GATEWAY.authorizerCacheSeconds),
  ),
  /** Milliseconds before the local event pipeline tries a failed delivery again, times the attempts so far (the queues wait retryAfterSeconds in AWS). */
  LOCAL_EVENT_RETRY_MS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number)), '1000'),
  /** Scales the delays a consumer asks its queue for (the webhook dispatcher's retry schedule): 1 keeps them real, the tests use 0.001. */
  LOCAL_QUEUE_DELAY_SCALE: v.optional(v.pipe(v.string(), v.regex(/^\d+(\.\d+)?$/, 'must be a number'), v.transform(Number)), '1'),
  /** How often the local TTL emulator removes expired items (DynamoDB Local keeps them); 0 turns it off. */
  LOCAL_TTL_SWEEP_SECONDS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number)), '60'),
  /** How often the transcription sweeper runs (the stack's schedule runs it every 5 minutes); 0: never. */
  LOCAL_TRANSCRIPTION_SWEEP_SECONDS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number)), '60'),
  /** How often the retention sweep runs (the stack's schedule runs it once a day); 0: never. */
  LOCAL_RETENTION_SWEEP_SECONDS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number)), '3600'),
  /** Log level of the functions run locally. */
  LOG_LEVEL: v.optional(v.picklist(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT']), 'WARN'),
});

export interface LocalConfig {
  dataDir: string;
  port: number;
  host: string;
  seed: 'demo' | 'none';
  authorizerCacheSeconds: number;
  logLevel: string;
  eventRetryMs: number;
  queueDelayScale: number;
  ttlSweepSeconds: number;
  transcriptionSweepSeconds: number;
  retentionSweepSeconds: number;
}

export function loadLocalConfig(env: Record<string, string | undefined> = process.env): LocalConfig {
  const result = v.safeParse(LocalConfigSchema, env);
  if (!result.success) {
    throw new Error(`Invalid local settings: ${result.issues.map((i) => `${v.getDotPath(i)}: ${i.message}`).join('; ')}`);
  }
  const parsed = result.output;
  return {
    dataDir: path.resolve(parsed.LOCAL_DATA_DIR),
    port: parsed.PORT,
    host: parsed.HOST,
    seed: parsed.LOCAL_SEED,
    authorizerCacheSeconds: parsed.LOCAL_AUTHORIZER_CACHE_SECONDS,
    logLevel: parsed.LOG_LEVEL,
    eventRetryMs: parsed.LOCAL_EVENT_RETRY_MS,
    queueDelayScale: parsed.LOCAL_QUEUE_DELAY_SCALE,
    ttlSweepSeconds: parsed.LOCAL_TTL_SWEEP_SECONDS,
    transcriptionSweepSeconds: parsed.LOCAL_TRANSCRIPTION_SWEEP_SECONDS,
    retentionSweepSeconds: parsed.LOCAL_RETENTION_SWEEP_SECONDS,
  };
}

/** Names shared by the local runtime and the CLI. */
export const LOCAL = {
  tableName: 'voice-org-local',
  /** Idempotency-Key records (shared/storage/idempotency-table-definition.ts). */
  idempotencyTableName: 'voice-org-idempotency-local',
  /** The rate limiter's counters (shared/storage/rate-limit-table-definition.ts). */
  rateLimitTableName: 'voice-org-rate-limits-local',
  bucketName: 'voice-org-recordings-local',
  region: 'us-east-1',
  audience: 'voice-org-local',
  runtimeFile: 'runtime.json',
} as const;
