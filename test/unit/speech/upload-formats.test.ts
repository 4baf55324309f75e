import { writeFileSync } from 'node:fs';
import { isLocalTranscriptionAvailable, LocalEngineError, recognizeSpeech } from '../../../infra/local/local-speech-engine';
import { stopEngineWorker } from '../../../infra/local/speech/engine-thread';
import { UPLOAD_CONTENT_TYPES } from '../../../shared/schemas/recordings';
import {
  encoded,
  normalizedWords,
  recordedSpeechAvailable,
  samplesOf,
  TESTDATA_PACKAGE,
  testSet,
  wordErrors,
} from '../../support/recorded-speech';

/**
 * Every content type the upload route admits is transcribed by the local engine: a recorded
 * sentence is encoded here by ffmpeg in each (codec and container, with a video track for the
 * video types) and must come back as said. Media without audio, or not media at all, fails as
 * unsupported media with ffmpeg's reason.
 */
const available = isLocalTranscriptionAvailable() && recordedSpeechAvailable;
if (!available) console.warn(`Skipping the upload formats test: npm ci, and apt-get install ${TESTDATA_PACKAGE}.`);
const describeWithSpeech = available ? describe : describe.skip;

/** A small moving picture to go with the sound of the video types. */
const VIDEO = ['-f', 'lavfi', '-i', 'testsrc=size=96x64:rate=10', '-map', '1:v', '-map', '0:a', '-shortest', '-pix_fmt', 'yuv420p'];

/** How each admitted type is made: file name and ffmpeg's output options. */
const MADE_AS: Record<(typeof UPLOAD_CONTENT_TYPES)[number], [string, string[]]> = {
  'audio/mpeg': ['speech.mp3', ['-c:a', 'libmp3lame', '-b:a', '64k']],
  'audio/mp4': ['speech.m4a', ['-c:a', 'aac', '-b:a', '64k']],
  'audio/x-m4a': ['speech.m4a', ['-c:a', 'alac']],
  'audio/aac': ['speech.aac', ['-c:a', 'aac', '-f', 'adts']],
  'audio/wav': ['speech.wav', ['-ar', '44100', '-ac', '2', '-c:a', 'pcm_s16le']],
  'audio/x-wav': ['speech.wav', ['-ar', '8000', '-c:a', 'pcm_u8']],
  'audio/webm': ['speech.webm', ['-c:a', 'libopus', '-b:a', '32k']],
  'audio/ogg': ['speech.ogg', ['-c:a', 'libvorbis', '-q:a', '3']],
  'audio/flac': ['speech.flac', ['-c:a', 'flac']],
  'video/mp4': ['speech.mp4', [...VIDEO, '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac']],
  'video/webm': ['speech.webm', [...VIDEO, '-c:v', 'libvpx', '-deadline', 'realtime', '-c:a', 'libopus']],
  'video/quicktime': ['speech.mov', [...VIDEO, '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac']],
};

describeWithSpeech('upload formats in the local engine', () => {
  // The engine's worker thread holds its models between files; it ends with the suite.
  afterAll(() => stopEngineWorker());

  const clip = testSet().find((candidate) => candidate.reference === 'he might even have been made amiable himself')!;
  const samples = samplesOf(clip);
  const said = normalizedWords(clip.reference);

  it('has a way to make every admitted type', () => {
    expect(Object.keys(MADE_AS).sort()).toEqual([...UPLOAD_CONTENT_TYPES].sort());
  });

  it.each([...UPLOAD_CONTENT_TYPES, 'audio/ogg (Opus)'])('transcribes %s', async (type) => {
    const [name, args] =
      type === 'audio/ogg (Opus)' ? ['speech.opus', ['-c:a', 'libopus', '-f', 'ogg']] : MADE_AS[type as keyof typeof MADE_AS];
    const { words, audioSeconds } = await recognizeSpeech(encoded(samples, name, args));
    expect(audioSeconds).toBeGreaterThan(2.5);
    // 8 kHz unsigned 8-bit and low bitrates lose detail: one word may differ, no more.
    expect(wordErrors(said, normalizedWords(words.map((word) => word.word).join(' ')))).toBeLessThanOrEqual(1);
  });

  it('fails a video without sound, and a file that is not media, as unsupported media with the reason', async () => {
    const silent = encoded(samples, 'picture.mp4', [
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=96x64:rate=10:duration=2',
      '-map',
      '1:v',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
    ]);
    const error = await recognizeSpeech(silent).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LocalEngineError);
    expect(error).toMatchObject({
      kind: 'unsupported-media',
      message: expect.stringMatching(/^ffmpeg could not decode it as audio \(.+\)$/),
    });

    const notMedia = encoded(samples, 'x.wav', []).replace(/x\.wav$/, 'notes.m4a');
    writeFileSync(notMedia, 'These are meeting notes, typed, not recorded.\n'.repeat(20));
    await expect(recognizeSpeech(notMedia)).rejects.toMatchObject({ kind: 'unsupported-media' });
  });
});
