import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { assemblyTemplates } from '../../infra/sam/assembly';
import type { Json } from './template';

/**
 * The AWS quotas a deploy of the synthesized assembly would hit, each with where AWS states it,
 * and what every template of the assembly (the root's and each nested stack's) uses of them.
 * None of these can be raised but API Gateway's resources and authorizers, the rules per event
 * bus and the indexes per table, and those only on request: a template must fit the default.
 */
export interface Quota {
  what: string;
  limit: number;
  source: string;
}

const CLOUDFORMATION = 'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html';
const IAM = 'https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_iam-quotas.html';
const LAMBDA = 'https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html';
const API_GATEWAY = 'https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-execution-service-limits-table.html';
const EVENTBRIDGE = 'https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-quota.html';
const DYNAMODB = 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html';

export const QUOTAS = {
  resourcesPerTemplate: { what: 'CloudFormation resources per template', limit: 500, source: CLOUDFORMATION },
  parametersPerTemplate: { what: 'CloudFormation parameters per template', limit: 200, source: CLOUDFORMATION },
  outputsPerTemplate: { what: 'CloudFormation outputs per template', limit: 200, source: CLOUDFORMATION },
  mappingsPerTemplate: { what: 'CloudFormation mappings per template', limit: 200, source: CLOUDFORMATION },
  attributesPerMapping: { what: 'CloudFormation attributes per mapping', limit: 200, source: CLOUDFORMATION },
  // CDK deploys every template from S3 (the root's through the bootstrap bucket, the nested ones as assets): 1 MB, read as 10^6 bytes.
  templateBodyBytes: { what: 'CloudFormation template body in S3 (bytes)', limit: 1_000_000, source: CLOUDFORMATION },
  rolePolicyCharacters: { what: 'IAM inline policies per role, characters without white space', limit: 10_240, source: IAM },
  managedPolicyCharacters: { what: 'IAM managed policy, characters without white space', limit: 6_144, source: IAM },
  managedPoliciesPerRole: { what: 'IAM managed policies attached to a role (default)', limit: 10, source: IAM },
  lambdaEnvironmentBytes: { what: 'Lambda environment variables per function (bytes)', limit: 4_096, source: LAMBDA },
  lambdaLayers: { what: 'Lambda layers per function', limit: 5, source: LAMBDA },
  lambdaMemoryMb: { what: 'Lambda memory (MB)', limit: 10_240, source: LAMBDA },
  lambdaTimeoutSeconds: { what: 'Lambda timeout (seconds)', limit: 900, source: LAMBDA },
  lambdaUnzippedBytes: { what: 'Lambda deployment package, unzipped (bytes)', limit: 250 * 1024 * 1024, source: LAMBDA },
  apiResources: { what: 'API Gateway resources per REST API', limit: 300, source: API_GATEWAY },
  apiAuthorizers: { what: 'API Gateway authorizers per REST API', limit: 10, source: API_GATEWAY },
  // 300 on a bus, 100 in af-south-1 and eu-south-1, where the stack does not deploy (infra/aws-regions.ts).
  rulesPerEventBus: { what: 'EventBridge rules per event bus', limit: 300, source: EVENTBRIDGE },
  targetsPerRule: { what: 'EventBridge targets per rule', limit: 5, source: EVENTBRIDGE },
  gsisPerTable: { what: 'DynamoDB global secondary indexes per table', limit: 20, source: DYNAMODB },
} as const satisfies Record<string, Quota>;

export type QuotaName = keyof typeof QUOTAS;

/** The most a quota is used anywhere in the assembly, and where. */
export interface QuotaUse {
  quota: QuotaName;
  used: number;
  where: string;
}

/**
 * How long a reference resolves to, at most (Ref, Fn::GetAtt, Fn::FindInMap, Fn::ImportValue):
 * the longest ARN of this stack (a queue's or a table's, with a stage name under 30 characters)
 * is shorter. The pseudo parameters count their longest value.
 */
export const REFERENCE_CHARACTERS = 128;
const PSEUDO_PARAMETERS: Record<string, string> = {
  'AWS::Partition': 'aws-us-gov',
  'AWS::Region': 'ap-southeast-2',
  'AWS::AccountId': '123456789012',
  'AWS::URLSuffix': 'amazonaws.com.cn',
  'AWS::StackName': 'VoiceOrgApi-a-stage-name-of-30-characters',
};

