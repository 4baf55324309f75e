import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isLocalTranscriptionAvailable } from '../../infra/local/local-speech-engine';

/**
 * Speech for the transcription suites: a sentence of known words spoken by Debian's espeak-ng,
 * as 16-bit WAV. The local engine (PocketSphinx) and espeak-ng/sox are Debian packages that
 * `.ci/run` installs; without them the suites that need the engine are skipped (CI fails instead).
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

export const speechAvailable = isLocalTranscriptionAvailable() && ['espeak-ng', 'sox'].every(commandExists);
if (!speechAvailable && process.env.CI) throw new Error('The local speech engine or espeak-ng/sox is missing: install pocketsphinx pocketsphinx-en-us ffmpeg espeak-ng sox.');

/** The sentence spoken, as WAV bytes, with its length in seconds. */
export function spokenSentence(text = SENTENCE): { wav: Buffer; seconds: number } {
  const dir = mkdtempSync(path.join(tmpdir(), 'speech-'));
  const file = path.join(dir, 'speech.wav');
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', file, text]);
  return { wav: readFileSync(file), seconds: Number(execFileSync('soxi', ['-D', file]).toString().trim()) };
}

/** The words of a text, lower-case, without punctuation. */
export const wordsOf = (text: string) => text.toLowerCase().replace(/[^a-z' ]/g, ' ').split(/\s+/).filter(Boolean);
