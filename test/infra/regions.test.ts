import { App } from 'aws-cdk-lib';
import { stackPropsFromContext } from '../../infra/context';
import { VoiceOrgStack, type VoiceOrgStackProps } from '../../infra/stack';
import { EVENT_CONSUMERS } from '../../shared/events/event-functions';
import { TEST_ACCOUNT } from './environments';
import { actionsOf, functionLogicalId, functionStatements, summaryModelIdsOf, textOfValue, wholeStack } from './template';

/**
 * Where the stack can be deployed (docs/deploy.md, "Regions" and "Summaries in every Region"): a
 * Region that lacks a service of the pipeline, or where a summary model has no inference profile,
 * fails the synth with the way out; the model map given as context is the functions' map and
 * their only Bedrock grant.
 */

const inRegion = (region: string, props: Partial<VoiceOrgStackProps> = {}) =>
  new VoiceOrgStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'RegionStack', {
    stage: 'test',
    env: { account: TEST_ACCOUNT, region },
    ...props,
  });
const propsOf = (context: Record<string, unknown>) => stackPropsFromContext(new App({ context }).node).props;

/** Summaries in London: the Nova models have no eu.* profile there, so the map names them in the Region; Claude through eu.*. */
const LONDON_MAP =
  'gpt-4o-mini=amazon.nova-lite-v1:0,gpt-4o=amazon.nova-pro-v1:0,claude-sonnet-4-5=eu.anthropic.claude-sonnet-4-5-20250929-v1:0';

describe('a stack whose Region is known', () => {
  it('refuses a Region without Transcribe, Translate or Bedrock, naming what is missing and where it can go', () => {
    expect(() => inRegion('sa-east-1')).toThrow(
      /cannot be deployed to sa-east-1: Amazon Translate \(translations\) is not offered there\. Choose one of .*us-east-1/,
    );
    expect(() => inRegion('cn-north-1')).toThrow(
      /cannot be deployed to cn-north-1: Amazon Translate \(translations\) and Amazon Bedrock \(summaries\) are not offered there/,
    );
  });

  it('refuses the default summary models where one has no profile, naming the models, the Region and the context key', () => {
    expect(() => inRegion('eu-west-2')).toThrow(
      /default summary models cannot run in eu-west-2: gpt-4o-mini \(amazon\.nova-lite-v1:0\).*-c bedrockModelMap=/,
    );
  });

  it("refuses a map given with a profile of another geography than the stack's Region", () => {
    expect(() => inRegion('eu-west-1', { bedrockModelMap: 'gpt-4o-mini=us.amazon.nova-lite-v1:0' })).toThrow(
      /bedrockModelMap cannot run in eu-west-1: gpt-4o-mini=us\.amazon\.nova-lite-v1:0 is a us\.\* inference profile/,
    );
  });
});

describe('a map given for London (eu-west-2)', () => {
  let template: ReturnType<typeof wholeStack>;
  let consumerId: string;

  beforeAll(() => {
    template = wholeStack(inRegion('eu-west-2', { bedrockModelMap: LONDON_MAP }));
    consumerId = functionLogicalId(template, EVENT_CONSUMERS.runSummary.handler);
  });

  it("is the summary consumer's BEDROCK_MODEL_MAP as given", () => {
    expect(summaryModelIdsOf(template, consumerId)).toEqual([
      'amazon.nova-lite-v1:0',
      'amazon.nova-pro-v1:0',
      'eu.anthropic.claude-sonnet-4-5-20250929-v1:0',
    ]);
  });

  it("is the grant: the Region's foundation models, the profile, and the profile's model in every Region through it", () => {
    const [direct, everyRegion] = functionStatements(template, consumerId).filter((st) =>
      actionsOf(st).some((a) => a.startsWith('bedrock:')),
    );
    expect([direct.Resource].flat().map((r) => textOfValue(r))).toEqual([
      'arn:<AWS::Partition>:bedrock:eu-west-2::foundation-model/amazon.nova-lite-v1:0',
      'arn:<AWS::Partition>:bedrock:eu-west-2::foundation-model/amazon.nova-pro-v1:0',
      `arn:<AWS::Partition>:bedrock:eu-west-2:${TEST_ACCOUNT}:inference-profile/eu.anthropic.claude-sonnet-4-5-20250929-v1:0`,
    ]);
    expect([everyRegion.Resource].flat().map((r) => textOfValue(r))).toEqual([
      'arn:<AWS::Partition>:bedrock:*::foundation-model/anthropic.claude-sonnet-4-5-20250929-v1:0',
    ]);
    expect(everyRegion.Condition.StringLike['bedrock:InferenceProfileArn'].map((r: unknown) => textOfValue(r))).toEqual([
      `arn:<AWS::Partition>:bedrock:eu-west-2:${TEST_ACCOUNT}:inference-profile/eu.anthropic.claude-sonnet-4-5-20250929-v1:0`,
    ]);
  });
});

describe('stackPropsFromContext: bedrockModelMap', () => {
  it('reads the map as -c gives it (text) or as cdk.json may hold it (an object by selected_model)', () => {
    expect(propsOf({}).bedrockModelMap).toBeUndefined();
    expect(propsOf({ bedrockModelMap: LONDON_MAP }).bedrockModelMap).toBe(LONDON_MAP);
    expect(
      propsOf({ bedrockModelMap: { 'gpt-4o-mini': 'amazon.nova-lite-v1:0', 'gpt-4o': 'eu.amazon.nova-pro-v1:0' } }).bedrockModelMap,
    ).toBe('gpt-4o-mini=amazon.nova-lite-v1:0,gpt-4o=eu.amazon.nova-pro-v1:0');
  });

  it.each([
    [{ bedrockModelMap: 'gpt-4o=eu.amazon.nova-pro-v1:0' }, /bedrockModelMap must be .*no entry for FALLBACK_MODEL gpt-4o-mini/],
    [{ bedrockModelMap: 'gpt-4o-mini' }, /bedrockModelMap must be selected_model=model-id/],
    [{ bedrockModelMap: 'gpt-4o-mini=a b' }, /bedrockModelMap must be selected_model=model-id/],
    [{ bedrockModelMap: ['gpt-4o-mini=amazon.nova-lite-v1:0'] }, /bedrockModelMap must be selected_model=model-id,… or an object/],
    [{ bedrockModelMap: { 'gpt-4o-mini': 7 } }, /bedrockModelMap must be selected_model=model-id,… or an object/],
  ])('refuses %j', (context, message) => {
    expect(() => propsOf(context)).toThrow(message);
  });
});
