import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { VoiceOrgStack, type VoiceOrgStackProps } from '../../infra/stack';
import { EACH_ENVIRONMENT, propsIn } from './environments';

/**
 * cdk-nag's AwsSolutions checks on the synthesized stack, as infra/app.ts runs them on every
 * `cdk synth`, in every environment the CLI may hand the app (test/infra/environments.ts), where
 * an acknowledgement must name a resource as its grant renders it: no finding may be left that is
 * neither fixed nor acknowledged, every acknowledgement (in infra/constructs/) gives a reason,
 * and none is stale (each one still covers a finding the checks would otherwise report).
 */

type Json = any; // the validation report is untyped JSON

interface Acknowledgement {
  id: string;
  reason: string;
  path: string;
}

interface Finding {
  ruleId: string;
  path: string;
}

/** Every acknowledgement recorded with Validations.of(scope).acknowledge() under a construct. */
function acknowledgementsUnder(root: IConstruct): Acknowledgement[] {
  return root.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>))
      .map(([id, reason]) => ({ id: id.replace(/^annotation::/i, ''), reason, path: construct.node.path })),
  );
}

/** What the checks find with every acknowledgement ignored: each rule id with the construct path of each resource. */
function rawFindings(root: IConstruct): Finding[] {
  const checks = new AwsSolutionsChecks(root);
  // The pack's own lookup of acknowledgements, switched off to see what they cover.
  (checks as unknown as { isAcknowledged: () => boolean }).isAcknowledged = () => false;
  const report = checks.validateScope(root);
  return report.violations.flatMap((violation) =>
    violation.violatingResources.map((resource) => ({ ruleId: violation.ruleName, path: resource.constructPath! })),
  );
}

const covers = (ack: Acknowledgement, finding: Finding) =>
  ack.id === finding.ruleId && (finding.path === ack.path || finding.path.startsWith(`${ack.path}/`));

function synthWithChecks(props: Partial<VoiceOrgStackProps>) {
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'voice-org-nag-'));
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new VoiceOrgStack(app, 'NagStack', { stage: 'test', ...props });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  let error: Error | undefined;
  try {
    app.synth();
  } catch (e) {
    error = e as Error;
  }
  const report: Json = JSON.parse(readFileSync(path.join(outdir, 'validation-report.json'), 'utf8'));
  rmSync(outdir, { recursive: true, force: true });
  return { stack, report, error };
}

const EXTERNAL_ISSUER: Partial<VoiceOrgStackProps> = {
  idTokenIssuer: { issuer: 'https://issuer.example.com', audience: 'client-1', jwksUrl: 'https://issuer.example.com/jwks' },
};

/** Every environment with the Cognito user pool, and the external issuer in two (its acknowledgements differ, not by Region). */
const CASES: [string, Partial<VoiceOrgStackProps>][] = [
  ...EACH_ENVIRONMENT.map(
    ([name, environment]) => [`Cognito user pool, ${name}`, propsIn(environment)] as [string, Partial<VoiceOrgStackProps>],
  ),
  ...EACH_ENVIRONMENT.filter(([name]) => ['environment-agnostic', 'eu-west-1'].includes(name)).map(
    ([name, environment]) =>
      [`external ID token issuer, ${name}`, propsIn(environment, EXTERNAL_ISSUER)] as [string, Partial<VoiceOrgStackProps>],
  ),
];

describe.each(CASES)('cdk-nag AwsSolutions checks (%s)', (_name, props) => {
  let result: ReturnType<typeof synthWithChecks>;
  let acknowledgements: Acknowledgement[];
  let findings: Finding[];

  beforeAll(() => {
    result = synthWithChecks(props);
    acknowledgements = acknowledgementsUnder(result.stack);
    findings = rawFindings(result.stack);
  });

  it('synthesizes with no unacknowledged error or warning', () => {
    const left = (result.report.pluginReports as Json[]).flatMap((plugin) =>
      (plugin.violations as Json[]).map((v) => ({
        plugin: plugin.pluginName,
        rule: v.ruleName,
        severity: v.severity,
        at: v.violatingConstructs.map((c: Json) => c.constructPath),
      })),
    );
    expect(left).toEqual([]);
    expect(result.error).toBeUndefined();
  });

  it('runs the checks for real: without the acknowledgements they would report findings', () => {
    expect(findings.length).toBeGreaterThan(0);
    for (const finding of findings) {
      expect({ finding, acknowledged: acknowledgements.some((ack) => covers(ack, finding)) }).toEqual({ finding, acknowledged: true });
    }
  });

  it('gives every acknowledgement an AwsSolutions rule id and a real reason', () => {
    expect(acknowledgements.length).toBeGreaterThan(0);
    for (const ack of acknowledgements) {
      expect(ack.id).toMatch(/^AwsSolutions-[A-Z]+\d+(\[.+\])?$/);
      expect({
        id: ack.id,
        path: ack.path,
        long: ack.reason.length >= 60,
        placeholder: /\b(todo|tbd|fixme|n\/a)\b/i.test(ack.reason),
      }).toEqual({
        id: ack.id,
        path: ack.path,
        long: true,
        placeholder: false,
      });
    }
  });

  it('checks every route stack too: findings inside each nested stack, acknowledged there', () => {
    for (const routeStack of result.stack.routeStacks) {
      const inside = (p: string) => p.startsWith(`${routeStack.node.path}/`);
      expect({
        area: routeStack.area,
        findings: findings.some((f) => inside(f.path)),
        acknowledgements: acknowledgements.some((a) => inside(a.path)),
      }).toEqual({
        area: routeStack.area,
        findings: true,
        acknowledgements: true,
      });
    }
  });

  it('has no stale acknowledgement: each covers a finding the checks would otherwise report', () => {
    const stale = acknowledgements.filter((ack) => !findings.some((finding) => covers(ack, finding))).map(({ id, path }) => ({ id, path }));
    expect(stale).toEqual([]);
  });
});
