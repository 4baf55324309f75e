import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isLocalTranscriptionAvailable } from '../../infra/local/local-speech-engine';
import { recordedSpeechAvailable, samplesOf, testSet, wavOf } from './recorded-speech';

/**
 * Speech for the transcription suites. Words are asserted on recorded human speech (a LibriVox
 * reading from Debian's pocketsphinx-testdata, test/support/recorded-speech.ts); Flite speaks
 * only the meeting whose sentences the summaries need ("Maria will send the contract by
 * Friday", said by no recording in a package). The engine is npm packages; the recordings and
 * Flite are Debian packages that `.ci/run` installs; without them the suites that need them are
 * skipped (CI fails instead).
 */
function commandExists(program: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const SPEECH_TEST_PACKAGES = ['pocketsphinx-testdata', 'flite'] as const;
export const speechAvailable = isLocalTranscriptionAvailable() && recordedSpeechAvailable && commandExists('flite');
if (!speechAvailable && process.env.CI)
  throw new Error(`The test speech is missing: npm ci, and apt-get install ${SPEECH_TEST_PACKAGES.join(' ')}.`);

/** The LibriVox sentence the suites upload: a recorded reader, with the words it says. */
export const SENTENCE =
  'and mister john dashwood had then leisure to consider how much there might be prudently in his power to do for them';

/** The recorded sentence as 16 kHz WAV bytes, with its length in seconds. */
export function spokenSentence(): { wav: Buffer; seconds: number } {
  const clip = testSet().find((candidate) => candidate.reference === SENTENCE)!;
  const samples = samplesOf(clip);
  return { wav: wavOf(samples), seconds: samples.length / 16000 };
}

/** A short meeting: a decision, a date, and an action item with an owner, a task and a due day. */
export const MEETING = [
  'Good morning everyone.',
  'The budget for the new office is approved.',
  'Maria will send the contract by Friday.',
  'We decided to hire two engineers next month.',
].join(' ');

/** A text spoken by Flite's `rms` voice, as 16 kHz mono 16-bit WAV, with its length in seconds. */
export function spokenMeeting(text = MEETING): { wav: Buffer; seconds: number; samples: Float32Array } {
  const dir = mkdtempSync(path.join(tmpdir(), 'speech-'));
  const raw = path.join(dir, 'raw.wav');
  execFileSync('flite', ['-voice', 'rms', '-t', text, '-o', raw]);
  const samples = samplesOf({ file: raw });
  return { wav: wavOf(samples), seconds: samples.length / 16000, samples };
}

/** The words of a text, lower-case, without punctuation. */
export const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/\bmr\b\.?/g, 'mister')
    .replace(/-/g, ' ')
    .replace(/[^a-z' ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

/** Reads a file's bytes (for uploads of files made by ffmpeg). */
export const bytesOf = (file: string) => readFileSync(file);
