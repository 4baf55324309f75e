import { DEFAULT_BEDROCK_MODEL_MAP } from '../shared/config';
import { LOCAL_SUMMARY_MODEL } from '../shared/summarization/model-map';
import { PIPELINE_REGIONS } from './aws-regions';

/**
 * Which Bedrock model id writes summaries in which Region (docs/deploy.md, "Summaries in every
 * Region"). A cross-Region inference profile can be called only from its source Regions: `us.*`
 * from US Regions, `eu.*` from EU Regions, `apac.*` from Asia-Pacific, `global.*` from most
 * commercial Regions. So the default map (DEFAULT_BEDROCK_MODEL_MAP, written with `us.` profiles)
 * takes, in the stack's Region, each model's profile of the Region's geography, else its global
 * profile; a Region where a model has neither fails the synth with the way out.
 */

/** The geographies of the default map's choice, by Region prefix: the profile prefix tried first. */
type Geography = 'us' | 'us-gov' | 'eu' | 'apac';

/**
 * The source Regions of each system-defined profile of the default map's models, as Bedrock's
 * documentation lists them ("Supported Regions and models for inference profiles" and each
 * model's card). Claude Sonnet 4.5 has no `apac.` profile; the Nova models have no global one.
 */
const PROFILE_SOURCES: Readonly<Record<string, Partial<Record<Geography | 'global', readonly string[]>>>> = {
  'amazon.nova-lite-v1:0': {
    us: ['us-east-1', 'us-east-2', 'us-west-1', 'us-west-2'],
    eu: ['eu-central-1', 'eu-north-1', 'eu-south-1', 'eu-south-2', 'eu-west-1', 'eu-west-3', 'il-central-1'],
    apac: [
      'ap-east-2',
      'ap-northeast-1',
      'ap-northeast-2',
      'ap-south-1',
      'ap-southeast-1',
      'ap-southeast-2',
      'ap-southeast-3',
      'ap-southeast-4',
      'ap-southeast-5',
      'ap-southeast-7',
      'me-central-1',
    ],
  },
  'amazon.nova-pro-v1:0': {
    us: ['us-east-1', 'us-east-2', 'us-west-1', 'us-west-2'],
    eu: ['eu-central-1', 'eu-north-1', 'eu-south-1', 'eu-south-2', 'eu-west-1', 'eu-west-3', 'il-central-1'],
    apac: [
      'ap-east-2',
      'ap-northeast-1',
      'ap-northeast-2',
      'ap-south-1',
      'ap-southeast-1',
      'ap-southeast-2',
      'ap-southeast-3',
      'ap-southeast-4',
      'ap-southeast-5',
      'ap-southeast-7',
      'me-central-1',
    ],
  },
  'anthropic.claude-sonnet-4-5-20250929-v1:0': {
    us: ['ca-central-1', 'us-east-1', 'us-east-2', 'us-west-1', 'us-west-2'],
    'us-gov': ['us-gov-east-1', 'us-gov-west-1'],
    eu: ['eu-central-1', 'eu-central-2', 'eu-north-1', 'eu-south-1', 'eu-south-2', 'eu-west-1', 'eu-west-2', 'eu-west-3'],
    global: [
      'af-south-1',
      'ap-east-2',
      'ap-northeast-1',
      'ap-northeast-2',
      'ap-northeast-3',
      'ap-south-1',
      'ap-south-2',
      'ap-southeast-1',
      'ap-southeast-2',
      'ap-southeast-3',
      'ap-southeast-4',
      'ap-southeast-5',
      'ap-southeast-6',
      'ap-southeast-7',
      'ca-central-1',
      'ca-west-1',
      'eu-central-1',
      'eu-central-2',
      'eu-north-1',
      'eu-south-1',
      'eu-south-2',
      'eu-west-1',
      'eu-west-2',
      'eu-west-3',
      'il-central-1',
      'me-central-1',
      'me-south-1',
      'mx-central-1',
      'sa-east-1',
      'us-east-1',
      'us-east-2',
      'us-west-1',
      'us-west-2',
    ],
  },
};

/** The prefixes of Bedrock's system-defined inference profiles. */
const PROFILE_PREFIX = /^(us|us-gov|eu|apac|ca|jp|au|global)\.(.+)$/;

/**
 * The Regions each profile prefix can be called from, at the coarsest: a map given with
 * `-c bedrockModelMap` is refused when it names a profile of another geography (a `us.` profile
 * in eu-west-1), never second-guessed on a Region list that AWS may have grown since.
 */
const PREFIX_REGIONS: Readonly<Record<string, RegExp>> = {
  us: /^(us-(?!gov-)|ca-)/,
  'us-gov': /^us-gov-/,
  eu: /^(eu-|il-)/,
  apac: /^(ap-|me-central-)/,
  jp: /^ap-northeast-[13]$/,
  au: /^ap-southeast-[246]$/,
  ca: /^ca-/,
  global: /^(?!us-gov-|cn-|us-iso)/,
};

