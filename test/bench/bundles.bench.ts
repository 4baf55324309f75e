/**
 * Benchmark of the functions' bundles (docs/performance.md, "Bundles"): how large each bundle the stack
 * ships is, and how much CPU loading it costs, each against a bare ESM handler that does one
 * DynamoDB Query (test/bench/support/bare-dynamodb-handler.ts) built with the stack's bundling
 * settings (BUNDLE_SETTINGS of infra/constructs/functions.ts, minified, with a source map).
 *
 * - The stack's bundles are the ones that ship: the app is synthesized with bundling into a
 *   temp dir, as test/integration/artefacts.test.ts does, and each is read from the assembly.
 * - Module-load and first-invocation CPU: a fresh `node` per sample (with
 *   --enable-source-maps, as the functions' NODE_OPTIONS has it) imports the bundle, then invokes
 *   its handler once with its sample event (infra/sam) against a local deployment's emulators
 *   (support/first-invocation.ts); process.cpuUsage() after the import and after the invocation.
 *   The bare handler does its one Query the same way. Median of SAMPLES, the samples of all
 *   bundles interleaved so that a busy moment of the machine spreads over all.
 * - The goals: every DynamoDB-only API function (manifest permissions `table`,
 *   `idempotency`, `rateLimit` only) at most 1.3x the bare bundle's bytes and load CPU and 1.5x its
 *   first-invocation CPU; the authorizer at most 1.2x on each.
 * - The Encryption SDK is loaded only by the requests that need it: the Get settings handler
 *   bundled the same way (plus a marker in the SDK's entry) is imported and its profile cipher
 *   made, as a request for a member without a profile does; the SDK must not have run; the
 *   first encrypt must run it.
 * - What each package costs: esbuild's metafile of the largest DynamoDB-only handler, of Get
 *   settings and of the bare handler, built with the same options.
 *
 * Run: `npx tsx test/bench/bundles.bench.ts`. Results go to stdout and to bench-results/bundles.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { App } from 'aws-cdk-lib';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { BUNDLE_SETTINGS } from '../../infra/constructs/functions';
import { bundledFunctions } from '../../infra/sam/assembly';
import { VoiceOrgStack } from '../../infra/stack';
import { listFunctions } from '../../infra/function-list';
import type { FunctionPermissions } from '../../shared/function-permissions';
import { median, printTable, reportHeader, round, secondsSince, writeReport } from './support/bench-harness';
import { runAlone, startedDirectly, type SummaryBench, type SummaryRow } from './support/bench-summary';
import { startInvocationBench, type FirstInvocation } from './support/first-invocation';

const RESULTS_FILE = path.resolve(__dirname, '../../bench-results/bundles.json');
const REPO_ROOT = path.resolve(__dirname, '../..');
const STACK_NAME = 'VoiceOrgApi-bundles';
const BARE_HANDLER = path.join(__dirname, 'support/bare-dynamodb-handler.ts');
const SAMPLES = Number(process.env.BUNDLES_BENCH_SAMPLES ?? 7);
/** The goals, as ratios to the bare handler: DynamoDB-only API functions, and the authorizer. */
const GOALS = { dynamodb: { bytes: 1.3, load: 1.3, first: 1.5 }, authorizer: { bytes: 1.2, load: 1.2, first: 1.2 } } as const;
/** The permissions of a function that uses DynamoDB and nothing else (its tables: the single table, idempotency, rate limits). */
const DYNAMODB_PERMISSIONS: readonly (keyof FunctionPermissions)[] = ['table', 'idempotency', 'rateLimit'];
/** The groups docs/performance.md reports before and after. */
type FunctionGroup =
  'authorizer' | 'DynamoDB-only routes' | 'profile routes' | 'webhook routes' | 'other routes' | 'consumers and event functions';
const SETTINGS_HANDLER = 'functions/users/get-member-settings';

