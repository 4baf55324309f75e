import { startLocalDeployment } from './local-deployment';

/** One local deployment (empty, authorizer cache off) shared by the integration tests. */
export default async function globalSetup(): Promise<void> {
  const deployment = await startLocalDeployment({ env: { LOCAL_AUTHORIZER_CACHE_SECONDS: '0' } });
  (globalThis as Record<string, unknown>).__LOCAL_DEPLOYMENT__ = deployment;
  process.env.TEST_LOCAL_DATA_DIR = deployment.dataDir;
}
