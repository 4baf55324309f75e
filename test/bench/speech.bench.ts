/**
 * The local speech engine against its baseline, in one run (docs/transcription.md quotes it):
 * - word error rate per source on the recorded test set (pocketsphinx-testdata), Moonshine and
 *   PocketSphinx (the engine before; Debian's pocketsphinx pocketsphinx-en-us, skipped without);
 * - real-time factor, model load time and peak memory (each measure in a process of its own) on
 *   the test set, a 1-minute file and a 1-hour file (the 1-minute reading looped by ffmpeg, MP3);
 *   with `npm run bench -- speech-4h`, the 4-hour file too (about 20 minutes);
 * - speaker accuracy on two voices (share of words labelled with their speaker's voice);
 * - lag from upload to `completed` on `npm start`, against the engine's own time.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ffmpegPath } from '../../infra/local/speech/ffmpeg-audio';
import { recognizeInThisThread } from '../../infra/local/speech/recognize-speech';
import { concatenated, normalizedWords, samplesOf, silence, testSet, twoVoices, wavOf, wordErrors } from '../support/recorded-speech';
import { isPocketsphinxAvailable } from './support/pocketsphinx-engine';
import type { EngineMeasure } from './support/speech-measure';
import { measureLag } from './support/speech-lag';
import { runAlone, startedDirectly, type SummaryBench, type SummaryRow } from './support/bench-summary';

const TSX_CLI = path.resolve(__dirname, '../../node_modules/tsx/dist/cli.mjs');
const MEASURE = path.resolve(__dirname, 'support/speech-measure.ts');
const dir = mkdtempSync(path.join(tmpdir(), 'speech-bench-'));

function runMeasure(engine: string, files: string[]): Promise<EngineMeasure> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX_CLI, MEASURE, engine, ...files], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as EngineMeasure)
        : reject(new Error(`${engine} measure exited ${code}`)),
    );
  });
}

const percent = (value: number) => `${(100 * value).toFixed(1)}%`;
/** Word edit distance on word ids in typed rows: hours of text (tens of thousands of words) in seconds. */
function errorsOf(said: string[], heard: string[]): number {
  if (said.length * heard.length < 1e6) return wordErrors(said, heard);
  const ids = new Map<string, number>();
  const id = (word: string) => ids.get(word) ?? (ids.set(word, ids.size), ids.size - 1);
  const a = Int32Array.from(said, id);
  const b = Int32Array.from(heard, id);
  let previous = Int32Array.from({ length: b.length + 1 }, (_, j) => j);
  let row = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    [previous, row] = [row, previous];
  }
  return previous[b.length];
}
const rateOf = (pairs: [string, string][]) => {
  const words = pairs.reduce((sum, [said]) => sum + normalizedWords(said).length, 0);
  return pairs.reduce((sum, [said, heard]) => sum + errorsOf(normalizedWords(said), normalizedWords(heard)), 0) / words;
};
const realTime = (measure: EngineMeasure) =>
  measure.files.reduce((sum, file) => sum + file.engineSeconds, 0) / measure.files.reduce((sum, file) => sum + file.audioSeconds, 0);

/** The test set's clips as files the engines read (raw PCM given a WAV header), with their references. */
function testFiles() {
  return testSet().map((clip, index) => {
    const file = path.join(dir, `clip-${index}.wav`);
    writeFileSync(file, wavOf(samplesOf(clip)));
    return { ...clip, file };
  });
}

/** A reading of one minute (the LibriVox sentences and the card names, 1 s apart, until 60 s are said), and its words. */
function minuteFile(): { file: string; reference: string } {
  const clips = testSet().filter((clip) => clip.source !== 'commands');
  const parts: Float32Array[] = [];
  const said: string[] = [];
  let seconds = 0;
  for (let i = 0; seconds < 59; i++) {
    const clip = clips[i % clips.length];
    const samples = samplesOf(clip);
    if (seconds + samples.length / 16000 > 60) continue;
    parts.push(samples, silence(1));
    said.push(clip.reference);
    seconds += samples.length / 16000 + 1;
    if (i > 100) break;
  }
  const file = path.join(dir, 'minute.wav');
  writeFileSync(file, wavOf(concatenated(parts)));
  return { file, reference: said.join(' ') };
}