/** esbuild's options for a handler as the stack bundles it (what NodejsFunction passes esbuild). */
function stackBuildOptions(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    minify: true,
    sourcemap: true,
    format: BUNDLE_SETTINGS.format,
    platform: BUNDLE_SETTINGS.platform,
    target: BUNDLE_SETTINGS.target,
    mainFields: [...BUNDLE_SETTINGS.mainFields],
    banner: { js: BUNDLE_SETTINGS.banner },
    logLevel: 'silent',
  };
}

interface BundleFigures {
  name: string;
  group: FunctionGroup;
  dynamodb_only: boolean;
  file: string;
  bytes: number;
  bytes_ratio: number;
  load_cpu_ms: number;
  load_ratio: number;
  first_cpu_ms: number;
  first_ratio: number;
  /** The sample invocation's answer (an HTTP status) or error, to show it was a handled request. */
  answered: string;
}

interface PackageCost {
  package: string;
  bytes: number;
}

interface BundlesReport {
  format: string;
  bare: { esm: { bytes: number; load_cpu_ms: number; first_cpu_ms: number }; cjs: { bytes: number; load_cpu_ms: number } };
  /** The machine's 1-minute load average at the start and the end of the measurements (2 cores shared with other work). */
  load_average: [number, number];
  functions: BundleFigures[];
  encryption_sdk: { loaded_at_module_load: boolean; loaded_by_settings_cipher: boolean; loaded_by_first_encrypt: boolean };
  package_costs: Record<string, PackageCost[]>;
}

/** Whether a function's manifest permissions are DynamoDB's only (the DynamoDB-only goals apply to its API functions). */
function usesOnlyDynamoDb(permissions: FunctionPermissions): boolean {
  const used = (Object.keys(permissions) as (keyof FunctionPermissions)[]).filter((name) => (permissions[name]?.length ?? 0) > 0);
  return used.length > 0 && used.every((name) => DYNAMODB_PERMISSIONS.includes(name));
}

function groupOf(kind: string, permissions: FunctionPermissions): FunctionGroup {
  if (kind === 'authorizer') return 'authorizer';
  if (kind !== 'http') return 'consumers and event functions';
  if (permissions.webhookSecretKey?.length) return 'webhook routes';
  if (permissions.profileKey?.length) return 'profile routes';
  return usesOnlyDynamoDb(permissions) ? 'DynamoDB-only routes' : 'other routes';
}

/** The stack synthesized with bundling into `outdir`: its bundled functions. */
function synthesizedBundles(outdir: string) {
  const app = new App({ outdir, context: { 'aws:cdk:enable-asset-metadata': true, 'aws:cdk:enable-path-metadata': true } });
  new VoiceOrgStack(app, STACK_NAME, { stage: 'bench' });
  app.synth();
  return bundledFunctions(outdir, STACK_NAME);
}

/** The CPU time (user + system, ms) of loading a bundle (`await import(file)` for an ES module) in a fresh node process. */
function loadCpuMs(file: string, env: Record<string, string>): number {
  // An ES module is imported; a CommonJS bundle (index.js, the stack's earlier bundles) is required, as the Lambda runtime
  // loads it: importing it would add the CommonJS export scan of the whole bundle that Lambda does not pay.
  const script = [
    "const { pathToFileURL } = await import('node:url');",
    "const { createRequire } = await import('node:module');",
    'const file = process.env.BENCH_BUNDLE_FILE;',
    'const started = process.cpuUsage();',
    "if (file.endsWith('.mjs')) await import(pathToFileURL(file).href); else createRequire(file)(file);",
    'const used = process.cpuUsage(started);',
    'process.stdout.write(String((used.user + used.system) / 1000));',
  ].join('\n');
  const out = execFileSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), ...env, BENCH_BUNDLE_FILE: file },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return Number(out.trim().split('\n').pop());
}

/** A value of the shape the config schema (shared/config.ts) asks of a variable the template sets by reference. */
function placeholder(name: string): string {
  if (/(_URL|_ISSUER)$/.test(name)) return `https://bench.example/${name.toLowerCase()}`;
  if (name.endsWith('_ARN')) return `arn:aws:kms:eu-west-1:111122223333:key/${name.toLowerCase()}`;
  return `bench-${name.toLowerCase().replace(/_/g, '-')}`;
}

