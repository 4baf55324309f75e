import { assertPipelineServicesIn, missingServicesIn, PIPELINE_REGIONS } from '../../infra/aws-regions';
import {
  assertModelMapRunsIn,
  DEFAULT_MAP_REGIONS,
  defaultModelMapOrFail,
  entriesOf,
  modelMapProblemsIn,
  textOf,
} from '../../infra/bedrock-profiles';

/** The default summary models by Region (docs/deploy.md, "Summaries in every Region") and the checks of a map given. */

const mapIn = (region: string) => textOf(defaultModelMapOrFail(region));

describe('the default summary map in a Region', () => {
  it("names its geography's profiles in the US and the EU", () => {
    expect(mapIn('us-east-1')).toBe(
      'gpt-4o-mini=us.amazon.nova-lite-v1:0,gpt-4o=us.amazon.nova-pro-v1:0,claude-sonnet-4-5=us.anthropic.claude-sonnet-4-5-20250929-v1:0,gemini-2.5-pro=us.amazon.nova-pro-v1:0',
    );
    expect(mapIn('us-west-1')).toBe(mapIn('us-east-1'));
    expect(mapIn('eu-west-1')).toBe(
      'gpt-4o-mini=eu.amazon.nova-lite-v1:0,gpt-4o=eu.amazon.nova-pro-v1:0,claude-sonnet-4-5=eu.anthropic.claude-sonnet-4-5-20250929-v1:0,gemini-2.5-pro=eu.amazon.nova-pro-v1:0',
    );
    expect(mapIn('eu-central-1')).toBe(mapIn('eu-west-1'));
  });

  it('takes the global profile in Asia-Pacific where a model has no apac.* one (Claude Sonnet 4.5)', () => {
    expect(mapIn('ap-southeast-2')).toBe(
      'gpt-4o-mini=apac.amazon.nova-lite-v1:0,gpt-4o=apac.amazon.nova-pro-v1:0,claude-sonnet-4-5=global.anthropic.claude-sonnet-4-5-20250929-v1:0,gemini-2.5-pro=apac.amazon.nova-pro-v1:0',
    );
  });

  it('fails where a model has neither, naming the models, the Region, how to set the map and where the default runs', () => {
    for (const region of ['eu-west-2', 'ca-central-1', 'us-gov-west-1']) {
      expect(() => defaultModelMapOrFail(region)).toThrow(
        new RegExp(`cannot run in ${region}: gpt-4o-mini \\(amazon\\.nova-lite-v1:0\\), gpt-4o \\(amazon\\.nova-pro-v1:0\\)`),
      );
      expect(() => defaultModelMapOrFail(region)).toThrow(/-c bedrockModelMap=gpt-4o-mini=.*The default map covers .*eu-west-1/);
    }
    expect(() => defaultModelMapOrFail('eu-west-2')).toThrow(/no eu\.\* or global\.\* inference profile that can be called from eu-west-2/);
    expect(() => defaultModelMapOrFail('ca-central-1')).toThrow(/no global\.\* inference profile/);
  });

  it('covers 13 of the Regions where Transcribe, Translate and Bedrock all run', () => {
    expect(DEFAULT_MAP_REGIONS).toHaveLength(13);
    for (const region of DEFAULT_MAP_REGIONS) expect(PIPELINE_REGIONS).toContain(region);
    expect(PIPELINE_REGIONS.filter((region) => !DEFAULT_MAP_REGIONS.includes(region)).sort()).toEqual([
      'ca-central-1',
      'eu-west-2',
      'us-gov-west-1',
    ]);
  });
});

describe('a summary map given to the stack', () => {
  it('runs where each profile can be called from, and takes foundation models and ARNs as given', () => {
    expect(
      modelMapProblemsIn(
        entriesOf('gpt-4o-mini=eu.amazon.nova-lite-v1:0,gpt-4o=global.anthropic.claude-sonnet-4-5-20250929-v1:0'),
        'eu-west-1',
      ),
    ).toEqual([]);
    expect(modelMapProblemsIn(entriesOf('gpt-4o-mini=jp.anthropic.claude-haiku-4-5-20251001-v1:0'), 'ap-northeast-1')).toEqual([]);
    expect(modelMapProblemsIn(entriesOf('gpt-4o-mini=au.anthropic.claude-sonnet-4-5-20250929-v1:0'), 'ap-southeast-2')).toEqual([]);
    expect(modelMapProblemsIn(entriesOf('gpt-4o-mini=us.anthropic.claude-sonnet-4-5-20250929-v1:0'), 'ca-central-1')).toEqual([]);
    expect(
      modelMapProblemsIn(
        entriesOf('gpt-4o-mini=amazon.nova-lite-v1:0,gpt-4o=us-gov.anthropic.claude-sonnet-4-5-20250929-v1:0'),
        'us-gov-west-1',
      ),
    ).toEqual([]);
    expect(
      modelMapProblemsIn(entriesOf('gpt-4o-mini=arn:aws:bedrock:eu-west-2:123456789012:application-inference-profile/abc'), 'eu-west-2'),
    ).toEqual([]);
  });

  it("refuses a profile of another geography than the stack's Region, and the local engine", () => {
    expect(modelMapProblemsIn(entriesOf('gpt-4o-mini=us.amazon.nova-lite-v1:0,gpt-4o=eu.amazon.nova-pro-v1:0'), 'eu-west-1')).toEqual([
      'gpt-4o-mini=us.amazon.nova-lite-v1:0 is a us.* inference profile, which cannot be called from eu-west-1',
    ]);
    expect(modelMapProblemsIn(entriesOf('gpt-4o-mini=global.anthropic.claude-sonnet-4-5-20250929-v1:0'), 'us-gov-west-1')).toHaveLength(1);
    expect(modelMapProblemsIn(entriesOf('gpt-4o-mini=jp.anthropic.claude-sonnet-4-5-20250929-v1:0'), 'ap-southeast-2')).toHaveLength(1);
    expect(modelMapProblemsIn(entriesOf('gpt-4o-mini=local-extractive'), undefined)).toEqual([
      'gpt-4o-mini=local-extractive is the local engine of npm start, which a deployed stack cannot call',
    ]);
    expect(() => assertModelMapRunsIn(entriesOf('gpt-4o-mini=us.amazon.nova-lite-v1:0'), 'eu-west-1')).toThrow(
      /Context bedrockModelMap cannot run in eu-west-1: .*-c bedrockModelMap=/,
    );
  });

  it('is not checked against a Region unknown at synth (an environment-agnostic stack)', () => {
    expect(modelMapProblemsIn(entriesOf('gpt-4o-mini=us.amazon.nova-lite-v1:0'), undefined)).toEqual([]);
  });
});

describe('the Regions the pipeline runs in', () => {
  it('names the services a Region lacks', () => {
    expect(missingServicesIn('eu-west-1')).toEqual([]);
    expect(missingServicesIn('sa-east-1')).toEqual(['Amazon Translate (translations)']);
    expect(missingServicesIn('ap-east-1')).toEqual(['Amazon Bedrock (summaries)']);
    expect(missingServicesIn('eu-south-2')).toEqual(['Amazon Transcribe (transcripts)', 'Amazon Translate (translations)']);
    expect(() => assertPipelineServicesIn('us-gov-east-1')).toThrow(
      /cannot be deployed to us-gov-east-1: Amazon Translate \(translations\) is not offered there\. Choose one of .*eu-west-1/,
    );
  });
});
