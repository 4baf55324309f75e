import type { DecodedToken } from './moonshine-recognizer';
import { END_PROBABILITY, FRAME_SECONDS, type SpeechPiece } from './speech-pieces';

/**
 * Words of a piece, with times. Moonshine gives text, not times, so times are estimated: each
 * word gets a share of the piece's speech (its frames the VAD heard as speech, pauses inside the
 * piece left out) in proportion to its length in letters, plus a small share per word, and is
 * then kept inside the stretch of speech (between two pauses) that holds its middle. So a word
 * always lies within the speech span it was spoken in; where in the span is an estimate
 * (docs/transcription.md gives the measured precision).
 */

/** A recognized word, or a punctuation mark after one (`punctuation`; no times of its own in Transcribe's output). */
export interface RecognizedWord {
  word: string;
  start: number;
  end: number;
  confidence: number;
  /** Punctuation written right after the word (`,` `.` `?` `!` `;` `:`), each a punctuation item. */
  punctuation?: string;
  /** The voice cluster (spk_N) of the piece the word belongs to; set once all pieces are known. */
  speaker?: number;
  /** Index of the piece the word was heard in. */
  piece?: number;
}

const PUNCTUATION = /^([^A-Za-z0-9]*)(.*?)([.,?!;:]*)["')\]]*$/;

/** Splits decoded tokens into words with the lowest probability of the tokens that spell each. */
export function wordsOfTokens(tokens: DecodedToken[]): { text: string; punctuation?: string; confidence: number }[] {
  const words: { text: string; confidence: number }[] = [];
  let current: { text: string; confidence: number } | undefined;
  for (const token of tokens) {
    for (const char of token.text) {
      if (/\s/.test(char)) {
        current = undefined;
        continue;
      }
      if (!current) words.push((current = { text: '', confidence: token.probability }));
      current.text += char;
      current.confidence = Math.min(current.confidence, token.probability);
    }
  }
  return words
    .map(({ text, confidence }) => {
      const [, , core, marks] = PUNCTUATION.exec(text) ?? ['', '', text, ''];
      return { text: core, confidence, ...(marks ? { punctuation: marks.at(-1) } : {}) };
    })
    .filter((word) => /[A-Za-z0-9]/.test(word.text));
}

/**
 * Collapses a phrase said three or more times in a row into one (two words or more), or one
 * word said four or more times: what a looping decoder writes, not what people say.
 */
export function withoutLoops<T extends { text: string }>(words: T[]): T[] {
  const keys = words.map((word) => word.text.toLowerCase());
  const same = (a: number, b: number, size: number) => keys.slice(a, a + size).join(' ') === keys.slice(b, b + size).join(' ');
  const out: T[] = [];
  for (let i = 0; i < words.length;) {
    let loop: { size: number; repeats: number } | undefined;
    for (let size = 1; size <= 8 && !loop; size++) {
      let repeats = 1;
      while (i + size * (repeats + 1) <= words.length && same(i, i + size * repeats, size)) repeats++;
      if (repeats >= (size === 1 ? 4 : 3)) loop = { size, repeats };
    }
    if (loop) {
      out.push(...words.slice(i, i + loop.size));
      i += loop.size * loop.repeats;
    } else out.push(words[i++]);
  }
  return out;
}

/** The stretches of speech in a piece: runs of frames at or above END_PROBABILITY, in seconds from the piece's start. */
export function speechSpans(piece: SpeechPiece): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  for (let i = 0; i < piece.probabilities.length; i++) {
    if (piece.probabilities[i] < END_PROBABILITY) continue;
    const last = spans.at(-1);
    if (last && i * FRAME_SECONDS - last.end < 0.1) last.end = (i + 1) * FRAME_SECONDS;
    else spans.push({ start: i * FRAME_SECONDS, end: (i + 1) * FRAME_SECONDS });
  }
  if (!spans.length) spans.push({ start: 0, end: piece.probabilities.length * FRAME_SECONDS });
  return spans;
}

/** A word's weight in its piece's speech time: its letters, and one for the gap around it. */
const weightOf = (text: string) => text.replace(/[^A-Za-z0-9]/g, '').length + 1;

/** Gives each word of a piece its start and end in the audio (seconds), within the piece's speech spans. */
export function timedWords(piece: SpeechPiece, words: ReturnType<typeof wordsOfTokens>): RecognizedWord[] {
  const spans = speechSpans(piece);
  const speech = spans.reduce((sum, span) => sum + span.end - span.start, 0);
  const total = words.reduce((sum, word) => sum + weightOf(word.text), 0);
  /** Speech time (0..speech) to the span it falls in and the time in the piece. */
  const locate = (at: number) => {
    let left = at;
    for (const span of spans) {
      if (left <= span.end - span.start) return { span, time: span.start + left };
      left -= span.end - span.start;
    }
    const span = spans.at(-1)!;
    return { span, time: span.end };
  };
  let done = 0;
  return words.map((word) => {
    const from = (done / total) * speech;
    done += weightOf(word.text);
    const to = (done / total) * speech;
    const { span } = locate((from + to) / 2);
    const start = Math.max(span.start, Math.min(locate(from).time, span.end));
    const end = Math.min(span.end, Math.max(locate(to).time, start));
    const round = (seconds: number) => Math.round((piece.start + seconds) * 1000) / 1000;
    return {
      word: word.text,
      start: round(start),
      end: round(end),
      confidence: word.confidence,
      ...(word.punctuation ? { punctuation: word.punctuation } : {}),
    };
  });
}

const normal = (word: string) => word.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Joins the words of a piece cut without a pause to the words before it: the piece starts
 * `overlap` seconds before the previous one ended, so its first words repeat the previous
 * piece's last ones. The longest run of the new piece's first words (after at most two words
 * clipped by the cut) that equals the previous piece's last words is dropped; when none matches,
 * the words said in the overlap (their middle before the cut) are dropped.
 */
export function joinOverlap(previous: RecognizedWord[], next: RecognizedWord[], pieceStart: number, overlap: number): RecognizedWord[] {
  if (overlap <= 0 || !previous.length) return next;
  const cut = pieceStart + overlap;
  const tail = previous.filter((word) => word.end >= pieceStart - 1).map((word) => normal(word.word));
  const head = next.filter((word) => word.start <= cut + 1).map((word) => normal(word.word));
  for (let size = Math.min(tail.length, head.length); size >= 1; size--) {
    for (let skip = 0; skip <= 2 && skip + size <= head.length; skip++) {
      const matches = tail.slice(-size).every((word, index) => word === head[skip + index]);
      if (matches && (size >= 2 || tail.at(-1)!.length >= 3)) return next.slice(skip + size);
    }
  }
  return next.filter((word) => (word.start + word.end) / 2 >= cut);
}