/** What a bundle may read at load: placeholders for the environment its template declares. */
function loadEnvironment(environment: Record<string, unknown>): Record<string, string> {
  const env: Record<string, string> = { AWS_REGION: 'eu-west-1', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
  for (const [name, value] of Object.entries(environment)) {
    if (name !== 'NODE_OPTIONS') env[name] = typeof value === 'string' ? value : placeholder(name);
  }
  return env;
}

/** Median load CPU of each file, the samples of all files interleaved. */
function medianLoads(files: { file: string; env: Record<string, string> }[]): number[] {
  const samples = files.map(() => [] as number[]);
  for (let round = 0; round < SAMPLES; round += 1) {
    files.forEach(({ file, env }, i) => samples[i].push(loadCpuMs(file, env)));
  }
  return samples.map((values) => median(values));
}

/** Median load and first-invocation CPU of each run, the samples of all runs interleaved; the last sample's answer. */
async function medianInvocations(runs: (() => Promise<FirstInvocation>)[]): Promise<{ load: number; first: number; answered: string }[]> {
  const samples = runs.map(() => [] as FirstInvocation[]);
  for (let round = 0; round < SAMPLES; round += 1) {
    for (const [i, run] of runs.entries()) samples[i].push(await run());
  }
  return samples.map((values) => {
    const last = values.at(-1)!;
    const finite = (numbers: number[]) => numbers.filter(Number.isFinite);
    return {
      load: median(finite(values.map((v) => v.load_cpu_ms))),
      first: median(finite(values.map((v) => v.first_cpu_ms))),
      answered: last.error ? `error: ${last.error.slice(0, 60)}` : last.status === undefined ? 'ok' : String(last.status),
    };
  });
}

/** Bytes in the output per package (node_modules/<package>) or own folder, largest first. */
function packageCosts(metafile: Metafile): PackageCost[] {
  const costs = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const at = input.lastIndexOf('node_modules/');
      let name: string;
      if (at >= 0) {
        const [scope, pkg] = input.slice(at + 'node_modules/'.length).split('/');
        name = scope.startsWith('@') ? `${scope}/${pkg}` : scope;
      } else {
        name = `(own) ${input.split('/').slice(0, 2).join('/')}`;
      }
      costs.set(name, (costs.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...costs].map(([pkg, bytes]) => ({ package: pkg, bytes })).sort((a, b) => b.bytes - a.bytes);
}

/** Builds `entry` with the stack's options (plus `extra`) into `dir`; the bundle's path and its metafile. */
async function buildLikeTheStack(entry: string, dir: string, extra: BuildOptions = {}): Promise<{ file: string; metafile: Metafile }> {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, BUNDLE_SETTINGS.format === 'esm' ? 'index.mjs' : 'index.js');
  const { metafile } = await build({ ...stackBuildOptions(entry, file), absWorkingDir: REPO_ROOT, metafile: true, ...extra });
  return { file, metafile: metafile! };
}

/**
 * Whether the Get settings handler's bundle runs the Encryption SDK: at load, when its profile
 * cipher is made (all a request for a member without a profile does with it), and at the first
 * encrypt. The handler is bundled with the stack's options; an esbuild plugin puts a marker at
 * the top of the SDK's entry module, which runs when (and only when) that module is evaluated.
 */
async function encryptionSdkLoading(dir: string): Promise<BundlesReport['encryption_sdk']> {
  const marker: Plugin = {
    name: 'encryption-sdk-marker',
    setup(builder) {
      builder.onLoad({ filter: /[\\/]@aws-crypto[\\/]client-node[\\/].*[\\/]index\.js$/ }, (args) => ({
        contents: `globalThis.__encryptionSdkEvaluated = true;\n${readFileSync(args.path, 'utf8')}`,
        loader: 'js',
      }));
    },
  };
  const entry = path.join(dir, 'settings-entry.ts');
  writeFileSync(
    entry,
    [
      `import ${JSON.stringify(path.join(REPO_ROOT, SETTINGS_HANDLER))};`,
      `import { profileCipher } from ${JSON.stringify(path.join(REPO_ROOT, 'shared/crypto/configured-cipher'))};`,
      'const evaluated = () => globalThis.__encryptionSdkEvaluated === true;',
      'const atLoad = evaluated();',
      'const cipher = profileCipher();',
      'const byCipher = evaluated();',
      "await cipher.encrypt('profile', { orgId: 'org_bench', userId: 'usr_bench' });",
      'process.stdout.write(JSON.stringify({ loaded_at_module_load: atLoad, loaded_by_settings_cipher: byCipher, loaded_by_first_encrypt: evaluated() }));',
    ].join('\n'),
  );
  const { file } = await buildLikeTheStack(entry, path.join(dir, 'settings-marked'), { plugins: [marker] });
  const keyFile = path.join(dir, 'profile-key.bin');
  writeFileSync(keyFile, randomBytes(32));
  const out = execFileSync(process.execPath, [file], {
    env: {
      PATH: process.env.PATH ?? '',
      AWS_REGION: 'eu-west-1',
      TABLE_NAME: 'bench',
      PROFILE_LOCAL_KEY_FILE: keyFile,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

/** Runs the benchmark, writes bench-results/bundles.json and returns the report with its rows. */
async function measureBundles(): Promise<{ report: BundlesReport; rows: SummaryRow[] }> {
  const started = performance.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'voice-org-bundles-'));
  try {
    const bareEsm = await buildLikeTheStack(BARE_HANDLER, path.join(dir, 'bare-esm'));
    // The CommonJS reference: the same handler as NodejsFunction built it before (main fields first, no banner).
    const bareCjsFile = path.join(dir, 'bare-cjs/index.js');
    await build({
      ...stackBuildOptions(BARE_HANDLER, bareCjsFile),
      format: 'cjs',
      mainFields: undefined,
      banner: undefined,
      absWorkingDir: REPO_ROOT,
    });

    const synthStarted = performance.now();
    const bundles = synthesizedBundles(path.join(dir, 'cdk.out'));
    const definitions = new Map(listFunctions().map((f) => [f.handler, f]));
    const authorizer = bundles.find((fn) => definitions.get(fn.handlerModule)?.kind === 'authorizer')!;
    console.log(`Synthesized ${STACK_NAME}: ${bundles.length} bundles in ${secondsSince(synthStarted)} s; starting the local deployment`);
    const invocations = await startInvocationBench(authorizer);
    const loadAverageBefore = os.loadavg()[0];
    let measured: { load: number; first: number; answered: string }[];
    try {
      console.log(`Measuring module load and first invocation, ${SAMPLES} samples each (load average ${loadAverageBefore.toFixed(2)})`);
      const bareEvent = { pathParameters: { orgId: 'org_bench' } };
      measured = await medianInvocations([
        () => invocations.invoke(bareEsm.file, invocations.bareEnvironment(), bareEvent, 'bare'),
        ...bundles.map(
          (fn) => () =>
            invocations.invoke(
              fn.bundleFile,
              fn.environment,
              invocations.sampleOf(fn.handlerModule).event,
              path.basename(fn.handlerModule),
            ),
        ),
      ]);
    } finally {
      await invocations.stop();
    }
    const loadAverageAfter = os.loadavg()[0];
    const [bareCjsLoad] = medianLoads([{ file: bareCjsFile, env: loadEnvironment({ TABLE_NAME: 'bench' }) }]);
    const [bare, ...bundleRuns] = measured;
    const bareBytes = statSync(bareEsm.file).size;
    const functions: BundleFigures[] = bundles
      .map((fn, i) => {
        const definition = definitions.get(fn.handlerModule)!;
        return {
          name: fn.handlerModule.replace(/^functions\//, ''),
          group: groupOf(definition.kind, definition.permissions),
          dynamodb_only: definition.kind === 'http' && usesOnlyDynamoDb(definition.permissions),
          file: path.basename(fn.bundleFile),
          bytes: fn.bundleBytes,
          bytes_ratio: round(fn.bundleBytes / bareBytes),
          load_cpu_ms: round(bundleRuns[i].load),
          load_ratio: round(bundleRuns[i].load / bare.load),
          first_cpu_ms: round(bundleRuns[i].first),
          first_ratio: round(bundleRuns[i].first / bare.first),
          answered: bundleRuns[i].answered,
        };
      })
      .sort((a, b) => b.bytes - a.bytes);

    const largestDynamoDbOnly = functions.find((fn) => fn.dynamodb_only)!;
    const settings = await buildLikeTheStack(path.join(REPO_ROOT, `${SETTINGS_HANDLER}.ts`), path.join(dir, 'settings'));
    const largest = await buildLikeTheStack(
      path.join(REPO_ROOT, `functions/${largestDynamoDbOnly.name}.ts`),
      path.join(dir, 'largest-dynamodb-only'),
    );
    const report: BundlesReport = {
      format: functions.every((fn) => fn.file === 'index.mjs') ? 'esm' : 'cjs',
      bare: {
        esm: { bytes: bareBytes, load_cpu_ms: round(bare.load), first_cpu_ms: round(bare.first) },
        cjs: { bytes: statSync(bareCjsFile).size, load_cpu_ms: round(bareCjsLoad) },
      },
      load_average: [round(loadAverageBefore), round(loadAverageAfter)],
      functions,
      encryption_sdk: await encryptionSdkLoading(dir),
      package_costs: {
        'bare-dynamodb-handler': packageCosts(bareEsm.metafile),
        [largestDynamoDbOnly.name]: packageCosts(largest.metafile),
        [SETTINGS_HANDLER.replace(/^functions\//, '')]: packageCosts(settings.metafile),
      },
    };
    writeReport(RESULTS_FILE, { ...reportHeader(0, SAMPLES), ...report }, secondsSince(started));
    return { report, rows: bundleRows(report) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const times = (ratio: number) => `${ratio.toFixed(2)}×`;

const GROUPS: FunctionGroup[] = [
  'authorizer',
  'DynamoDB-only routes',
  'profile routes',
  'webhook routes',
  'other routes',
  'consumers and event functions',
];

/** The worst of a group on each measure: the largest ratio, with its function. */
function worstOf(functions: BundleFigures[]) {
  const worst = (key: 'bytes_ratio' | 'load_ratio' | 'first_ratio') => functions.reduce((a, b) => (b[key] > a[key] ? b : a));
  return { bytes: worst('bytes_ratio'), load: worst('load_ratio'), first: worst('first_ratio') };
}

function bundleRows(report: BundlesReport): SummaryRow[] {
  const sdk = report.encryption_sdk;
  const sdkOnDemand = !sdk.loaded_at_module_load && !sdk.loaded_by_settings_cipher && sdk.loaded_by_first_encrypt;
  const goalRows = (label: string, functions: BundleFigures[], goals: { bytes: number; load: number; first: number }): SummaryRow[] => {
    const worst = worstOf(functions);
    return [
      {
        area: 'bundles',
        measure: `${label}: largest bundle / bare (${worst.bytes.name}, ${kb(worst.bytes.bytes)})`,
        value: times(worst.bytes.bytes_ratio),
        goal: `≤ ${times(goals.bytes)}`,
        met: worst.bytes.bytes_ratio <= goals.bytes,
      },
      {
        area: 'bundles',
        measure: `${label}: worst module-load CPU / bare (${worst.load.name}, ${worst.load.load_cpu_ms} ms)`,
        value: times(worst.load.load_ratio),
        goal: `≤ ${times(goals.load)}`,
        met: worst.load.load_ratio <= goals.load,
      },
      {
        area: 'bundles',
        measure: `${label}: worst first-invocation CPU / bare (${worst.first.name}, ${worst.first.first_cpu_ms} ms)`,
        value: times(worst.first.first_ratio),
        goal: `≤ ${times(goals.first)}`,
        met: worst.first.first_ratio <= goals.first,
      },
    ];
  };
  const dynamoDbOnly = report.functions.filter((fn) => fn.group === 'DynamoDB-only routes');
  const others = GROUPS.filter((group) => group !== 'authorizer' && group !== 'DynamoDB-only routes').flatMap((group) => {
    const members = report.functions.filter((fn) => fn.group === group);
    if (members.length === 0) return [];
    const worst = worstOf(members);
    return [
      {
        area: 'bundles',
        measure: `${group} (${members.length}): worst bundle / load / first invocation, × bare`,
        value: `${times(worst.bytes.bytes_ratio)} / ${times(worst.load.load_ratio)} / ${times(worst.first.first_ratio)}`,
      },
    ];
  });
  return [
    {
      area: 'bundles',
      measure: 'output format (module-first resolution, tree-shaken)',
      value: report.format.toUpperCase(),
      goal: 'ESM',
      met: report.format === 'esm',
    },
    {
      area: 'bundles',
      measure: `bare ESM DynamoDB handler: bytes, load CPU, first-invocation CPU (bare CJS: ${kb(report.bare.cjs.bytes)}, ${report.bare.cjs.load_cpu_ms} ms); load average ${report.load_average.join(' → ')}`,
      value: `${kb(report.bare.esm.bytes)}, ${report.bare.esm.load_cpu_ms} ms, ${report.bare.esm.first_cpu_ms} ms`,
    },
    ...goalRows(`DynamoDB-only API functions (${dynamoDbOnly.length})`, dynamoDbOnly, GOALS.dynamodb),
    ...goalRows(
      'authorizer',
      report.functions.filter((fn) => fn.group === 'authorizer'),
      GOALS.authorizer,
    ),
    ...others,
    {
      area: 'bundles',
      measure: 'Get settings without a profile loads the Encryption SDK (at load / making its cipher; first encrypt does)',
      value: `${sdk.loaded_at_module_load ? 'yes' : 'no'} / ${sdk.loaded_by_settings_cipher ? 'yes' : 'no'}; ${sdk.loaded_by_first_encrypt ? 'yes' : 'no'}`,
      goal: 'no / no; yes',
      met: sdkOnDemand,
    },
  ];
}

/** Runs the bundles benchmark and returns its rows of the benchmark table (also writing bench-results/bundles.json). */
export const summary: SummaryBench = async () => (await measureBundles()).rows;

function printResults(report: BundlesReport): void {
  console.log(
    `\nBundles (${report.format.toUpperCase()}), against the bare ESM DynamoDB handler: ${kb(report.bare.esm.bytes)}, module load ${report.bare.esm.load_cpu_ms} ms CPU, first invocation ${report.bare.esm.first_cpu_ms} ms CPU`,
  );
  console.log(`(load average ${report.load_average.join(' → ')}; medians of ${SAMPLES} samples)`);
  console.log(`(the same handler as CJS: ${kb(report.bare.cjs.bytes)}, ${report.bare.cjs.load_cpu_ms} ms)\n`);
  printTable(
    ['function', 'group', 'bundle', 'x bare', 'load CPU ms', 'x bare', 'first inv. CPU ms', 'x bare', 'answer'],
    report.functions.map((fn) => [
      fn.name,
      fn.group,
      kb(fn.bytes),
      times(fn.bytes_ratio),
      fn.load_cpu_ms.toFixed(1),
      times(fn.load_ratio),
      fn.first_cpu_ms.toFixed(1),
      times(fn.first_ratio),
      fn.answered,
    ]),
    2,
  );
  for (const [name, costs] of Object.entries(report.package_costs)) {
    const total = costs.reduce((sum, cost) => sum + cost.bytes, 0);
    console.log(`\n${name}: ${kb(total)} of code, by package (esbuild metafile)`);
    printTable(
      ['package', 'bytes', 'share'],
      costs.slice(0, 14).map((cost) => [cost.package, kb(cost.bytes), `${((cost.bytes / total) * 100).toFixed(1)} %`]),
      1,
    );
  }
}

if (startedDirectly(__filename)) runAlone(measureBundles, ({ report }) => printResults(report));
