import { AudioDecodeError, decodedAudio, SAMPLE_RATE } from './ffmpeg-audio';
import { recognizeTokens } from './moonshine-recognizer';
import { joinOverlap, timedWords, withoutLoops, wordsOfTokens, type RecognizedWord } from './piece-words';
import { speechPieces, type PieceSettings } from './speech-pieces';
import { clusterVoices, voicePrintOf, type VoicePrint } from './voice-clusters';

/**
 * The engine's pipeline, run in the thread that calls it (the engine's worker thread under
 * npm start; the speech bench directly): decode → pieces of speech → words → voices.
 */

/** Why the engine could not transcribe a file: media it cannot decode, or itself missing. */
export class LocalEngineError extends Error {
  override readonly name = 'LocalEngineError';
  constructor(
    readonly kind: 'unsupported-media' | 'unavailable',
    message: string,
  ) {
    super(message);
  }
}

export interface RecognizeOptions {
  signal?: AbortSignal;
  /** Speaker labels asked for (ShowSpeakerLabels): pieces are clustered into at most this many voices. */
  maxSpeakers?: number;
  /** How speech is cut into pieces (tests and the bench force short pieces); the defaults otherwise. */
  pieces?: Partial<PieceSettings>;
}

export interface Recognition {
  words: RecognizedWord[];
  audioSeconds: number;
  /** Voices told apart (1 without speaker labels, 0 without speech). */
  speakers: number;
}

/** Counts the samples that stream through, for the audio's length. */
async function* counted(audio: AsyncIterable<Float32Array>, total: { samples: number }): AsyncGenerator<Float32Array> {
  for await (const chunk of audio) {
    total.samples += chunk.length;
    yield chunk;
  }
}

/**
 * Transcribes one media file, streaming: at no time is more than one piece of audio (about 26 s)
 * held. Media ffmpeg cannot decode, or without an audio stream, is 'unsupported-media'; a missing
 * package is 'unavailable'. `signal` stops ffmpeg and the loop.
 */
export async function recognizeInThisThread(mediaFile: string, options: RecognizeOptions = {}): Promise<Recognition> {
  const total = { samples: 0 };
  const words: RecognizedWord[] = [];
  const prints: VoicePrint[] = [];
  try {
    let piece = 0;
    for await (const speech of speechPieces(counted(decodedAudio(mediaFile, options.signal), total), options.pieces)) {
      if (options.signal?.aborted) throw options.signal.reason;
      const heard = timedWords(speech, withoutLoops(wordsOfTokens(await recognizeTokens(speech.samples))));
      const joined = joinOverlap(words, heard, speech.start, speech.overlap);
      for (const word of joined) words.push({ ...word, piece });
      if (options.maxSpeakers) prints.push(voicePrintOf(speech.samples, speech.probabilities));
      piece++;
    }
  } catch (error) {
    if (error instanceof AudioDecodeError) throw new LocalEngineError(error.kind, error.message);
    throw error;
  }
  let speakers = words.length ? 1 : 0;
  if (options.maxSpeakers && prints.length) {
    const voices = clusterVoices(prints, options.maxSpeakers);
    for (const word of words) word.speaker = voices[word.piece!];
    speakers = new Set(words.map((word) => word.speaker)).size;
  }
  for (const word of words) delete word.piece;
  return { words, audioSeconds: total.samples / SAMPLE_RATE, speakers };
}