/** A value with every intrinsic function replaced by the text it may resolve to, at its longest. */
function rendered(value: Json): Json {
  if (Array.isArray(value)) return value.map(rendered);
  if (value === null || typeof value !== 'object') return value;
  if (typeof value.Ref === 'string' && PSEUDO_PARAMETERS[value.Ref]) return PSEUDO_PARAMETERS[value.Ref];
  if (value['Fn::Join']) return (value['Fn::Join'][1] as Json[]).map((part) => String(rendered(part))).join(value['Fn::Join'][0]);
  if (['Ref', 'Fn::GetAtt', 'Fn::FindInMap', 'Fn::ImportValue', 'Fn::Select', 'Fn::Sub'].some((fn) => fn in value))
    return 'x'.repeat(REFERENCE_CHARACTERS);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rendered(item)]));
}

/** A policy document's size as IAM counts it: its JSON without white space. */
const policyCharacters = (document: Json) => JSON.stringify(rendered(document)).replace(/\s/g, '').length;

/** The bytes of a directory's files (a function's unzipped package). */
function directoryBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce(
    (sum, entry) => sum + (entry.isDirectory() ? directoryBytes(path.join(dir, entry.name)) : statSync(path.join(dir, entry.name)).size),
    0,
  );
}

/**
 * What the stack's assembly uses of each quota, at most: every template of it walked, root and
 * nested. The unzipped package size is measured only where the functions were bundled (a CLI
 * synth); an assembly synthesized without bundling leaves it out.
 */
