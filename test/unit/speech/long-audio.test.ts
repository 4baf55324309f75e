import { isLocalTranscriptionAvailable, recognizeSpeech } from '../../../infra/local/local-speech-engine';
import { stopEngineWorker } from '../../../infra/local/speech/engine-thread';
import { piecesOf } from '../../support/pieces-of';
import {
  concatenated,
  encoded,
  normalizedWords,
  recordedSpeechAvailable,
  samplesOf,
  silence,
  TESTDATA_PACKAGE,
  testSet,
  wordErrors,
} from '../../support/recorded-speech';

/**
 * How the engine streams long audio, on audio made here from the recorded clips: the pieces it
 * cuts never exceed their bound whatever the length (memory stays bounded), silence yields no
 * piece, and speech with no pause to cut at is cut with overlap and joined back without doubled
 * or lost words. The 1-hour and 4-hour proofs are in `npm run bench` (test/bench/speech.bench.ts).
 */
const available = isLocalTranscriptionAvailable() && recordedSpeechAvailable;
if (!available) console.warn(`Skipping the long audio test: npm ci, and apt-get install ${TESTDATA_PACKAGE}.`);
const describeWithSpeech = available ? describe : describe.skip;

/** A file of 16 kHz samples, for the engine to decode. */
const fileOf = (samples: Float32Array) => encoded(samples, 'audio.wav', []);

/** A clip's speech without its leading and trailing silence (the VAD's own view), so clips joined end to end leave no pause. */
async function speechOnly(samples: Float32Array): Promise<Float32Array> {
  const pieces = await piecesOf(fileOf(samples));
  const pad = 0.25 + 0.05;
  const from = Math.round((pieces[0].start + pad) * 16000);
  const to = Math.round((pieces.at(-1)!.start + pieces.at(-1)!.seconds - pad) * 16000);
  return samples.slice(from, to);
}

describeWithSpeech('long audio in the local engine', () => {
  // The engine's worker thread holds its models between files; it ends with the suite.
  afterAll(() => stopEngineWorker());

  const librivox = testSet().filter((clip) => clip.source === 'librivox');

  it('cuts two minutes of speech and silence into bounded pieces of speech, none in the silence', async () => {
    // Ten sentences read with short pauses (0.15 s), 12 s of silence, then five with longer pauses, twice.
    const trimmed = await Promise.all(librivox.map((clip) => speechOnly(samplesOf(clip))));
    const parts: Float32Array[] = [];
    for (const sentence of [...trimmed, ...trimmed]) parts.push(sentence, silence(0.15));
    parts.push(silence(12));
    for (let round = 0; round < 2; round++) for (const clip of librivox) parts.push(samplesOf(clip), silence(round === 0 ? 12 : 0.3));
    const audio = concatenated(parts);
    expect(audio.length / 16000).toBeGreaterThan(100);
    const pieces = await piecesOf(fileOf(audio));
    // Sentences 0.15 s apart run together into long pieces, cut at a short pause near 24 s; others end at their pauses.
    expect(pieces.length).toBeGreaterThanOrEqual(8);
    expect(pieces.some((piece) => piece.seconds > 12)).toBe(true);
    // 24 s at most, plus the pauses' padding: whatever the length, one piece is all that is held.
    for (const piece of pieces) expect(piece.seconds).toBeLessThanOrEqual(24 + 2 * 0.25 + 0.05);
    expect(pieces.every((piece) => piece.overlap === 0)).toBe(true);
    // No piece lies within the long silences (12 s after each clip of the second round).
    const silences: [number, number][] = [];
    let at = 0;
    for (const part of parts) {
      if (part.length > 16000 && part.every((sample) => sample === 0)) silences.push([at + 1, at + part.length / 16000 - 1]);
      at += part.length / 16000;
    }
    for (const piece of pieces) {
      const end = piece.start + piece.seconds;
      expect(silences.some(([from, to]) => piece.start < to && end > from)).toBe(false);
    }
  });

  it('joins speech cut without a pause (forced 6 s pieces, 2 s overlap) without doubled or lost words', async () => {
    const clips = librivox.slice(0, 3);
    const speech = concatenated(await Promise.all(clips.map((clip) => speechOnly(samplesOf(clip)))));
    const file = fileOf(speech);
    const said = normalizedWords(clips.map((clip) => clip.reference).join(' '));
    const whole = await recognizeSpeech(file);
    const cut = await recognizeSpeech(file, { pieces: { maxPieceSeconds: 6, overlapSeconds: 2, cutAtPauses: false } });
    const heard = (recognition: typeof whole) => normalizedWords(recognition.words.map((word) => word.word).join(' '));
    const wholeErrors = wordErrors(said, heard(whole));
    const cutErrors = wordErrors(said, heard(cut));
    console.log(
      `No-pause speech (${(speech.length / 16000).toFixed(1)} s): ${wholeErrors} errors in 24 s pieces, ${cutErrors} in 6 s pieces cut with overlap, of ${said.length} words; heard "${heard(cut).join(' ')}".`,
    );
    // Cutting every 6 s may cost a word at a cut, never a doubled phrase or a lost sentence.
    expect(cutErrors).toBeLessThanOrEqual(wholeErrors + 3);
    expect(heard(cut).length).toBeGreaterThanOrEqual(said.length - 3);
    expect(heard(cut).length).toBeLessThanOrEqual(said.length + 2);
    const times = cut.words.map((word) => word.start);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
