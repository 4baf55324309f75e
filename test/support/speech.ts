import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isLocalTranscriptionAvailable } from '../../infra/local/local-speech-engine';

/**
 * Speech for the transcription suites: a sentence of known words spoken by Debian's espeak-ng,
 * and a meeting spoken by Flite (whose `rms` voice PocketSphinx hears almost word for word,
 * where it hears a few words of espeak-ng's), as 16-bit WAV. The local engine (PocketSphinx),
 * espeak-ng, flite and sox are Debian packages that `.ci/run` installs; without them the suites
 * that need the engine are skipped (CI fails instead).
 */
export const SENTENCE = 'The budget for the new office is approved. We start building in March.';

function commandExists(program: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const speechAvailable = isLocalTranscriptionAvailable() && ['espeak-ng', 'flite', 'sox'].every(commandExists);
if (!speechAvailable && process.env.CI)
  throw new Error(
    'The local speech engine or espeak-ng/flite/sox is missing: install pocketsphinx pocketsphinx-en-us ffmpeg espeak-ng flite sox.',
  );

/** The sentence spoken, as WAV bytes, with its length in seconds. */
export function spokenSentence(text = SENTENCE): { wav: Buffer; seconds: number } {
  const dir = mkdtempSync(path.join(tmpdir(), 'speech-'));
  const file = path.join(dir, 'speech.wav');
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', file, text]);
  return { wav: readFileSync(file), seconds: Number(execFileSync('soxi', ['-D', file]).toString().trim()) };
}

/** A short meeting: a decision, a date, and an action item with an owner, a task and a due day. */
export const MEETING = [
  'Good morning everyone.',
  'The budget for the new office is approved.',
  'Maria will send the contract by Friday.',
  'We decided to hire two engineers next month.',
].join(' ');

/** A text spoken by Flite's `rms` voice, resampled to 16 kHz mono 16-bit WAV, with its length in seconds. */
export function spokenMeeting(text = MEETING): { wav: Buffer; seconds: number } {
  const dir = mkdtempSync(path.join(tmpdir(), 'speech-'));
  const raw = path.join(dir, 'raw.wav');
  const file = path.join(dir, 'speech.wav');
  execFileSync('flite', ['-voice', 'rms', '-t', text, '-o', raw]);
  execFileSync('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', file]);
  return { wav: readFileSync(file), seconds: Number(execFileSync('soxi', ['-D', file]).toString().trim()) };
}

/** The words of a text, lower-case, without punctuation. */
export const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z' ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
