import { type BedrockRuntimeClient, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import type { Embedder } from './embedder';

/** Amazon Titan Text Embeddings V2, invoked on demand in the function's own Region (no inference profile). */
export const TITAN_EMBED_TEXT_V2 = 'amazon.titan-embed-text-v2:0';
/** 256, 512 or 1024; 512 keeps nearly all of 1024's retrieval quality at half the storage and memory. */
export const TITAN_DIMENSIONS = 512;
/** The model's input limit in characters (it also stops at 8,192 tokens, which this many characters stay near). */
const MAX_INPUT_CHARACTERS = 50_000;

interface TitanResponse {
  embedding?: unknown;
  inputTextTokenCount?: number;
}

export class TitanEmbedder implements Embedder {
  readonly model = TITAN_EMBED_TEXT_V2;

  constructor(
    private readonly client: BedrockRuntimeClient,
    readonly dimensions = TITAN_DIMENSIONS,
  ) {}

  async embed(text: string): Promise<number[]> {
    const response = await this.client.send(
      new InvokeModelCommand({
        modelId: this.model,
        contentType: 'application/json',
        accept: 'application/json',
        body: JSON.stringify({ inputText: text.slice(0, MAX_INPUT_CHARACTERS), dimensions: this.dimensions, normalize: true }),
      }),
    );
    const parsed = JSON.parse(new TextDecoder().decode(response.body)) as TitanResponse;
    const vector = parsed.embedding;
    if (!Array.isArray(vector) || vector.length !== this.dimensions || !vector.every((value) => typeof value === 'number'))
      throw new Error(`${this.model} answered no ${this.dimensions}-dimension embedding`);
    return vector;
  }
}
