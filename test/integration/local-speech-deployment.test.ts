import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startLocalDeployment, stopLocalDeployment, type StartedDeployment } from '../support/local-deployment';
import { concatenated, encoded, normalizedWords, samplesOf, silence, testSet, wordErrors } from '../support/recorded-speech';
import { speechAvailable } from '../support/speech';

/**
 * `npm start` with its own speech engine, as a newcomer meets it: the banner's PERSONAL_KEY
 * uploads a recording (the banner's Create upload URL, an m4a) and it is transcribed; then the
 * deployment is killed with SIGKILL while a transcription runs: nothing it started is left
 * running, and a restart on the same data directory finishes the recording.
 */
const describeWithSpeech = speechAvailable ? describe : describe.skip;

const processesUsing = (dataDir: string) =>
  execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(dataDir) && !line.includes('ps -eo'));

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs / 1000} s; last: ${JSON.stringify(value).slice(0, 500)}`);
    await pause(200);
  }
}

describeWithSpeech('npm start transcribing recorded speech', () => {
  let deployment: StartedDeployment;
  let key: string;
  /** A request with the banner's key; a keep-alive socket the server closed while idle (the test building audio) is retried once. */
  const api = async (method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const send = () =>
      fetch(`${deployment.runtime.apiUrl}${url}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    const response = await send().catch((error: Error & { cause?: Error }) => {
      if (!/other side closed/.test(String(error.cause?.message))) throw error;
      return send();
    });
    return { status: response.status, body: await response.json().catch(() => undefined) };
  };

  /** Uploads a file through the public Create upload URL with the banner's personal key; answers the recording id. */
  async function upload(file: string, filename: string, contentType: string): Promise<string> {
    const bytes = readFileSync(file);
    const created = await api('POST', '/api/v1/public/recordings/upload-url', {
      filename,
      content_type: contentType,
      size_bytes: bytes.length,
    });
    expect(created.status).toBe(201);
    const { recording_id: id, upload_url: url, headers } = created.body.data;
    expect((await fetch(url, { method: 'PUT', headers, body: bytes })).status).toBe(200);
    return id;
  }
  const recordingOf = async (id: string) =>
    (await api('GET', '/api/v1/public/recordings?limit=100')).body.data.find((item: { id: string }) => item.id === id);
  const transcriptOf = async (id: string) =>
    (
      await fetch(`${deployment.runtime.apiUrl}/api/v1/public/recordings/${id}/transcript?format=txt`, {
        headers: { authorization: `Bearer ${key}` },
      })
    ).text();

  afterAll(async () => {
    if (deployment && deployment.child.exitCode === null) await stopLocalDeployment(deployment.child, 'SIGKILL');
    if (deployment) rmSync(deployment.dataDir, { recursive: true, force: true });
  });

  it("transcribes the first upload made with the banner's PERSONAL_KEY, as the README walks through it", async () => {
    deployment = await startLocalDeployment({ env: { LOCAL_SEED: 'demo' } });
    key = /export PERSONAL_KEY=(\S+)/.exec(deployment.output())![1];
    const clip = testSet().find((candidate) => candidate.reference === 'he might even have been made amiable himself')!;
    const id = await upload(encoded(samplesOf(clip), 'notes.m4a', ['-c:a', 'aac']), 'notes.m4a', 'audio/mp4');
    const done = await until(
      'the upload transcribed',
      () => recordingOf(id),
      (item) => ['completed', 'failed'].includes(item?.transcript_status),
      60_000,
    );
    expect(done).toMatchObject({ transcript_status: 'completed', state: 'ready' });
    // One `<speaker>: <text>` line per turn: a single voice is its recorder's (docs/transcript-controls.md).
    const spoken = (await transcriptOf(id))
      .split('\n')
      .map((line) => line.replace(/^[^:]*:\s*/, ''))
      .join(' ');
    expect(normalizedWords(spoken)).toEqual(normalizedWords(clip.reference));
  });

  it('killed with SIGKILL mid-transcription: leaves no process behind, and a restart finishes the recording', async () => {
    const readings = testSet().filter((candidate) => candidate.source === 'librivox');
    const parts = [0, 1, 2].flatMap(() => readings.flatMap((clip) => [samplesOf(clip), silence(0.8)]));
    const id = await upload(encoded(concatenated(parts), 'reading.flac', ['-c:a', 'flac']), 'reading.flac', 'audio/flac');
    const jobs = path.join(deployment.dataDir, 'transcribe', 'jobs');
    await until(
      'the engine at work',
      async () =>
        readdirSync(jobs).map((file) => JSON.parse(readFileSync(path.join(jobs, file), 'utf8')) as { name: string; status: string }),
      (stored) => stored.some((job) => job.name.includes(id) && job.status === 'IN_PROGRESS'),
      30_000,
    );
    await pause(1500);
    expect((await recordingOf(id)).transcript_status).toBe('processing');
    expect(processesUsing(deployment.dataDir).some((line) => line.includes('java'))).toBe(true);

    process.kill(deployment.runtime.pid, 'SIGKILL');
    await until(
      'the deployment gone',
      async () => deployment.child.exitCode !== null || deployment.child.signalCode !== null,
      Boolean,
      10_000,
    );
    // Its watchdog stops DynamoDB Local; the engine was a thread of the process, ffmpeg dies with its pipe.
    await until(
      'no process of the deployment left',
      async () => processesUsing(deployment.dataDir),
      (left) => left.length === 0,
      10_000,
    );

    deployment = await startLocalDeployment({ dataDir: deployment.dataDir, env: { LOCAL_SEED: 'demo' } });
    const done = await until(
      'the recording completed after the restart',
      () => recordingOf(id),
      (item) => ['completed', 'failed'].includes(item?.transcript_status),
      120_000,
    );
    expect(done).toMatchObject({ transcript_status: 'completed', state: 'ready' });
    const said = normalizedWords(parts.length ? [0, 1, 2].flatMap(() => readings.map((clip) => clip.reference)).join(' ') : '');
    const heard = normalizedWords(await transcriptOf(id)).filter((word) => !/^speaker$|^\d+$/.test(word));
    expect(wordErrors(said, heard) / said.length).toBeLessThanOrEqual(0.1);
  });
});
