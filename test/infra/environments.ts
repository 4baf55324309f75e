import type { Environment } from 'aws-cdk-lib';
import type { VoiceOrgStackProps } from '../../infra/stack';

/**
 * The environments the infra suites synthesize the stack in. The CDK CLI always hands the app a
 * Region (the configured one, else us-east-1) and, with credentials, an account, so the stack is
 * environment-agnostic only when synthesized without the CLI. Each suite that reads a template
 * runs in every one: ARNs, cdk-nag's findings and the default summary models all follow the Region.
 */
export interface SynthEnvironment {
  name: string;
  env?: Environment;
  /** Props the environment needs besides its env (a model map where the default has none). */
  props?: Partial<VoiceOrgStackProps>;
  /** The model ids its summary map may name, when not those of defaultProfilesIn (a map given). */
  summaryModels?: RegExp;
}

/**
 * The model ids a Region's default summary map may name (docs/deploy.md, "Summaries in every
 * Region"): the inference profiles of its geography, `us.*` in US Regions, `eu.*` in EU Regions,
 * `apac.*` in Asia-Pacific, or `global.*` ones.
 */
export function defaultProfilesIn(region: string): RegExp {
  const geography = region.startsWith('us-gov-')
    ? 'us-gov'
    : region.startsWith('us-')
      ? 'us'
      : region.startsWith('eu-')
        ? 'eu'
        : region.startsWith('ap-')
          ? 'apac'
          : undefined;
  return new RegExp(`^(${geography ? `${geography}|` : ''}global)\\.[a-z]+\\.`);
}

/** The account the suites synthesize in (AWS's documentation example). */
export const TEST_ACCOUNT = '123456789012';

/**
 * A map for AWS GovCloud (US-West), where the default models have no inference profile: the Nova
 * models in the Region itself, Claude Sonnet 4.5 through its `us-gov.` profile.
 */
export const GOVCLOUD_MODEL_MAP =
  'gpt-4o-mini=amazon.nova-lite-v1:0,gpt-4o=amazon.nova-pro-v1:0,claude-sonnet-4-5=us-gov.anthropic.claude-sonnet-4-5-20250929-v1:0,gemini-2.5-pro=amazon.nova-pro-v1:0';

export const SYNTH_ENVIRONMENTS: readonly SynthEnvironment[] = [
  { name: 'environment-agnostic' },
  { name: 'us-east-1', env: { account: TEST_ACCOUNT, region: 'us-east-1' } },
  { name: 'eu-west-1', env: { account: TEST_ACCOUNT, region: 'eu-west-1' } },
  { name: 'ap-southeast-2', env: { account: TEST_ACCOUNT, region: 'ap-southeast-2' } },
  {
    name: 'us-gov-west-1',
    env: { account: TEST_ACCOUNT, region: 'us-gov-west-1' },
    props: { bedrockModelMap: GOVCLOUD_MODEL_MAP },
    summaryModels: /^(amazon\.nova-(lite|pro)-v1:0|us-gov\.anthropic\..+)$/,
  },
];

/** The Regions the default summary map covers, as docs/deploy.md lists them ("Summaries in every Region"). */
export const DEFAULT_MAP_REGIONS_DOCUMENTED = [
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-south-1',
  'ap-southeast-1',
  'ap-southeast-2',
  'eu-central-1',
  'eu-north-1',
  'eu-west-1',
  'eu-west-3',
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
];

/** The environments as describe.each rows: [name, environment]. */
export const EACH_ENVIRONMENT = SYNTH_ENVIRONMENTS.map((environment) => [environment.name, environment] as const);

/** The stack props of an environment, over the given ones. */
export const propsIn = (environment: SynthEnvironment, props: Partial<VoiceOrgStackProps> = {}): Partial<VoiceOrgStackProps> => ({
  ...props,
  ...environment.props,
  ...(environment.env ? { env: environment.env } : {}),
});
