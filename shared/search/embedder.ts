/**
 * The embedding model's port: text in, a normalized vector out. Titan Text Embeddings V2 in AWS
 * (titan-embedder.ts); none locally, where no sentence-embedding weights ship in a package, so
 * semantic search answers 409 there and hybrid is keyword search (docs/search.md).
 */
export interface Embedder {
  readonly model: string;
  readonly dimensions: number;
  embed(text: string): Promise<number[]>;
}

/** How many embeddings are asked for at once: the model takes one text per request. */
const CONCURRENCY = 8;

/** The vectors of many texts, in their order, a few requests at a time. */
export async function embedAll(embedder: Embedder, texts: readonly string[]): Promise<number[][]> {
  const vectors: number[][] = new Array<number[]>(texts.length);
  let next = 0;
  const worker = async () => {
    while (next < texts.length) {
      const at = next++;
      vectors[at] = await embedder.embed(texts[at]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, texts.length) }, worker));
  return vectors;
}
