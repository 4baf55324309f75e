/** The summary models' settings (ACTIVE_MODELS, FALLBACK_MODEL, BEDROCK_MODEL_MAP), as shared/config.ts parses them. */

/** The active model ids (with their aliases) and the one that replaces an unknown selected_model. */
export interface ModelCatalog {
  active: { id: string; aliases: string[] }[];
  fallback: string;
}

/**
 * The default summary models (docs/summaries.md, "Model map"): the active model ids are other
 * vendors' names, so each maps to the Bedrock model of its tier; Gemini is not on Bedrock.
 */
export const DEFAULT_BEDROCK_MODEL_MAP = [
  'gpt-4o-mini=us.amazon.nova-lite-v1:0',
  'gpt-4o=us.amazon.nova-pro-v1:0',
  'claude-sonnet-4-5=us.anthropic.claude-sonnet-4-5-20250929-v1:0',
  'gemini-2.5-pro=us.amazon.nova-pro-v1:0',
].join(',');

/**
 * An explicit map must name the fallback's model; the default one gives a fallback it does not
 * know (custom ACTIVE_MODELS) the default fallback's model, Nova Lite.
 */
export function bedrockModelMapOf(text: string | undefined, fallback: string): Record<string, string> {
  const entries = (list: string) =>
    Object.fromEntries(list.split(',').map((entry) => entry.split('=') as [string, string])) as Record<string, string>;
  const map = entries(text ?? DEFAULT_BEDROCK_MODEL_MAP);
  if (Object.hasOwn(map, fallback)) return map;
  if (text) throw new Error(`Invalid configuration: BEDROCK_MODEL_MAP has no entry for FALLBACK_MODEL ${fallback}`);
  return { ...map, [fallback]: map['gpt-4o-mini'] };
}

export function modelCatalogOf(activeModels: string, fallback: string): ModelCatalog {
  const active = activeModels.split(',').map((entry) => {
    const [id, aliases = ''] = entry.split('=');
    return { id, aliases: aliases.split('|').filter(Boolean) };
  });
  if (!active.some((model) => model.id === fallback)) {
    throw new Error(`Invalid configuration: FALLBACK_MODEL ${fallback} is not in ACTIVE_MODELS`);
  }
  return { active, fallback };
}
