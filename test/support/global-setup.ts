import { startLocalDeployment } from './local-deployment';

/**
 * One local deployment (empty, authorizer cache off) shared by the integration and domain tests
 * (one run of this setup serves both jest projects). Its default
 * rate limits are far above what the tests send (the fuzz and access-matrix suites send thousands
 * of requests to one organization); test/integration/rate-limits.test.ts runs its own deployment. It logs
 * at INFO into a file of its data directory, where tests read its audit lines (printedOutput).
 */
export default async function globalSetup(): Promise<void> {
  const deployment = await startLocalDeployment({
    env: {
      LOCAL_AUTHORIZER_CACHE_SECONDS: '0',
      LOG_LEVEL: 'INFO',
      LOCAL_EVENT_RETRY_MS: '50',
      LOCAL_QUEUE_DELAY_SCALE: '0.001',
      LOCAL_TTL_SWEEP_SECONDS: '0',
      LOCAL_TRANSCRIPTION_SWEEP_SECONDS: '0',
      RATE_LIMIT_DEFAULT_RATE: '10000',
      RATE_LIMIT_DEFAULT_BURST: '100000',
      RATE_LIMIT_CACHE_SECONDS: '1',
    },
    outputFile: true,
  });
  (globalThis as Record<string, unknown>).__LOCAL_DEPLOYMENT__ = deployment;
  process.env.TEST_LOCAL_DATA_DIR = deployment.dataDir;
}
