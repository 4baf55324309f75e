/**
 * One engine on one list of files, in a process of its own so that its peak memory is its own:
 *   npx tsx test/bench/support/speech-measure.ts <moonshine|pocketsphinx> <file>...
 * prints one JSON line: the model load time (Moonshine: its two ONNX sessions and the VAD, once;
 * PocketSphinx loads its model on each run, inside its time), per file the words heard, the
 * audio's seconds and the engine's seconds (decoding included), and the process's peak RSS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadMoonshine } from '../../../infra/local/speech/moonshine-recognizer';
import { recognizeInThisThread } from '../../../infra/local/speech/recognize-speech';
import { loadVoiceActivityModel } from '../../../infra/local/speech/speech-pieces';
import { recognizeWithPocketsphinx } from './pocketsphinx-engine';

export interface EngineMeasure {
  engine: string;
  loadSeconds: number;
  files: {
    file: string;
    words: string;
    audioSeconds: number;
    engineSeconds: number;
    speakers?: number;
    timed?: [string, number, number][];
  }[];
  peakRssMb: number;
}

async function measure(engine: string, files: string[]): Promise<EngineMeasure> {
  let loadSeconds = 0;
  if (engine === 'moonshine') {
    const started = performance.now();
    await Promise.all([loadMoonshine(), loadVoiceActivityModel()]);
    loadSeconds = (performance.now() - started) / 1000;
  }
  const results: EngineMeasure['files'] = [];
  for (const file of files) {
    const started = performance.now();
    if (engine === 'moonshine') {
      const { words, audioSeconds, speakers } = await recognizeInThisThread(file, { maxSpeakers: 10 });
      const text = words.map((word) => word.word).join(' ');
      const timed = words.length < 500 ? words.map((word) => [word.word, word.start, word.end] as [string, number, number]) : undefined;
      results.push({ file, words: text, audioSeconds, engineSeconds: (performance.now() - started) / 1000, speakers, timed });
    } else {
      const workDir = mkdtempSync(path.join(tmpdir(), 'bench-pocketsphinx-'));
      try {
        const { words, audioSeconds } = await recognizeWithPocketsphinx(file, workDir);
        const text = words.map((word) => word.word).join(' ');
        const timed = words.map((word) => [word.word, word.start, word.end] as [string, number, number]);
        results.push({ file, words: text, audioSeconds, engineSeconds: (performance.now() - started) / 1000, timed });
      } finally {
        rmSync(workDir, { recursive: true, force: true });
      }
    }
  }
  // maxRSS is in kilobytes on Linux.
  return { engine, loadSeconds, files: results, peakRssMb: process.resourceUsage().maxRSS / 1024 };
}

if (require.main === module) {
  const [engine, ...files] = process.argv.slice(2);
  measure(engine, files)
    .then((result) => console.log(JSON.stringify(result)))
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
