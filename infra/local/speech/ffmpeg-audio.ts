import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Decoding any upload to what the speech models read: ffmpeg turns the media's first audio stream
 * into 16 kHz mono 16-bit PCM on its standard output, read as a stream in chunks (never the whole
 * file in memory). The ffmpeg program is the one @ffmpeg-installer ships inside its per-platform
 * npm package (a static build), so no system package is needed.
 */

export const SAMPLE_RATE = 16_000;

/** Why decoding failed: media ffmpeg cannot read as audio, or ffmpeg itself missing. */
export class AudioDecodeError extends Error {
  override readonly name = 'AudioDecodeError';
  constructor(
    readonly kind: 'unsupported-media' | 'unavailable',
    message: string,
  ) {
    super(message);
  }
}

/** The ffmpeg program of @ffmpeg-installer for this platform, or undefined when it is not installed. */
export function ffmpegPath(): string | undefined {
  try {
    const installed = createRequire(__filename)('@ffmpeg-installer/ffmpeg') as { path: string };
    accessSync(installed.path, constants.X_OK);
    return installed.path;
  } catch {
    return undefined;
  }
}

/** ffmpeg's first error line, shortened to what a reason may show (no path of ours). */
function reasonOf(stderr: string, file: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.replaceAll(file, 'the file').trim())
    .filter(Boolean);
  const line = lines.find((candidate) => /invalid|not|error|unknown|unsupported|no /i.test(candidate)) ?? lines[0];
  return line ? `ffmpeg could not decode it as audio (${line.slice(0, 160)})` : 'ffmpeg could not decode it as audio';
}

/**
 * The audio of `file` as float samples in [-1, 1), chunk after chunk (about 64 KB of PCM each).
 * ffmpeg only reads local files here (protocol whitelist), takes the first audio stream and drops
 * video. A file ffmpeg cannot decode, or without audio, throws 'unsupported-media' once its
 * output ends; `signal` stops ffmpeg. ffmpeg dies with its reader: its stdout is a pipe, so it
 * gets SIGPIPE if this process is killed.
 */
export async function* decodedAudio(file: string, signal?: AbortSignal): AsyncGenerator<Float32Array> {
  const program = ffmpegPath();
  if (!program) throw new AudioDecodeError('unavailable', 'ffmpeg (@ffmpeg-installer/ffmpeg) is not installed');
  const child = spawn(
    program,
    [
      ...['-nostdin', '-hide_banner', '-v', 'error', '-protocol_whitelist', 'file', '-i', file],
      ...['-map', '0:a:0', '-vn', '-sn', '-dn', '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 's16le', 'pipe:1'],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], signal },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => {
    child.once('close', (code) => resolve(code));
    child.once('error', () => resolve(-1));
  });
  let carry: Buffer | undefined;
  let samples = 0;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      const bytes = carry ? Buffer.concat([carry, chunk]) : chunk;
      const whole = bytes.length - (bytes.length % 2);
      carry = whole < bytes.length ? bytes.subarray(whole) : undefined;
      const out = new Float32Array(whole / 2);
      for (let i = 0; i < out.length; i++) out[i] = bytes.readInt16LE(i * 2) / 32768;
      samples += out.length;
      if (out.length) yield out;
    }
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  const code = await exited;
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
  if (code !== 0) throw new AudioDecodeError('unsupported-media', reasonOf(stderr, file));
  if (samples === 0) throw new AudioDecodeError('unsupported-media', 'the file holds no audio');
}
