/**
 * Benchmark of synthesis as operators run it: `npx cdk synth --quiet` through the real CDK CLI in
 * each environment of the infra suites (test/infra/environments.ts: the Region as AWS_REGION, the
 * account as CDK_DEFAULT_ACCOUNT, a model map as -c bedrockModelMap), once with no AWS
 * configuration at all (the CLI then resolves us-east-1 and no account), and the app run without
 * the CLI (`tsx infra/app.ts`, environment-agnostic). Each bundles every function into a fresh
 * output folder; it reports the wall time and the resources of each template.
 *
 *   npx tsx test/bench/synth.bench.ts
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { assemblyTemplates } from '../../infra/sam/assembly';
import { SYNTH_ENVIRONMENTS } from '../infra/environments';
import { runAlone, startedDirectly, type SummaryBench, type SummaryRow } from './support/bench-summary';

const repoRoot = path.resolve(__dirname, '../..');
const STACK_NAME = 'VoiceOrgApi-prod';

interface SynthRun {
  name: string;
  seconds: number;
  status: number | null;
  resources: { template: string; count: number }[];
}

/** The variables of this shell without any AWS or CDK setting, so each run sees only its own. */
function cleanEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(AWS_|CDK_)/.test(name)));
}

function synthOnce(name: string, command: string[], env: NodeJS.ProcessEnv): SynthRun {
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'voice-org-synth-bench-'));
  try {
    const started = performance.now();
    const withOutdir = command[0] === 'cdk' ? [...command, '--output', outdir] : command;
    const result = spawnSync('npx', withOutdir, {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...env, CDK_OUTDIR: outdir, AWS_EC2_METADATA_DISABLED: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    });
    const seconds = (performance.now() - started) / 1000;
    if (result.status !== 0) console.error(`${name}: exit ${result.status}\n${result.stderr.slice(-2000)}`);
    const resources =
      result.status === 0
        ? assemblyTemplates(outdir, STACK_NAME).map(({ nestedStack, template }) => ({
            template: nestedStack ?? 'root',
            count: Object.keys(template.Resources).length,
          }))
        : [];
    return { name, seconds, status: result.status, resources };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

async function measure(): Promise<{ runs: SynthRun[]; rows: SummaryRow[] }> {
  const runs: SynthRun[] = [];
  runs.push(synthOnce('CLI, no AWS configuration (us-east-1)', ['cdk', 'synth', '--quiet'], cleanEnvironment()));
  for (const environment of SYNTH_ENVIRONMENTS) {
    if (!environment.env) {
      // Without the CLI nothing resolves an environment: the app itself, as a pipeline may run it.
      runs.push(synthOnce(`${environment.name} (tsx infra/app.ts, no CLI)`, ['tsx', 'infra/app.ts'], cleanEnvironment()));
      continue;
    }
    const context = environment.props?.bedrockModelMap ? ['-c', `bedrockModelMap=${environment.props.bedrockModelMap}`] : [];
    runs.push(
      synthOnce(`CLI, ${environment.env.region}, account ${environment.env.account}`, ['cdk', 'synth', '--quiet', ...context], {
        ...cleanEnvironment(),
        AWS_REGION: environment.env.region,
        CDK_DEFAULT_ACCOUNT: environment.env.account,
        CDK_DEFAULT_REGION: environment.env.region,
      }),
    );
  }
  const rows: SummaryRow[] = runs.flatMap((run) => [
    {
      area: 'synth',
      measure: `${run.name}: seconds (exit code)`,
      value: `${run.seconds.toFixed(1)} (${run.status})`,
      goal: 'exit 0',
      met: run.status === 0,
    },
    {
      area: 'synth',
      measure: `${run.name}: resources per template`,
      value: run.resources.map((r) => `${r.template} ${r.count}`).join(', '),
    },
  ]);
  return { runs, rows };
}

export const summary: SummaryBench = async () => (await measure()).rows;

if (startedDirectly(__filename)) {
  runAlone(measure, ({ runs }) => {
    for (const run of runs)
      console.log(
        `${run.name}: ${run.seconds.toFixed(1)} s, exit ${run.status}; ${run.resources.map((r) => `${r.template} ${r.count}`).join(', ')}`,
      );
  });
}
