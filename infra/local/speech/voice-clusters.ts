import { SAMPLE_RATE } from './ffmpeg-audio';
import { FRAME, START_PROBABILITY } from './speech-pieces';

/**
 * Telling voices apart without a speaker model (none ships in a package reachable here): each
 * piece of speech is described by the mean and standard deviation of its MFCCs (12 cepstral
 * coefficients of 25 ms frames every 10 ms, over the frames the VAD heard as speech), and pieces
 * are grouped by cosine similarity of those vectors: agglomerative clustering, average linkage
 * weighted by speech length, merging while two groups are at least MERGE_SIMILARITY alike, then
 * on until at most the job's MaxSpeakerLabels remain. Approximate: same voice measured 0.94 to
 * 0.99 here, different voices 0.63 to 0.86 (docs/transcription.md has the accuracy).
 */

const FFT_SIZE = 512;
const WINDOW = 400;
const HOP = 160;
const MEL_BANDS = 26;
const CEPSTRA = 13;
/** Groups at least this alike are one voice. */
export const MERGE_SIMILARITY = 0.93;
/** Pieces with less speech than this are placed by the nearest voice rather than grouped: their statistics are too noisy. */
const MIN_SECONDS_TO_GROUP = 1;

const hamming = Float64Array.from({ length: WINDOW }, (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (WINDOW - 1)));
const toMel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const fromMel = (mel: number) => 700 * (10 ** (mel / 2595) - 1);
const melBins = Array.from({ length: MEL_BANDS + 2 }, (_, i) =>
  Math.floor(((FFT_SIZE + 1) * fromMel(toMel(20) + (i * (toMel(7600) - toMel(20))) / (MEL_BANDS + 1))) / SAMPLE_RATE),
);

/** In-place radix-2 FFT. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const angle = (-2 * Math.PI) / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < size / 2; k++) {
        const cos = Math.cos(angle * k);
        const sin = Math.sin(angle * k);
        const a = start + k;
        const b = a + size / 2;
        const real = re[b] * cos - im[b] * sin;
        const imag = re[b] * sin + im[b] * cos;
        re[b] = re[a] - real;
        im[b] = im[a] - imag;
        re[a] += real;
        im[a] += imag;
      }
    }
  }
}

/** A piece's voice: MFCC means and deviations (24 numbers) and the seconds of speech they describe. */
export interface VoicePrint {
  vector: number[];
  seconds: number;
}

/** The voice print of a piece's speech frames (VAD probability at START_PROBABILITY or more). */
export function voicePrintOf(samples: Float32Array, probabilities: Float32Array): VoicePrint {
  const re = new Float64Array(FFT_SIZE);
  const im = new Float64Array(FFT_SIZE);
  const mel = new Float64Array(MEL_BANDS);
  const sum = new Float64Array(CEPSTRA - 1);
  const squares = new Float64Array(CEPSTRA - 1);
  let frames = 0;
  for (let start = 0; start + WINDOW <= samples.length; start += HOP) {
    if ((probabilities[Math.floor((start + WINDOW / 2) / FRAME)] ?? 0) < START_PROBABILITY) continue;
    re.fill(0);
    im.fill(0);
    for (let i = 0; i < WINDOW; i++) re[i] = (samples[start + i] - (start + i > 0 ? 0.97 * samples[start + i - 1] : 0)) * hamming[i];
    fft(re, im);
    for (let band = 0; band < MEL_BANDS; band++) {
      let energy = 0;
      const [low, mid, high] = [melBins[band], melBins[band + 1], melBins[band + 2]];
      for (let k = low; k < high; k++) {
        const weight = k < mid ? (k - low) / Math.max(1, mid - low) : (high - k) / Math.max(1, high - mid);
        energy += weight * (re[k] * re[k] + im[k] * im[k]);
      }
      mel[band] = Math.log(energy + 1e-10);
    }
    for (let c = 1; c < CEPSTRA; c++) {
      let value = 0;
      for (let band = 0; band < MEL_BANDS; band++) value += mel[band] * Math.cos((Math.PI * c * (band + 0.5)) / MEL_BANDS);
      sum[c - 1] += value;
      squares[c - 1] += value * value;
    }
    frames++;
  }
  const mean = [...sum].map((value) => value / Math.max(1, frames));
  const deviation = [...squares].map((value, i) => Math.sqrt(Math.max(0, value / Math.max(1, frames) - mean[i] ** 2)));
  return { vector: [...mean, ...deviation], seconds: (frames * HOP) / SAMPLE_RATE };
}

