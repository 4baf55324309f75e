import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The offline speech engine behind the local Transcribe stand-in: Debian's PocketSphinx
 * (English only, no speaker separation) on audio that ffmpeg turned into 16 kHz mono 16-bit
 * WAV, PocketSphinx's one input format. Its word lines become Transcribe's batch output shape
 * (transcribeOutputOf), so the code that reads Transcribe output is the same in both places.
 */

/** The Debian packages the local engine needs (named in ENGINE_UNAVAILABLE and the README). */
export const LOCAL_ENGINE_PACKAGES = ['pocketsphinx', 'pocketsphinx-en-us', 'ffmpeg'] as const;

const PROGRAMS = ['pocketsphinx_continuous', 'ffmpeg', 'ffprobe'] as const;
/** pocketsphinx-en-us installs its acoustic model here; pocketsphinx_continuous finds it by default. */
const ENGLISH_MODEL = '/usr/share/pocketsphinx/model/en-us/en-us';

/** The one language the local engine's model knows. */
export const LOCAL_ENGINE_LANGUAGE = 'en-US';

function onPath(program: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Whether the local engine can run here: its programs on the PATH and the English model installed. */
export function isLocalTranscriptionAvailable(): boolean {
  return PROGRAMS.every(onPath) && existsSync(ENGLISH_MODEL);
}

/** A word PocketSphinx recognized, times in seconds from the start of the audio. */
export interface RecognizedWord {
  word: string;
  start: number;
  end: number;
  confidence: number;
  /** PocketSphinx marked a pause after it (`<sil>`, or the utterance's end `</s>`): where the stand-in puts a full stop. */
  pauseAfter?: true;
}

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

/**
 * PocketSphinx's output with `-time yes`: for each utterance a hypothesis line, then one line
 * per word `word start end confidence` (absolute times). Markers (<s>, </s>, <sil>), fillers
 * ([NOISE], ++UM++) are dropped, and alternate pronunciations `the(2)` become their word. A
 * pause marker (`<sil>`, `</s>`) marks the word before it: `pauseAfter`.
 */
export function wordsOfPocketsphinx(stdout: string): RecognizedWord[] {
  const words: RecognizedWord[] = [];
  for (const line of stdout.split('\n')) {
    const match = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/.exec(line.trim());
    if (!match) continue;
    const word = match[1].replace(/\(\d+\)$/, '');
    if (word === '<sil>' || word === '</s>') {
      const last = words.at(-1);
      if (last) last.pauseAfter = true;
      continue;
    }
    if (/^[<[+]/.test(word)) continue;
    words.push({ word, start: Number(match[2]), end: Number(match[3]), confidence: Math.min(1, Number(match[4])) });
  }
  return words;
}

/** A gap this long between words starts a new speaker segment (Transcribe's segments follow pauses). */
const SEGMENT_GAP_SECONDS = 1.5;

/** Times and confidences as Transcribe writes them: decimal strings. */
const decimal = (value: number, digits: number) => value.toFixed(digits);

/** The word as written at the start of a sentence. */
const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * Recognized words as a Transcribe batch output file: results.transcripts, items (pronunciations
 * with times and confidences, one speaker spk_0: PocketSphinx separates no speakers),
 * speaker_labels with its segments, language_code. PocketSphinx writes no punctuation; like
 * Transcribe's automatic punctuation, the stand-in ends a sentence (a `.` punctuation item, the
 * next word capitalized) where PocketSphinx heard a pause, which is where speakers end theirs
 * often enough for the summaries' sentence splitting (docs/transcription.md).
 */
export function transcribeOutputOf(jobName: string, words: RecognizedWord[], languageCode: string) {
  type Item =
    | {
        id: number;
        type: 'pronunciation';
        alternatives: { confidence: string; content: string }[];
        start_time: string;
        end_time: string;
        speaker_label: string;
      }
    | { id: number; type: 'punctuation'; alternatives: { confidence: string; content: string }[]; speaker_label: string };
  const items: Item[] = [];
  const texts: string[] = [];
  const segments: {
    speaker_label: string;
    start_time: string;
    end_time: string;
    items: { speaker_label: string; start_time: string; end_time: string }[];
  }[] = [];
  let sentenceStart = true;
  words.forEach((word, index) => {
    const content = sentenceStart ? capitalized(word.word) : word.word;
    const entry = { speaker_label: 'spk_0', start_time: decimal(word.start, 3), end_time: decimal(word.end, 3) };
    items.push({ id: items.length, type: 'pronunciation', alternatives: [{ confidence: decimal(word.confidence, 4), content }], ...entry });
    const last = segments.at(-1);
    if (last && index > 0 && word.start - Number(last.end_time) < SEGMENT_GAP_SECONDS) {
      last.items.push(entry);
      last.end_time = entry.end_time;
    } else {
      segments.push({ ...entry, items: [entry] });
    }
    sentenceStart = word.pauseAfter === true || index === words.length - 1;
    texts.push(sentenceStart ? `${content}.` : content);
    if (sentenceStart)
      items.push({ id: items.length, type: 'punctuation', alternatives: [{ confidence: '0.0', content: '.' }], speaker_label: 'spk_0' });
  });
  return {
    jobName,
    accountId: '111122223333',
    status: 'COMPLETED',
    results: {
      language_code: languageCode,
      transcripts: [{ transcript: texts.join(' ') }],
      speaker_labels: { channel_label: 'ch_0', speakers: words.length ? 1 : 0, segments },
      items,
    },
  };
}

interface ProgramResult {
  stdout: string;
  stderr: string;
}

function run(program: string, args: string[], timeoutMs: number, signal?: AbortSignal): Promise<ProgramResult> {
  return new Promise((resolve, reject) => {
    execFile(program, args, { maxBuffer: 256 * 1024 * 1024, timeout: timeoutMs, signal }, (error, stdout, stderr) => {
      if (!error) return resolve({ stdout, stderr });
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return reject(new LocalEngineError('unavailable', `${program} is not installed`));
      reject(Object.assign(error as Error, { stderr }));
    });
  });
}

/** Bounds of one job: the 4-hour audio Transcribe accepts takes PocketSphinx about an hour and a quarter here. */
const CONVERT_TIMEOUT_MS = 10 * 60_000;
const RECOGNIZE_TIMEOUT_MS = 3 * 3_600_000;

/**
 * Transcribes one media file: ffmpeg → `<workDir>/audio.wav` (16 kHz, mono, 16-bit), its length
 * from ffprobe, then PocketSphinx. Media ffmpeg cannot decode (or without an audio stream) is
 * 'unsupported-media'; a missing program is 'unavailable'. `signal` stops the programs (the stand-in stopping).
 */
export async function recognizeSpeech(
  mediaFile: string,
  workDir: string,
  signal?: AbortSignal,
): Promise<{ words: RecognizedWord[]; audioSeconds: number }> {
  if (!isLocalTranscriptionAvailable()) throw new LocalEngineError('unavailable', 'the local speech engine is not installed');
  const wav = path.join(workDir, 'audio.wav');
  try {
    await run(
      'ffmpeg',
      ['-nostdin', '-v', 'error', '-y', '-i', mediaFile, '-vn', '-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', '-f', 'wav', wav],
      CONVERT_TIMEOUT_MS,
      signal,
    );
  } catch (error) {
    if (error instanceof LocalEngineError || signal?.aborted) throw error;
    throw new LocalEngineError('unsupported-media', 'ffmpeg could not decode the file as audio');
  }
  const probe = await run(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', wav],
    CONVERT_TIMEOUT_MS,
    signal,
  );
  const audioSeconds = Number(probe.stdout.trim());
  if (!Number.isFinite(audioSeconds) || audioSeconds <= 0) throw new LocalEngineError('unsupported-media', 'the file holds no audio');
  const { stdout } = await run(
    'pocketsphinx_continuous',
    ['-infile', wav, '-time', 'yes', '-logfn', '/dev/null'],
    RECOGNIZE_TIMEOUT_MS,
    signal,
  );
  return { words: wordsOfPocketsphinx(stdout), audioSeconds };
}
