/**
 * The recorder's `selected_model` (an id of ACTIVE_MODELS, already normalised) → the Bedrock
 * model id or inference profile that writes the summary, from the configured map
 * (BEDROCK_MODEL_MAP, docs/summaries.md). An id without an entry uses the fallback model's.
 */
export function bedrockModelIdFor(selectedModel: string, map: Record<string, string>, fallback: string): string {
  const modelId =
    (Object.hasOwn(map, selectedModel) ? map[selectedModel] : undefined) ?? (Object.hasOwn(map, fallback) ? map[fallback] : undefined);
  // Config refuses a map without the fallback's entry, so this is a wiring mistake, not a request's.
  if (!modelId) throw new Error(`No Bedrock model for ${selectedModel} and none for the fallback ${fallback}`);
  return modelId;
}

/**
 * The model id of the local engine (infra/local/bedrock-emulator.ts): npm start maps every
 * active model to it. It writes English only unless Apertium has the pair (docs/summaries.md),
 * so the adapter also accepts English from it.
 */
export const LOCAL_SUMMARY_MODEL = 'local-extractive';
