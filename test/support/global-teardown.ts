import { rmSync } from 'node:fs';
import { contractCoverage } from './contract';
import type { StartedDeployment } from './local-deployment';
import { stopLocalDeployment } from './local-deployment';

export default async function globalTeardown(): Promise<void> {
  const deployment = (globalThis as Record<string, unknown>).__LOCAL_DEPLOYMENT__ as StartedDeployment | undefined;
  if (!deployment) return;
  const coverage = contractCoverage(deployment.dataDir);
  // A run of the domain project alone sends no HTTP request: nothing to report.
  if (coverage.checked > 0) reportContractCoverage(coverage);
  await stopLocalDeployment(deployment.child);
  rmSync(deployment.dataDir, { recursive: true, force: true });
}

function reportContractCoverage(coverage: ReturnType<typeof contractCoverage>): void {
  const summary = [...coverage.statuses].map(([operation, statuses]) => `  ${operation}: ${[...statuses].sort().join(', ')}`).join('\n');
  console.log(
    `\nContract check (test/support/contract.ts): ${coverage.checked} responses checked against the OpenAPI document.\n${summary}` +
      (coverage.unexercised.length ? `\n  never exercised: ${coverage.unexercised.join('; ')}` : ''),
  );
}