export function quotaUses(outdir: string, stackName: string): QuotaUse[] {
  // Each quota of a template starts unused (no managed policy, no mapping…); the packages' only where a bundle is found.
  const uses = new Map<QuotaName, QuotaUse>(
    (Object.keys(QUOTAS) as QuotaName[])
      .filter((quota) => quota !== 'lambdaUnzippedBytes')
      .map((quota) => [quota, { quota, used: 0, where: 'none' }]),
  );
  const use = (quota: QuotaName, used: number, where: string) => {
    if (used > (uses.get(quota)?.used ?? -1)) uses.set(quota, { quota, used, where });
  };
  const templates = assemblyTemplates(outdir, stackName);
  let apiResources = 0;
  let apiAuthorizers = 0;
  const rulesByBus = new Map<string, number>();
  for (const { file, template, assetDirOf } of templates) {
    const resources = Object.entries<Json>(template.Resources ?? {});
    use('resourcesPerTemplate', resources.length, file);
    use('parametersPerTemplate', Object.keys(template.Parameters ?? {}).length, file);
    use('outputsPerTemplate', Object.keys(template.Outputs ?? {}).length, file);
    use('mappingsPerTemplate', Object.keys(template.Mappings ?? {}).length, file);
    // A mapping's top-level keys, or the attributes under one of them, whichever is more.
    for (const [name, mapping] of Object.entries<Json>(template.Mappings ?? {})) {
      use(
        'attributesPerMapping',
        Math.max(Object.keys(mapping).length, ...Object.values<Json>(mapping).map((entry) => Object.keys(entry).length)),
        `${file} ${name}`,
      );
    }
    use('templateBodyBytes', statSync(path.join(outdir, file)).size, file);

    const inlineCharacters = new Map<string, number>();
    const managedByRole = new Map<string, number>();
    const addInline = (role: string, document: Json) =>
      inlineCharacters.set(role, (inlineCharacters.get(role) ?? 0) + policyCharacters(document));
    for (const [id, resource] of resources) {
      const properties = resource.Properties ?? {};
      switch (resource.Type) {
        case 'AWS::IAM::Role':
          for (const policy of properties.Policies ?? []) addInline(id, policy.PolicyDocument);
          managedByRole.set(id, (managedByRole.get(id) ?? 0) + (properties.ManagedPolicyArns ?? []).length);
          break;
        case 'AWS::IAM::Policy':
          for (const role of properties.Roles ?? [])
            addInline(typeof role?.Ref === 'string' ? role.Ref : JSON.stringify(role), properties.PolicyDocument);
          break;
        case 'AWS::IAM::ManagedPolicy':
          use('managedPolicyCharacters', policyCharacters(properties.PolicyDocument), `${file} ${id}`);
          for (const role of properties.Roles ?? [])
            if (typeof role?.Ref === 'string') managedByRole.set(role.Ref, (managedByRole.get(role.Ref) ?? 0) + 1);
          break;
        case 'AWS::Lambda::Function': {
          const variables = rendered(properties.Environment?.Variables ?? {});
          use(
            'lambdaEnvironmentBytes',
            Object.entries<string>(variables).reduce(
              (sum, [name, value]) => sum + Buffer.byteLength(name) + Buffer.byteLength(String(value)),
              0,
            ),
            `${file} ${id}`,
          );
          use('lambdaLayers', (properties.Layers ?? []).length, `${file} ${id}`);
          use('lambdaMemoryMb', properties.MemorySize ?? 128, `${file} ${id}`);
          use('lambdaTimeoutSeconds', properties.Timeout ?? 3, `${file} ${id}`);
          const s3Key = properties.Code?.S3Key;
          if (typeof s3Key === 'string') {
            // Only a staged bundle (asset.<hash> in the assembly) is the package Lambda unzips.
            const dir = assetDirOf(s3Key, id);
            if (path.dirname(dir) === path.resolve(outdir) && path.basename(dir).startsWith('asset.'))
              use('lambdaUnzippedBytes', directoryBytes(dir), `${file} ${id}`);
          }
          break;
        }
        case 'AWS::ApiGateway::Resource':
          apiResources++;
          break;
        case 'AWS::ApiGateway::Authorizer':
          apiAuthorizers++;
          break;
        case 'AWS::Events::Rule': {
          const bus = properties.EventBusName === undefined ? 'default' : JSON.stringify(properties.EventBusName);
          rulesByBus.set(bus, (rulesByBus.get(bus) ?? 0) + 1);
          use('targetsPerRule', (properties.Targets ?? []).length, `${file} ${id}`);
          break;
        }
        case 'AWS::DynamoDB::Table':
        case 'AWS::DynamoDB::GlobalTable':
          use('gsisPerTable', (properties.GlobalSecondaryIndexes ?? []).length, `${file} ${id}`);
          break;
      }
    }
    for (const [role, characters] of inlineCharacters) use('rolePolicyCharacters', characters, `${file} ${role}`);
    for (const [role, count] of managedByRole) use('managedPoliciesPerRole', count, `${file} ${role}`);
  }
  // The RestApi's root resource (/) is one of its resources too.
  use('apiResources', apiResources + 1, 'every template');
  use('apiAuthorizers', apiAuthorizers, 'every template');
  for (const [bus, rules] of rulesByBus) use('rulesPerEventBus', rules, `bus ${bus}`);
  return [...uses.values()];
}

/**
 * Uses as a table: each quota with its limit, then the most used and the headroom left in each
 * assembly (an environment's), and where the first one uses it most.
 */
export function quotaTable(usesByAssembly: ReadonlyMap<string, readonly QuotaUse[]>): string {
  const names = [...usesByAssembly.keys()];
  const quotas = [...new Set([...usesByAssembly.values()].flatMap((uses) => uses.map((use) => use.quota)))];
  const rows = quotas.map((quota) => {
    const { what, limit } = QUOTAS[quota];
    const cells = names.map((name) => {
      const use = usesByAssembly.get(name)!.find((u) => u.quota === quota);
      return use ? `${use.used.toLocaleString('en-US')} (${Math.floor((100 * (limit - use.used)) / limit)}%)` : '–';
    });
    const where = [...usesByAssembly.values()].flatMap((uses) => uses.filter((u) => u.quota === quota)).at(0)?.where ?? '';
    return `| ${what} | ${limit.toLocaleString('en-US')} | ${cells.join(' | ')} | ${where} |`;
  });
  return [`| quota | limit | ${names.join(' | ')} | where |`, `|---|---|${names.map(() => '---|').join('')}---|`, ...rows].join('\n');
}
