/* Contract stub (plan-30, helper E's names): replaced by the engines branch. */
export function bedrockModelIdFor(selectedModel: string, map: Record<string, string>, fallback: string): string {
  return map[selectedModel] ?? map[fallback] ?? fallback;
}
