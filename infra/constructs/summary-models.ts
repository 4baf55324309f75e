import { Aws, CfnMapping, Stack, Token } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { BedrockAction } from '../../shared/function-permissions';
import {
  DEFAULT_MAP_REGIONS,
  DEFAULT_MODELS,
  assertModelMapRunsIn,
  defaultModelMapIn,
  defaultModelMapOrFail,
  entriesOf,
  foundationModelOf,
  textOf,
  type ModelMapEntries,
} from '../bedrock-profiles';
import { acknowledge, findingTextOf } from './acknowledge';

/**
 * The Bedrock models summaries are written with (BEDROCK_MODEL_MAP, docs/summaries.md "Model map"),
 * and what a function that invokes them is given: the map as its variable and the grant on exactly
 * its models, from one value, so they cannot drift apart.
 */
export interface SummaryModels {
  /** The variable the summary consumer reads (shared/config.ts). */
  readonly environment: { BEDROCK_MODEL_MAP: string };
  /** Grants these Bedrock actions on the map's models only. */
  grantInvoke(role: iam.IRole, actions: readonly BedrockAction[]): void;
}

/**
 * The stack's summary models: the map given (context `bedrockModelMap`), refused when it names a
 * profile of another geography than the stack's Region; else the default map in the stack's Region
 * (infra/bedrock-profiles.ts), which fails the synth where a model has no profile. An
 * environment-agnostic stack reads its default map from a mapping by Region: it deploys only in
 * the Regions the map covers (CloudFormation finds no mapping entry in another).
 */
export function summaryModels(stack: Stack, given?: string): SummaryModels {
  const region = Token.isUnresolved(stack.region) ? undefined : stack.region;
  const withModels = (map: ModelMapEntries) => map.map(([selected, modelId]) => [selected, modelOf(modelId)] as const);
  let entries: readonly (readonly [selectedModel: string, model: MapModel])[];
  if (given !== undefined) {
    assertModelMapRunsIn(entriesOf(given), region);
    entries = withModels(entriesOf(given));
  } else {
    entries = region ? withModels(defaultModelMapOrFail(region)) : defaultMapByRegion(stack);
  }
  const models = [...new Map(entries.map(([, model]) => [model.id, model])).values()];
  return {
    environment: { BEDROCK_MODEL_MAP: textOf(entries.map(([selected, model]) => [selected, model.id] as const)) },
    grantInvoke(role, actions) {
      for (const statement of invokeStatements(Stack.of(role), actions, models)) role.addToPrincipalPolicy(statement);
      acknowledgeEveryRegion(role, models);
    },
  };
}

/** A model id of the map (an ARN, an inference profile, or a foundation model), with the foundation model of a profile. */
interface MapModel {
  id: string;
  /** Set for an inference profile: the model it routes to, in any of its Regions. */
  profileOf?: string;
}

const modelOf = (id: string): MapModel =>
  id.startsWith('arn:') || foundationModelOf(id) === id ? { id } : { id, profileOf: foundationModelOf(id) };

/** The default map with each profile as the mapping's entry for the deploying Region (Fn::FindInMap). */
function defaultMapByRegion(stack: Stack): (readonly [string, MapModel])[] {
  const keyOf = (model: string) => model.replace(/[^A-Za-z0-9]/g, '');
  const mapping: Record<string, Record<string, string>> = {};
  for (const region of DEFAULT_MAP_REGIONS) {
    for (const [, profile] of defaultModelMapIn(region).entries!) (mapping[region] ??= {})[keyOf(foundationModelOf(profile))] = profile;
  }
  const byRegion = new CfnMapping(stack, 'SummaryModels', { mapping, lazy: true });
  // One reference per model (gpt-4o and gemini-2.5-pro share Nova Pro), so each grants once.
  const models = new Map(
    [...new Set(DEFAULT_MODELS.map(([, model]) => model))].map((model) => [
      model,
      { id: byRegion.findInMap(Aws.REGION, keyOf(model)), profileOf: model },
    ]),
  );
  return DEFAULT_MODELS.map(([selected, model]) => [selected, models.get(model)!] as const);
}

/**
 * What `bedrock:InvokeModel` (which Converse needs) must allow for the map's models: the profiles'
 * ARNs in the stack's Region, the foundation models given by id in it, the ARNs given; and the
 * foundation model of each profile in every Region it may route to (`*`, which the global
 * profiles' Region-less model ARN matches too), only when called through one of those profiles.
 */
function invokeStatements(stack: Stack, actions: readonly BedrockAction[], models: readonly MapModel[]): iam.PolicyStatement[] {
  const bedrockArn = (region: string, account: string, resource: string) =>
    `arn:${stack.partition}:bedrock:${region}:${account}:${resource}`;
  const profileArn = (model: MapModel) => bedrockArn(stack.region, stack.account, `inference-profile/${model.id}`);
  const profiles = models.filter((model) => model.profileOf);
  const bedrockActions = actions.map((action) => `bedrock:${action}`);
  const direct = models.map((model) =>
    model.profileOf
      ? profileArn(model)
      : model.id.startsWith('arn:')
        ? model.id
        : bedrockArn(stack.region, '', `foundation-model/${model.id}`),
  );
  const statements = [new iam.PolicyStatement({ actions: bedrockActions, resources: direct })];
  if (profiles.length) {
    statements.push(
      new iam.PolicyStatement({
        actions: bedrockActions,
        resources: [...new Set(profiles.map((model) => bedrockArn('*', '', `foundation-model/${model.profileOf}`)))],
        conditions: { StringLike: { 'bedrock:InferenceProfileArn': profiles.map(profileArn) } },
      }),
    );
  }
  return statements;
}

/** Acknowledges the foundation models granted in every Region, as cdk-nag names them for this role's stack. */
function acknowledgeEveryRegion(role: iam.IRole, models: readonly MapModel[]): void {
  const stack = Stack.of(role);
  for (const model of new Set(models.flatMap((m) => (m.profileOf ? [m.profileOf] : [])))) {
    acknowledge(
      role,
      `AwsSolutions-IAM5[Resource::${findingTextOf(role, `arn:${stack.partition}:bedrock:*::foundation-model/${model}`)}]`,
      "An inference profile routes a request to its model in any of the profile's Regions: that model is granted in every Region, only when invoked through the configured profiles (bedrock:InferenceProfileArn).",
    );
  }
}
