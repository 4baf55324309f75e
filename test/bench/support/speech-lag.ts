import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startLocalDeployment, stopLocalDeployment } from '../../support/local-deployment';
import { concatenated, samplesOf, silence, testSet, wavOf } from '../../support/recorded-speech';
import type { SummaryRow } from './bench-summary';

/**
 * Lag from upload to `completed` on `npm start` (a fresh demo deployment, the banner's personal
 * key, the real pipeline: S3 event → completion → queued transcription → the stand-in's job →
 * its event → the finisher), beside the engine's own time for the job (the stand-in's start and
 * completion times). Three uploads each of a 9-second and a 1-minute recording, one after the
 * other; the first of all also loads the models.
 */
export async function measureLag(dir: string): Promise<SummaryRow[]> {
  const clips = testSet().filter((clip) => clip.source === 'librivox');
  const short = path.join(dir, 'lag-short.wav');
  writeFileSync(short, wavOf(concatenated([samplesOf(clips[0]), silence(0.5), samplesOf(clips[4]).subarray(0, 16000)])));
  const minute = path.join(dir, 'lag-minute.wav');
  writeFileSync(minute, wavOf(concatenated([0, 1, 2].flatMap(() => clips.flatMap((clip) => [samplesOf(clip), silence(1.2)])))));

  const deployment = await startLocalDeployment({ env: { LOCAL_SEED: 'demo' } });
  const key = /export PERSONAL_KEY=(\S+)/.exec(deployment.output())![1];
  const api = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${deployment.runtime.apiUrl}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return (await response.json()) as any;
  };
  const jobsDir = path.join(deployment.dataDir, 'transcribe', 'jobs');
  const rows: SummaryRow[] = [];
  try {
    for (const [label, file] of [
      ['9 s', short],
      ['1 minute', minute],
    ] as const) {
      const samples: { lag: number; engine: number }[] = [];
      for (let run = 0; run < 3; run++) {
        const bytes = readFileSync(file);
        const created = await api('POST', '/api/v1/public/recordings/upload-url', {
          filename: 'lag.wav',
          content_type: 'audio/wav',
          size_bytes: bytes.length,
        });
        const { recording_id: id, upload_url: url, headers } = created.data;
        await fetch(url, { method: 'PUT', headers, body: bytes });
        const uploaded = performance.now();
        let status = '';
        while (status !== 'completed' && status !== 'failed') {
          await new Promise((resolve) => setTimeout(resolve, 50));
          status = (await api('GET', '/api/v1/public/recordings?limit=100')).data.find(
            (item: { id: string }) => item.id === id,
          )?.transcript_status;
          if (performance.now() - uploaded > 300_000) throw new Error(`${label} upload not transcribed within 5 minutes`);
        }
        const lag = (performance.now() - uploaded) / 1000;
        const job = readdirSync(jobsDir)
          .map(
            (name) =>
              JSON.parse(readFileSync(path.join(jobsDir, name), 'utf8')) as { name: string; startTime: number; completionTime: number },
          )
          .find((candidate) => candidate.name.includes(id))!;
        samples.push({ lag, engine: job.completionTime - job.startTime });
      }
      const over = samples.map((sample) => sample.lag - sample.engine);
      rows.push({
        area: 'speech',
        measure: `lag upload → completed, ${label} recording (3 runs, the first loading the models): lag / engine time, s`,
        value: samples.map((sample) => `${sample.lag.toFixed(2)} / ${sample.engine.toFixed(2)}`).join('; '),
        goal: 'lag ≤ engine + 2 s',
        met: over.every((value) => value <= 2),
      });
    }
  } finally {
    await stopLocalDeployment(deployment.child, 'SIGTERM');
  }
  return rows;
}