/** The minute looped `times` times by ffmpeg into one MP3. */
function looped(minute: string, times: number, name: string): string {
  const file = path.join(dir, name);
  execFileSync(ffmpegPath()!, [
    '-nostdin',
    '-v',
    'error',
    '-y',
    '-stream_loop',
    String(times - 1),
    '-i',
    minute,
    '-c:a',
    'libmp3lame',
    '-b:a',
    '48k',
    file,
  ]);
  return file;
}

/**
 * How far Moonshine's derived word times are from PocketSphinx's alignment (its decoder places each
 * word it heard), over the words both engines heard alike in the LibriVox clips, matched in order
 * (longest common subsequence): the median and 90th percentile of |Δ start|, in seconds.
 */
export function timePrecision(
  moonshine: EngineMeasure,
  baseline: EngineMeasure,
  clips: { source: string }[],
): { median: number; p90: number; words: number } {
  const deltas: number[] = [];
  clips.forEach((clip, index) => {
    if (clip.source !== 'librivox') return;
    const a = (moonshine.files[index].timed ?? []).map(([word, start]) => ({ word: normalizedWords(word).join(' '), start }));
    const b = (baseline.files[index].timed ?? []).map(([word, start]) => ({ word: normalizedWords(word).join(' '), start }));
    const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
    for (let i = a.length - 1; i >= 0; i--)
      for (let j = b.length - 1; j >= 0; j--)
        table[i][j] = a[i].word === b[j].word ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    for (let i = 0, j = 0; i < a.length && j < b.length;) {
      if (a[i].word === b[j].word) deltas.push(Math.abs(a[i++].start - b[j++].start));
      else if (table[i + 1][j] >= table[i][j + 1]) i++;
      else j++;
    }
  });
  deltas.sort((x, y) => x - y);
  const at = (share: number) => deltas[Math.min(deltas.length - 1, Math.floor(share * deltas.length))] ?? NaN;
  return { median: at(0.5), p90: at(0.9), words: deltas.length };
}

