import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assemblyTemplates } from '../../infra/sam/assembly';
import { QUOTAS, quotaTable, quotaUses, type QuotaName, type QuotaUse } from './aws-quotas';
import { TEST_ACCOUNT } from './environments';

/**
 * `npx cdk synth --quiet` as an operator runs it before `cdk deploy`: the real CDK CLI, with an
 * account and a Region resolved, on a fresh output folder, bundling every function. The CLI sets
 * the app's CDK_DEFAULT_REGION itself (from AWS_REGION or the profile's region, else us-east-1),
 * so the Region is chosen the way an operator chooses it, with AWS_REGION. It must exit 0 (cdk-nag
 * runs in the app: an unacknowledged finding fails it), its templates must name the Region's
 * summary models only, and its bundles must fit Lambda's package size.
 */

const REGION = 'eu-west-1';
const repoRoot = path.resolve(__dirname, '../..');
/** The stack name of cdk.json's stage (infra/app.ts). */
const STACK_NAME = 'VoiceOrgApi-prod';

let outdir: string;
let result: ReturnType<typeof spawnSync>;
let seconds: number;

beforeAll(() => {
  outdir = mkdtempSync(path.join(os.tmpdir(), 'voice-org-cli-synth-'));
  const started = Date.now();
  result = spawnSync('npx', ['cdk', 'synth', '--quiet', '--output', outdir], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: {
      ...process.env,
      CDK_DEFAULT_ACCOUNT: TEST_ACCOUNT,
      CDK_DEFAULT_REGION: REGION,
      AWS_REGION: REGION,
      // No credentials here: the CLI then keeps CDK_DEFAULT_ACCOUNT. Skip its probe of an EC2 instance's metadata service.
      AWS_EC2_METADATA_DISABLED: 'true',
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  seconds = (Date.now() - started) / 1000;
}, 600_000);

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

describe(`npx cdk synth --quiet (account ${TEST_ACCOUNT}, AWS_REGION=${REGION})`, () => {
  it('exits 0 with no error: cdk-nag finds nothing unacknowledged', () => {
    const errors = `${result.stderr}`.split('\n').filter((line) => /\bERROR\b|Synthesis finished with errors/.test(line));
    expect({ status: result.status, errors }).toEqual({ status: 0, errors: [] });
    console.log(`npx cdk synth --quiet: ${seconds.toFixed(1)} s`);
  });

  it("synthesizes the stack for that account and Region: its grants' ARNs hold them", () => {
    const manifest = JSON.parse(readFileSync(path.join(outdir, 'manifest.json'), 'utf8'));
    expect(manifest.artifacts[STACK_NAME].environment).toBe(`aws://${TEST_ACCOUNT}/${REGION}`);
    const templates = assemblyTemplates(outdir, STACK_NAME);
    expect(templates.length).toBeGreaterThan(1);
    const root = JSON.stringify(templates[0].template);
    expect(root).toContain(`:transcribe:${REGION}:${TEST_ACCOUNT}:transcription-job/voice-org.*`);
    expect(root).toContain(`:bedrock:${REGION}:${TEST_ACCOUNT}:inference-profile/eu.`);
    console.log(
      `resources per template: ${templates.map(({ file, template }) => `${file} ${Object.keys(template.Resources).length}`).join(', ')}`,
    );
  });

  it('names only EU or global inference profiles', () => {
    const text = assemblyTemplates(outdir, STACK_NAME)
      .map(({ template }) => JSON.stringify(template))
      .join('\n');
    const profiles = [
      ...new Set(
        [...text.matchAll(/\b[a-z-]+\.(?:amazon|anthropic|meta|mistral|cohere|deepseek|openai|qwen)\.[\w.-]+-v\d+(?::\d+)?/g)].map(
          (match) => match[0],
        ),
      ),
    ];
    expect(profiles.length).toBeGreaterThan(0);
    expect(profiles.filter((profile) => !/^(eu|global)\./.test(profile))).toEqual([]);
  });

  it("fits every quota, the functions' unzipped packages included", () => {
    const uses: QuotaUse[] = quotaUses(outdir, STACK_NAME);
    expect(uses.map((use) => use.quota).sort()).toEqual((Object.keys(QUOTAS) as QuotaName[]).sort());
    for (const use of uses) expect({ ...use, within: use.used <= QUOTAS[use.quota].limit }).toEqual({ ...use, within: true });
    console.log(`AWS quotas of the CLI's assembly:\n${quotaTable(new Map([[REGION, uses]]))}`);
  });
});
