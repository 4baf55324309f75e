import { createRequire } from 'node:module';
import path from 'node:path';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { SAMPLE_RATE } from './ffmpeg-audio';
import { packageDir } from './package-dir';

/**
 * Moonshine tiny (English speech to text, 27M parameters; code and English model under MIT):
 * its int8 ONNX encoder and decoder ship inside the npm package @moonshine-ai/moonshine-js, read
 * from there and run with onnxruntime-node on the CPU. Decoding is greedy, with the decoder's
 * key/value cache, as the package's own model.ts does in the browser. Its tokenizer is LLaMA's
 * (llama-tokenizer-js). Each token's probability (softmax of its logit) becomes the confidence
 * of the words it spells.
 */

/** The tiny model's decoder: layers, key/value heads and head size (from moonshine-js's model.ts). */
const LAYERS = 6;
const HEADS = 8;
const HEAD_SIZE = 36;
const START_TOKEN = 1;
const END_TOKEN = 2;
/** At most this many tokens per second of audio: past it the model is looping, not transcribing. */
const TOKENS_PER_SECOND = 6;

/** One decoded token: its text (a leading space starts a word) and its probability. */
export interface DecodedToken {
  text: string;
  probability: number;
}

interface Loaded {
  ort: typeof import('onnxruntime-node');
  encoder: InferenceSession;
  decoder: InferenceSession;
  vocabulary: string[];
}

const requireHere = createRequire(__filename);

/** Where the model's two files are, inside the installed npm package. */
export function moonshineModelDir(): string {
  return path.join(packageDir('@moonshine-ai/moonshine-js'), 'dist', 'model', 'tiny', 'quantized');
}

let loaded: Promise<Loaded> | undefined;

/** Loads the encoder, the decoder and the tokenizer's vocabulary once per process. */
export function loadMoonshine(): Promise<Loaded> {
  loaded ??= (async () => {
    const ort = requireHere('onnxruntime-node') as typeof import('onnxruntime-node');
    // One thread each: jobs run one at a time, and the machine's other core serves the API.
    const options: InferenceSession.SessionOptions = { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential' };
    const dir = moonshineModelDir();
    const encoder = await ort.InferenceSession.create(path.join(dir, 'encoder_model.onnx'), options);
    const decoder = await ort.InferenceSession.create(path.join(dir, 'decoder_model_merged.onnx'), options);
    const tokenizer = (await import('llama-tokenizer-js')).default as unknown as { vocabById: string[] };
    return { ort, encoder, decoder, vocabulary: tokenizer.vocabById };
  })();
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

/** A token's bytes: `<0xNN>` tokens are one byte; `▁` is a space. */
function tokenBytes(vocabulary: string[], id: number): Uint8Array {
  const text = vocabulary[id];
  if (text === undefined) return new Uint8Array(0);
  const byte = /^<0x([0-9A-F]{2})>$/.exec(text);
  if (byte) return Uint8Array.of(parseInt(byte[1], 16));
  return new TextEncoder().encode(text.replaceAll('\u2581', ' '));
}

/** The index and probability of the largest logit, `except` one token (its probability still counts in the sum). */
function best(logits: Float32Array, except = -1): { id: number; probability: number } {
  let id = except === 0 ? 1 : 0;
  for (let i = 1; i < logits.length; i++) if (i !== except && logits[i] > logits[id]) id = i;
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i] - logits[id]);
  return { id, probability: 1 / sum };
}

/** The tokens Moonshine reads from a piece of 16 kHz audio (at most 30 s or so), with their texts and probabilities. */
export async function recognizeTokens(samples: Float32Array): Promise<DecodedToken[]> {
  const { ort, encoder, decoder, vocabulary } = await loadMoonshine();
  const encoded = await encoder.run({ input_values: new ort.Tensor('float32', samples, [1, samples.length]) });
  const empty = () => new ort.Tensor('float32', new Float32Array(0), [0, HEADS, 1, HEAD_SIZE]);
  const past: Record<string, Tensor> = {};
  for (let layer = 0; layer < LAYERS; layer++)
    for (const part of ['decoder', 'encoder'])
      for (const kind of ['key', 'value']) past[`past_key_values.${layer}.${part}.${kind}`] = empty();
  const maxTokens = Math.max(4, Math.trunc((samples.length / SAMPLE_RATE) * TOKENS_PER_SECOND));
  const tokens: { id: number; probability: number }[] = [];
  let input = START_TOKEN;
  for (let step = 0; step < maxTokens; step++) {
    const output = await decoder.run({
      input_ids: new ort.Tensor('int64', BigInt64Array.of(BigInt(input)), [1, 1]),
      encoder_hidden_states: encoded.last_hidden_state,
      use_cache_branch: new ort.Tensor('bool', [step > 0], [1]),
      ...past,
    });
    // The piece holds speech (the VAD says so): an end at the very first step is the model's
    // known slip on some short inputs, so the first token is the best one that is not the end.
    const next = best(output.logits.data as Float32Array, step === 0 ? END_TOKEN : -1);
    if (next.id === END_TOKEN) break;
    tokens.push(next);
    input = next.id;
    // The decoder's own cache grows every step; the encoder's (cross-attention) is computed once, at the first.
    for (const name of Object.keys(past)) {
      if (step === 0 || name.includes('.decoder.')) past[name] = output[name.replace('past_key_values', 'present')];
    }
  }
  // Bytes to text token by token, so that each character is credited to the token that completed it.
  const decoder8 = new TextDecoder('utf-8');
  return tokens.map((token) => ({
    text: decoder8.decode(tokenBytes(vocabulary, token.id), { stream: true }),
    probability: token.probability,
  }));
}
