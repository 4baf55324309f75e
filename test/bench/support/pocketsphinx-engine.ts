import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The local engine before Moonshine, kept for the speech bench's baseline only: Debian's
 * PocketSphinx (apt-get install pocketsphinx pocketsphinx-en-us ffmpeg) on audio that ffmpeg
 * turned into 16 kHz mono 16-bit WAV, PocketSphinx's one input format.
 */

/** The Debian packages the baseline needs. */
export const POCKETSPHINX_PACKAGES = ['pocketsphinx', 'pocketsphinx-en-us', 'ffmpeg'] as const;

const PROGRAMS = ['pocketsphinx_continuous', 'ffmpeg', 'ffprobe'] as const;
/** pocketsphinx-en-us installs its acoustic model here; pocketsphinx_continuous finds it by default. */
const ENGLISH_MODEL = '/usr/share/pocketsphinx/model/en-us/en-us';

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
export function isPocketsphinxAvailable(): boolean {
  return PROGRAMS.every(onPath) && existsSync(ENGLISH_MODEL);
}

/** A word PocketSphinx recognized, times in seconds from the start of the audio. */
export interface PocketsphinxWord {
  word: string;
  start: number;
  end: number;
  confidence: number;
  /** PocketSphinx marked a pause after it (`<sil>`, or the utterance's end `</s>`): where the stand-in puts a full stop. */
  pauseAfter?: true;
}

/** Why the engine could not transcribe a file: media it cannot decode, or itself missing. */
export class PocketsphinxError extends Error {
  override readonly name = 'PocketsphinxError';
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
export function wordsOfPocketsphinx(stdout: string): PocketsphinxWord[] {
  const words: PocketsphinxWord[] = [];
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

interface ProgramResult {
  stdout: string;
  stderr: string;
}

function run(program: string, args: string[], timeoutMs: number, signal?: AbortSignal): Promise<ProgramResult> {
  return new Promise((resolve, reject) => {
    execFile(program, args, { maxBuffer: 256 * 1024 * 1024, timeout: timeoutMs, signal }, (error, stdout, stderr) => {
      if (!error) return resolve({ stdout, stderr });
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return reject(new PocketsphinxError('unavailable', `${program} is not installed`));
      reject(Object.assign(error, { stderr }));
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
export async function recognizeWithPocketsphinx(
  mediaFile: string,
  workDir: string,
  signal?: AbortSignal,
): Promise<{ words: PocketsphinxWord[]; audioSeconds: number }> {
  if (!isPocketsphinxAvailable()) throw new PocketsphinxError('unavailable', 'the local speech engine is not installed');
  const wav = path.join(workDir, 'audio.wav');
  try {
    await run(
      'ffmpeg',
      ['-nostdin', '-v', 'error', '-y', '-i', mediaFile, '-vn', '-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', '-f', 'wav', wav],
      CONVERT_TIMEOUT_MS,
      signal,
    );
  } catch (error) {
    if (error instanceof PocketsphinxError || signal?.aborted) throw error;
    throw new PocketsphinxError('unsupported-media', 'ffmpeg could not decode the file as audio');
  }
  const probe = await run(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', wav],
    CONVERT_TIMEOUT_MS,
    signal,
  );
  const audioSeconds = Number(probe.stdout.trim());
  if (!Number.isFinite(audioSeconds) || audioSeconds <= 0) throw new PocketsphinxError('unsupported-media', 'the file holds no audio');
  const { stdout } = await run(
    'pocketsphinx_continuous',
    ['-infile', wav, '-time', 'yes', '-logfn', '/dev/null'],
    RECOGNIZE_TIMEOUT_MS,
    signal,
  );
  return { words: wordsOfPocketsphinx(stdout), audioSeconds };
}