export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    normA += a[i] * a[i];
    normB += b[i] * b[i];
  }
  return normA && normB ? dot / Math.sqrt(normA * normB) : 0;
}

/** Pieces are first gathered into at most this many close groups (cosine MICRO_SIMILARITY), so that the clustering stays small for 4 hours. */
const MAX_MICRO_GROUPS = 300;
const MICRO_SIMILARITY = 0.98;

interface Group {
  sum: number[];
  seconds: number;
}
const centroidOf = (group: Group) => group.sum.map((value) => value / group.seconds);
function addTo(group: Group, print: VoicePrint): void {
  const weight = Math.max(print.seconds, 0.01);
  print.vector.forEach((value, d) => (group.sum[d] += value * weight));
  group.seconds += weight;
}

/**
 * A voice index (0, 1, …, in order of first appearance) for each piece, at most `maxVoices`
 * different ones. Pieces too short to group join the voice whose centroid is nearest.
 */
export function clusterVoices(prints: VoicePrint[], maxVoices: number): number[] {
  if (!prints.length) return [];
  const dims = prints[0].vector.length;
  const grouped = prints.some((print) => print.seconds >= MIN_SECONDS_TO_GROUP)
    ? (print: VoicePrint) => print.seconds >= MIN_SECONDS_TO_GROUP
    : () => true;
  // Close pieces first gathered in order (leader clustering), each group keeping its weighted sum.
  const micro: Group[] = [];
  const microOf = new Map<number, number>();
  prints.forEach((print, index) => {
    if (!grouped(print)) return;
    let nearest = -1;
    let value = -2;
    micro.forEach((group, g) => {
      const similarity = cosine(print.vector, centroidOf(group));
      if (similarity > value) [nearest, value] = [g, similarity];
    });
    if (nearest < 0 || (value < MICRO_SIMILARITY && micro.length < MAX_MICRO_GROUPS)) {
      micro.push({ sum: new Array<number>(dims).fill(0), seconds: 0 });
      nearest = micro.length - 1;
    }
    addTo(micro[nearest], print);
    microOf.set(index, nearest);
  });
  // Average linkage over the groups, weighted by seconds of speech (Lance-Williams update).
  const n = micro.length;
  const similarity = new Float64Array(n * n);
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) similarity[a * n + b] = cosine(centroidOf(micro[a]), centroidOf(micro[b]));
  const alive = new Set(micro.keys());
  const owner = Array.from({ length: n }, (_, g) => g);
  const at = (a: number, b: number) => (a < b ? similarity[a * n + b] : similarity[b * n + a]);
  for (;;) {
    let best: { a: number; b: number; value: number } | undefined;
    for (const a of alive) for (const b of alive) if (a < b && (!best || at(a, b) > best.value)) best = { a, b, value: at(a, b) };
    if (!best || (best.value < MERGE_SIMILARITY && alive.size <= Math.max(1, maxVoices))) break;
    const { a, b } = best;
    const [wa, wb] = [micro[a].seconds, micro[b].seconds];
    for (const k of alive) {
      if (k === a || k === b) continue;
      const merged = (wa * at(a, k) + wb * at(b, k)) / (wa + wb);
      if (a < k) similarity[a * n + k] = merged;
      else similarity[k * n + a] = merged;
    }
    micro[b].sum.forEach((value, d) => (micro[a].sum[d] += value));
    micro[a].seconds += wb;
    alive.delete(b);
    for (let g = 0; g < n; g++) if (owner[g] === b) owner[g] = a;
  }
  const voices = [...alive];
  const centroids = voices.map((g) => centroidOf(micro[g]));
  const raw = prints.map((print, index) => {
    const known = microOf.get(index);
    if (known !== undefined) return voices.indexOf(owner[known]);
    let nearest = 0;
    for (let v = 1; v < centroids.length; v++)
      if (cosine(print.vector, centroids[v]) > cosine(print.vector, centroids[nearest])) nearest = v;
    return nearest;
  });
  const order = new Map<number, number>();
  return raw.map((voice) => {
    if (!order.has(voice)) order.set(voice, order.size);
    return order.get(voice)!;
  });
}
