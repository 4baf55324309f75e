import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { VoiceOrgStack } from '../../infra/stack';
import { QUOTAS, quotaTable, quotaUses, REFERENCE_CHARACTERS, type QuotaName, type QuotaUse } from './aws-quotas';
import { EACH_ENVIRONMENT, propsIn } from './environments';

/**
 * Every template of the synthesized assembly, root and nested, within the AWS quotas a deploy
 * would hit (test/infra/aws-quotas.ts), in every environment the CLI may synthesize in. The
 * functions are not bundled here: their package sizes are checked on the CLI's assembly
 * (test/infra/cli-synth.test.ts).
 */

const STACK_NAME = 'VoiceOrgApi-quotas';

/** The quotas an assembly without bundles can be checked against: all but the packages' size. */
const TEMPLATE_QUOTAS = (Object.keys(QUOTAS) as QuotaName[]).filter((quota) => quota !== 'lambdaUnzippedBytes');

/** Each environment's uses, printed as one table once all are measured. */
const usesByEnvironment = new Map<string, QuotaUse[]>();

afterAll(() => {
  if (usesByEnvironment.size)
    console.log(`AWS quotas of the assembly without bundles, most used in each environment:\n${quotaTable(usesByEnvironment)}`);
});

describe.each(EACH_ENVIRONMENT)('AWS quotas of the assembly (%s)', (name, environment) => {
  let uses: QuotaUse[];

  beforeAll(() => {
    const outdir = mkdtempSync(path.join(os.tmpdir(), 'voice-org-quotas-'));
    try {
      const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
      new VoiceOrgStack(app, STACK_NAME, { stage: 'prod', ...propsIn(environment) });
      app.synth();
      uses = quotaUses(outdir, STACK_NAME);
      usesByEnvironment.set(name, uses);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });

  it('measures every quota a template can hit', () => {
    expect(uses.map((use) => use.quota).sort()).toEqual([...TEMPLATE_QUOTAS].sort());
  });

  it.each(TEMPLATE_QUOTAS)('stays within %s', (quota) => {
    const use = uses.find((u) => u.quota === quota)!;
    expect({ ...use, within: use.used <= QUOTAS[quota].limit }).toEqual({ ...use, within: true });
  });
});

describe('the quota check', () => {
  it("finds a role whose inline policies pass IAM's 10,240 characters, counting each reference at its longest", () => {
    const outdir = mkdtempSync(path.join(os.tmpdir(), 'voice-org-quotas-'));
    try {
      const statement = (i: number) => ({ Effect: 'Allow', Action: 'dynamodb:GetItem', Resource: { 'Fn::GetAtt': [`Table${i}`, 'Arn'] } });
      const template = {
        Resources: {
          Role: { Type: 'AWS::IAM::Role', Properties: {} },
          Policy: {
            Type: 'AWS::IAM::Policy',
            Properties: { Roles: [{ Ref: 'Role' }], PolicyDocument: { Statement: Array.from({ length: 60 }, (_, i) => statement(i)) } },
          },
        },
      };
      writeFileSync(path.join(outdir, 'Small.template.json'), JSON.stringify(template));
      writeFileSync(path.join(outdir, 'Small.assets.json'), JSON.stringify({ files: {} }));
      const role = quotaUses(outdir, 'Small').find((use) => use.quota === 'rolePolicyCharacters')!;
      // The document as IAM would get it, each table's ARN counted at the longest a reference may resolve to.
      const longest = { Statement: Array.from({ length: 60 }, () => ({ ...statement(0), Resource: 'x'.repeat(REFERENCE_CHARACTERS) })) };
      expect(role.used).toBe(JSON.stringify(longest).length);
      expect(role.used).toBeGreaterThan(QUOTAS.rolePolicyCharacters.limit);
      expect(role.where).toBe('Small.template.json Role');
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