/** The geography of a Region for the default map: its profile prefix tried before `global.`. */
function geographyOf(region: string): Geography | undefined {
  if (region.startsWith('us-gov-')) return 'us-gov';
  if (region.startsWith('us-')) return 'us';
  if (region.startsWith('eu-')) return 'eu';
  if (region.startsWith('ap-')) return 'apac';
  return undefined;
}

/** A map's entries: selected_model → Bedrock model id, in order. */
export type ModelMapEntries = readonly (readonly [selectedModel: string, modelId: string])[];

/** BEDROCK_MODEL_MAP's text (`selected_model=model-id,…`) as entries, and back. */
export const entriesOf = (text: string): ModelMapEntries => text.split(',').map((entry) => entry.split('=') as [string, string]);
export const textOf = (entries: ModelMapEntries): string => entries.map(([selected, modelId]) => `${selected}=${modelId}`).join(',');

/** The foundation model of a profile id (`eu.amazon.nova-lite-v1:0` → `amazon.nova-lite-v1:0`), or the id itself. */
export const foundationModelOf = (modelId: string): string => PROFILE_PREFIX.exec(modelId)?.[2] ?? modelId;

/** The default map's entries (written with `us.` profiles), each with the foundation model a Region's profile routes to. */
export const DEFAULT_MODELS: ModelMapEntries = entriesOf(DEFAULT_BEDROCK_MODEL_MAP).map(
  ([selected, modelId]) => [selected, foundationModelOf(modelId)] as const,
);

/** The default map in a Region: each model's profile there, or the models that have none (with no map, then). */
export function defaultModelMapIn(region: string): { entries: ModelMapEntries; missing: [] } | { entries?: undefined; missing: string[] } {
  const geography = geographyOf(region);
  const profileIn = (model: string): string | undefined => {
    const sources = PROFILE_SOURCES[model] ?? {};
    const prefix = [geography, 'global' as const].find((p) => p !== undefined && sources[p]?.includes(region));
    return prefix && `${prefix}.${model}`;
  };
  const chosen = DEFAULT_MODELS.map(([selected, model]) => [selected, profileIn(model), model] as const);
  const missing = [...new Set(chosen.filter(([, profile]) => !profile).map(([selected, , model]) => `${selected} (${model})`))];
  return missing.length ? { missing } : { entries: chosen.map(([selected, profile]) => [selected, profile!] as const), missing: [] };
}

/** The Regions the default map covers: those of the pipeline's services where every default model has a profile. */
export const DEFAULT_MAP_REGIONS: readonly string[] = PIPELINE_REGIONS.filter((region) => defaultModelMapIn(region).entries);

/** How a synth error tells the operator to set the map. */
const HOW_TO_SET =
  'Set the models with -c bedrockModelMap=gpt-4o-mini=<model id or inference profile>,… (or "bedrockModelMap" in cdk.json; docs/deploy.md, "Summaries in every Region").';

/** The default map of a Region, or a synth error naming the models without a profile there. */
export function defaultModelMapOrFail(region: string): ModelMapEntries {
  const choice = defaultModelMapIn(region);
  if (choice.entries) return choice.entries;
  const tried = [geographyOf(region), 'global']
    .filter(Boolean)
    .map((prefix) => `${prefix}.*`)
    .join(' or ');
  throw new Error(
    `The default summary models cannot run in ${region}: ${choice.missing.join(', ')} ${choice.missing.length > 1 ? 'have' : 'has'} no ${tried} inference profile that can be called from ${region}. ` +
      `${HOW_TO_SET} The default map covers ${DEFAULT_MAP_REGIONS.join(', ')}.`,
  );
}

/** The problems of a given map in a Region: a profile of another geography, or the local engine (none: it can run there). */
export function modelMapProblemsIn(entries: ModelMapEntries, region: string | undefined): string[] {
  return entries.flatMap(([selected, modelId]) => {
    if (modelId === LOCAL_SUMMARY_MODEL)
      return [`${selected}=${modelId} is the local engine of npm start, which a deployed stack cannot call`];
    const prefix = PROFILE_PREFIX.exec(modelId)?.[1];
    if (region === undefined || prefix === undefined || PREFIX_REGIONS[prefix].test(region)) return [];
    return [`${selected}=${modelId} is a ${prefix}.* inference profile, which cannot be called from ${region}`];
  });
}

/** Fails the synth of a given map that cannot run in the stack's Region (undefined: not known at synth). */
export function assertModelMapRunsIn(entries: ModelMapEntries, region: string | undefined): void {
  const problems = modelMapProblemsIn(entries, region);
  if (problems.length) throw new Error(`Context bedrockModelMap cannot run in ${region}: ${problems.join('; ')}. ${HOW_TO_SET}`);
}