/** Words labelled with the voice of the turn they lie in, under the best mapping of labels to voices. */
async function speakerAccuracy(): Promise<{ accuracy: number; speakers: number }> {
  const { samples, turns } = twoVoices();
  const file = path.join(dir, 'two-voices.wav');
  writeFileSync(file, wavOf(samples));
  const { words, speakers } = await recognizeInThisThread(file, { maxSpeakers: 10 });
  const voiceOf = (time: number) => turns.find((turn) => turn.start <= time && time <= turn.end)?.voice;
  const counts = new Map<string, number>();
  for (const word of words) {
    const key = `${word.speaker}:${voiceOf((word.start + word.end) / 2)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const right = Math.max((counts.get('0:A') ?? 0) + (counts.get('1:B') ?? 0), (counts.get('0:B') ?? 0) + (counts.get('1:A') ?? 0));
  return { accuracy: right / words.length, speakers };
}

async function measureAll(options: { fourHours: boolean }) {
  const rows: SummaryRow[] = [];
  const clips = testFiles();
  const moonshine = await runMeasure(
    'moonshine',
    clips.map((clip) => clip.file),
  );
  const baseline = isPocketsphinxAvailable()
    ? await runMeasure(
        'pocketsphinx',
        clips.map((clip) => clip.file),
      )
    : undefined;
  for (const source of ['librivox', 'cards', 'commands', 'all'] as const) {
    const pick = (measure: EngineMeasure) =>
      clips.flatMap((clip, i) =>
        source === 'all' || clip.source === source ? [[clip.reference, measure.files[i].words] as [string, string]] : [],
      );
    const words = pick(moonshine).reduce((sum, [said]) => sum + normalizedWords(said).length, 0);
    const value = rateOf(pick(moonshine));
    rows.push({
      area: 'speech',
      measure: `WER, ${source === 'all' ? 'whole test set' : source} (${words} words): Moonshine (PocketSphinx)`,
      value: `${percent(value)} (${baseline ? percent(rateOf(pick(baseline))) : 'not installed'})`,
      ...(source === 'all' ? { goal: '≤ 10% (goal < 5%)', met: value <= 0.1 } : {}),
    });
  }
  rows.push({
    area: 'speech',
    measure: 'model load (Moonshine encoder + decoder + Silero VAD), s',
    value: moonshine.loadSeconds.toFixed(2),
  });
  if (baseline) {
    const precision = timePrecision(moonshine, baseline, clips);
    rows.push({
      area: 'speech',
      measure: `word start times vs PocketSphinx's alignment (LibriVox, ${precision.words} words both heard): median / 90th percentile |Δ|, s`,
      value: `${precision.median.toFixed(2)} / ${precision.p90.toFixed(2)}`,
    });
  }
  rows.push({
    area: 'speech',
    measure: 'real-time factor on the test set (short clips), Moonshine (PocketSphinx)',
    value: `${realTime(moonshine).toFixed(3)} (${baseline ? realTime(baseline).toFixed(3) : 'n/a'})`,
  });

  const minute = minuteFile();
  const minuteMoonshine = await runMeasure('moonshine', [minute.file]);
  const minuteBaseline = isPocketsphinxAvailable() ? await runMeasure('pocketsphinx', [minute.file]) : undefined;
  rows.push({
    area: 'speech',
    measure: `1 minute (${minuteMoonshine.files[0].audioSeconds.toFixed(1)} s): real-time factor, Moonshine (PocketSphinx)`,
    value: `${realTime(minuteMoonshine).toFixed(3)} (${minuteBaseline ? realTime(minuteBaseline).toFixed(3) : 'n/a'})`,
  });
  rows.push({ area: 'speech', measure: '1 minute: peak RSS of the engine process, MB', value: minuteMoonshine.peakRssMb.toFixed(0) });
  rows.push({
    area: 'speech',
    measure: '1 minute: WER, Moonshine (PocketSphinx)',
    value: `${percent(rateOf([[minute.reference, minuteMoonshine.files[0].words]]))} (${minuteBaseline ? percent(rateOf([[minute.reference, minuteBaseline.files[0].words]])) : 'n/a'})`,
  });

  for (const [label, times, name] of [['1 hour', 60, 'hour.mp3'], ...(options.fourHours ? [['4 hours', 240, 'four-hours.mp3']] : [])] as [
    string,
    number,
    string,
  ][]) {
    const long = await runMeasure('moonshine', [looped(minute.file, times, name)]);
    const reference = Array.from({ length: times }, () => minute.reference).join(' ');
    const heard = long.files[0].words;
    rows.push({
      area: 'speech',
      measure: `${label} (MP3, ${(long.files[0].audioSeconds / 60).toFixed(1)} min): real-time factor`,
      value: realTime(long).toFixed(3),
    });
    rows.push({
      area: 'speech',
      measure: `${label}: peak RSS of the engine process, MB (1 minute: ${minuteMoonshine.peakRssMb.toFixed(0)})`,
      value: long.peakRssMb.toFixed(0),
      goal: '≤ 1 minute’s + 150 (bounded)',
      met: long.peakRssMb <= minuteMoonshine.peakRssMb + 150,
    });
    const ratio = normalizedWords(heard).length / normalizedWords(reference).length;
    rows.push({
      area: 'speech',
      measure: `${label}: WER, and words heard / words said (loops would add, lost sentences remove)`,
      value: `${percent(rateOf([[reference, heard]]))}, ${ratio.toFixed(3)}`,
      goal: 'WER ≤ 10%, ratio 0.97–1.03',
      met: rateOf([[reference, heard]]) <= 0.1 && ratio >= 0.97 && ratio <= 1.03,
    });
  }

  const speakers = await speakerAccuracy();
  rows.push({
    area: 'speech',
    measure: `two voices, 6 turns: speakers found, words labelled with their voice`,
    value: `${speakers.speakers}, ${percent(speakers.accuracy)}`,
    goal: '2, ≥ 90%',
    met: speakers.speakers === 2 && speakers.accuracy >= 0.9,
  });
  rows.push(...(await measureLag(dir)));
  return { rows };
}

export const summary: SummaryBench = async () => (await measureAll({ fourHours: process.env.SPEECH_BENCH_FOUR_HOURS === '1' })).rows;

if (startedDirectly(__filename))
  runAlone(
    () => measureAll({ fourHours: process.argv.includes('--four-hours') }),
    () => {},
  );
