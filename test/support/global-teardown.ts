import { rmSync } from 'node:fs';
import type { StartedDeployment } from './local-deployment';
import { stopLocalDeployment } from './local-deployment';

export default async function globalTeardown(): Promise<void> {
  const deployment = (globalThis as Record<string, unknown>).__LOCAL_DEPLOYMENT__ as StartedDeployment | undefined;
  if (!deployment) return;
  await stopLocalDeployment(deployment.child);
  rmSync(deployment.dataDir, { recursive: true, force: true });
}
