import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ffmpegPath } from '../../infra/local/speech/ffmpeg-audio';

/**
 * Recorded human speech with reference transcripts, from Debian's pocketsphinx-testdata
 * (test/fixtures/speech/README.md gives the sources and licences), and what the tests make of
 * it with ffmpeg (the one @ffmpeg-installer ships): 16 kHz samples, recordings of two voices
 * with pauses, and files in every upload format. .ci/run installs the package; without it the
 * suites that need it are skipped, except under CI, where they fail.
 */
export const TESTDATA = '/usr/share/pocketsphinx/test/data';
export const TESTDATA_PACKAGE = 'pocketsphinx-testdata';

export const recordedSpeechAvailable = existsSync(path.join(TESTDATA, 'librivox', 'transcription')) && ffmpegPath() !== undefined;
if (!recordedSpeechAvailable && process.env.CI)
  throw new Error(`Recorded test speech is missing: apt-get install ${TESTDATA_PACKAGE} (and npm ci for ffmpeg).`);

export interface Clip {
  /** Which recording set: librivox (a LibriVox reading), cards (spoken card names), commands (CMU Sphinx's test utterances). */
  source: 'librivox' | 'cards' | 'commands';
  file: string;
  reference: string;
  /** The recording's format when it is headerless 16 kHz 16-bit PCM. */
  raw?: true;
}

/** Reads a Sphinx transcription file: `<s> words </s> (id)` per line. */
function sphinxTranscription(file: string): { id: string; words: string }[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => /^<s>\s*(.*?)\s*<\/s>\s*\((.+)\)$/.exec(line.trim()))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ id: match[2], words: match[1] }));
}

/** The test set: every recording of the package whose words are known. */
export function testSet(): Clip[] {
  return [
    ...sphinxTranscription(path.join(TESTDATA, 'librivox', 'transcription')).map(({ id, words }) => ({
      source: 'librivox' as const,
      file: path.join(TESTDATA, 'librivox', `${id}.wav`),
      reference: words,
    })),
    ...sphinxTranscription(path.join(TESTDATA, 'cards', 'cards.transcription')).map(({ id, words }) => ({
      source: 'cards' as const,
      file: path.join(TESTDATA, 'cards', `${id}.wav`),
      reference: words,
    })),
    // PocketSphinx's own tests expect these words (its goforward grammar; a TIDIGITS-style name spells the digits, z for zero).
    { source: 'commands', file: path.join(TESTDATA, 'goforward.raw'), reference: 'go forward ten meters', raw: true },
    { source: 'commands', file: path.join(TESTDATA, 'tidigits', 'dhd.2934z.raw'), reference: 'two nine three four zero', raw: true },
  ];
}

const inputArgs = (clip: Pick<Clip, 'file' | 'raw'>) =>
  clip.raw ? ['-f', 's16le', '-ar', '16000', '-ac', '1', '-i', clip.file] : ['-i', clip.file];

/** A clip's audio as 16 kHz mono float samples. */
export function samplesOf(clip: Pick<Clip, 'file' | 'raw'>): Float32Array {
  const pcm = execFileSync(
    ffmpegPath()!,
    ['-nostdin', '-v', 'error', ...inputArgs(clip), '-ac', '1', '-ar', '16000', '-f', 's16le', 'pipe:1'],
    {
      maxBuffer: 1 << 30,
    },
  );
  const samples = new Float32Array(pcm.length / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = pcm.readInt16LE(i * 2) / 32768;
  return samples;
}

/** Silence of `seconds` at 16 kHz. */
export const silence = (seconds: number) => new Float32Array(Math.round(seconds * 16000));

export function concatenated(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) out.set(part, (offset += part.length) - part.length);
  return out;
}

/** 16 kHz mono float samples as a 16-bit WAV file's bytes. */
export function wavOf(samples: Float32Array): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) data.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(samples[i] * 32768))), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16000, 24);
  header.writeUInt32LE(32000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/**
 * Two voices taking turns with pauses: the LibriVox reader and the card caller (two people),
 * A B A B A B, 1.5 s apart. Answers the audio and which voice speaks each turn, with its times.
 */
export function twoVoices(): { samples: Float32Array; turns: { voice: 'A' | 'B'; file: string; start: number; end: number }[] } {
  const clips = testSet();
  const a = clips.filter((clip) => clip.source === 'librivox');
  const b = clips.filter((clip) => clip.source === 'cards');
  const parts: Float32Array[] = [];
  const turns: { voice: 'A' | 'B'; file: string; start: number; end: number }[] = [];
  let at = 0;
  for (let i = 0; i < 3; i++) {
    for (const [voice, clip] of [
      ['A', a[i]],
      ['B', b[i === 2 ? 4 : i]],
    ] as const) {
      const samples = samplesOf(clip);
      turns.push({ voice, file: clip.file, start: at, end: at + samples.length / 16000 });
      parts.push(samples, silence(1.5));
      at += samples.length / 16000 + 1.5;
    }
  }
  return { samples: concatenated(parts), turns };
}

/** A file of `samples` encoded by ffmpeg with `args` (codec, container) as `name`, in a new temporary directory. */
export function encoded(samples: Float32Array, name: string, args: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'speech-format-'));
  const wav = path.join(dir, 'input.wav');
  writeFileSync(wav, wavOf(samples));
  const file = path.join(dir, name);
  execFileSync(ffmpegPath()!, ['-nostdin', '-v', 'error', '-y', '-i', wav, ...args, file]);
  return file;
}

/** Words for scoring: lower case, hyphens as spaces, no punctuation; "Mr." is "mister", as the LibriVox reference writes it. */
export function normalizedWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/\bmr\b\.?/g, 'mister')
    .replace(/\bmrs\b\.?/g, 'missus')
    .replace(/-/g, ' ')
    .replace(/[^a-z0-9' ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/** Word edit distance (substitutions, insertions, deletions) between a reference and a hypothesis. */
export function wordErrors(reference: string[], hypothesis: string[]): number {
  let previous = Array.from({ length: hypothesis.length + 1 }, (_, j) => j);
  for (let i = 1; i <= reference.length; i++) {
    const row = [i];
    for (let j = 1; j <= hypothesis.length; j++)
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[hypothesis.length];
}
