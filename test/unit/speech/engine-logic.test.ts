import { transcribeOutputOf, type RecognizedWord } from '../../../infra/local/local-speech-engine';
import { joinOverlap, speechSpans, timedWords, withoutLoops, wordsOfTokens } from '../../../infra/local/speech/piece-words';
import { FRAME, FRAME_SECONDS, type SpeechPiece } from '../../../infra/local/speech/speech-pieces';
import { clusterVoices } from '../../../infra/local/speech/voice-clusters';
import { durationOf, readTranscribeOutput, speakerTurnsOf } from '../../../shared/transcription/transcribe-output';

/**
 * The local engine's own logic without its models: tokens into words with punctuation and
 * confidences, loops collapsed, word times inside the speech spans, the join of pieces cut
 * with overlap, voice clustering, and Transcribe's output shape read back by the reader of
 * Transcribe's own files. The models run in test/unit/speech/.
 */

const tokens = (...parts: [string, number][]) => parts.map(([text, probability]) => ({ text, probability }));

/** A piece of `frames` frames whose speech probabilities are 0.9 where `speech` says so (frame ranges), else 0.05. */
function piece(start: number, frames: number, speech: [number, number][], overlap = 0): SpeechPiece {
  const probabilities = new Float32Array(frames).fill(0.05);
  for (const [from, to] of speech) probabilities.fill(0.9, from, to);
  return { start, samples: new Float32Array(frames * FRAME), probabilities, overlap };
}

describe('wordsOfTokens', () => {
  it('makes words of tokens, with the lowest probability of the tokens spelling each, and the punctuation after it', () => {
    const words = wordsOfTokens(
      tokens([' He', 0.9], [' was', 0.8], [' ill', 0.7], ['-dis', 0.4], ['posed', 0.6], [',', 0.9], [' yes', 0.95], ['.', 0.99]),
    );
    expect(words).toEqual([
      { text: 'He', confidence: 0.9 },
      { text: 'was', confidence: 0.8 },
      { text: 'ill-disposed', confidence: 0.4, punctuation: ',' },
      { text: 'yes', confidence: 0.95, punctuation: '.' },
    ]);
    expect(wordsOfTokens(tokens([' "Why', 0.9], ['?"', 0.8], [' -', 0.5]))).toEqual([{ text: 'Why', confidence: 0.8, punctuation: '?' }]);
  });
});

describe('withoutLoops', () => {
  const texts = (line: string) => line.split(' ').map((text) => ({ text }));
  it('collapses a phrase said three times in a row, or a word four times, and keeps what people do repeat', () => {
    const looped = texts('he said we go now we go now we go now we go now and left');
    expect(
      withoutLoops(looped)
        .map((word) => word.text)
        .join(' '),
    ).toBe('he said we go now and left');
    expect(withoutLoops(texts('five five')).map((word) => word.text)).toEqual(['five', 'five']);
    expect(withoutLoops(texts('no no no no no')).map((word) => word.text)).toEqual(['no']);
  });
});

describe('timedWords', () => {
  it('spreads the words over the speech frames by length, each word inside the span that holds its middle', () => {
    // Speech in frames 5–35 and 60–90 of a piece starting at 10 s; a pause between them.
    const words = timedWords(
      piece(10, 100, [
        [5, 35],
        [60, 90],
      ]),
      [
        { text: 'alpha', confidence: 1 },
        { text: 'beta', confidence: 1 },
        { text: 'gamma', confidence: 1 },
        { text: 'delta', confidence: 1, punctuation: '.' },
      ],
    );
    const spans = speechSpans(
      piece(10, 100, [
        [5, 35],
        [60, 90],
      ]),
    ).map((span) => ({ start: 10 + span.start, end: 10 + span.end }));
    expect(spans).toEqual([
      { start: 10 + 5 * FRAME_SECONDS, end: 10 + 35 * FRAME_SECONDS },
      { start: 10 + 60 * FRAME_SECONDS, end: 10 + 90 * FRAME_SECONDS },
    ]);
    for (const word of words) {
      expect(spans.some((span) => span.start - 0.001 <= word.start && word.end <= span.end + 0.001)).toBe(true);
      expect(word.end).toBeGreaterThan(word.start);
    }
    expect(words.map((word) => word.start)).toEqual([...words.map((word) => word.start)].sort((a, b) => a - b));
    expect(words[0].start).toBeCloseTo(spans[0].start, 2);
    expect(words[3]).toMatchObject({ word: 'delta', punctuation: '.' });
    expect(words[3].end).toBeCloseTo(spans[1].end, 2);
  });
});

describe('joinOverlap', () => {
  const word = (text: string, start: number): RecognizedWord => ({ word: text, start, end: start + 0.3, confidence: 1 });
  const previous = ['we', 'will', 'meet', 'again', 'on', 'monday'].map((text, i) => word(text, 20 + i * 0.4));
  it('drops the words the new piece repeats from the overlap, after a word clipped by the cut', () => {
    const next = ['day', 'again', 'on', 'monday', 'morning', 'at', 'nine'].map((text, i) => word(text, 21 + i * 0.35));
    expect(joinOverlap(previous, next, 21, 2).map((w) => w.word)).toEqual(['morning', 'at', 'nine']);
  });
  it('drops by time when no words match, and joins pieces cut at a pause as they are', () => {
    const next = [word('uh', 21.2), word('mm', 22.5), word('then', 23.4), word('lunch', 23.9)];
    expect(joinOverlap(previous, next, 21, 2).map((w) => w.word)).toEqual(['then', 'lunch']);
    expect(joinOverlap(previous, next, 21, 0)).toBe(next);
  });
});

describe('clusterVoices', () => {
  const print = (direction: number[], noise: number, seconds = 3) => ({
    vector: direction.map((value, i) => value + noise * Math.sin(i * 7 + noise * 100)),
    seconds,
  });
  const a = Array.from({ length: 24 }, (_, i) => Math.cos(i));
  const b = Array.from({ length: 24 }, (_, i) => Math.sin(i * 2));
  it('groups pieces by voice, in order of first appearance, and places short pieces by the nearest voice', () => {
    const prints = [print(a, 0.1), print(b, 0.2), print(a, 0.15), print(b, 0.1), print(a, 0.05, 0.4)];
    expect(clusterVoices(prints, 10)).toEqual([0, 1, 0, 1, 0]);
  });
  it('never makes more voices than asked for', () => {
    const c = Array.from({ length: 24 }, (_, i) => Math.cos(i * 3 + 1));
    expect(new Set(clusterVoices([print(a, 0.1), print(b, 0.1), print(c, 0.1)], 2)).size).toBe(2);
    expect(clusterVoices([], 2)).toEqual([]);
  });
});

describe('transcribeOutputOf', () => {
  const words: RecognizedWord[] = [
    { word: 'Ten', start: 0.2, end: 0.5, confidence: 0.99, speaker: 0 },
    { word: 'clubs', start: 0.5, end: 0.9, confidence: 0.42, punctuation: '.', speaker: 0 },
    { word: 'He', start: 2.5, end: 2.7, confidence: 0.9, speaker: 1 },
    { word: 'left', start: 2.7, end: 3.1, confidence: 0.8, punctuation: '.', speaker: 1 },
  ];

  it("writes Transcribe's shape: string times and confidences, punctuation items, speaker labels and segments", () => {
    const output = transcribeOutputOf('job-1', words, 'en-US', { speakerLabels: true });
    expect(output.results.items[1]).toEqual({
      id: 1,
      type: 'pronunciation',
      alternatives: [{ confidence: '0.4200', content: 'clubs' }],
      start_time: '0.500',
      end_time: '0.900',
      speaker_label: 'spk_0',
    });
    expect(output.results.items[2]).toEqual({
      id: 2,
      type: 'punctuation',
      alternatives: [{ confidence: '0.0', content: '.' }],
      speaker_label: 'spk_0',
    });
    expect(output.results.transcripts).toEqual([{ transcript: 'Ten clubs. He left.' }]);
    expect(output.results.speaker_labels).toMatchObject({
      speakers: 2,
      segments: [{ speaker_label: 'spk_0' }, { speaker_label: 'spk_1' }],
    });

    const read = readTranscribeOutput(JSON.parse(JSON.stringify(output)));
    expect(speakerTurnsOf(read)).toEqual([
      { speaker: 'Speaker 1', text: 'Ten clubs.', start: 0.2, end: 0.9 },
      { speaker: 'Speaker 2', text: 'He left.', start: 2.5, end: 3.1 },
    ]);
    expect(durationOf(read)).toBe(3.1);
  });

  it('leaves speaker labels out when they were not asked for, and writes a valid file for audio with no words', () => {
    const plain = transcribeOutputOf('job-2', words, 'en-US', { speakerLabels: false });
    expect(plain.results).not.toHaveProperty('speaker_labels');
    expect(plain.results.items.every((item) => !('speaker_label' in item))).toBe(true);
    const empty = readTranscribeOutput(transcribeOutputOf('job-3', [], 'en-US', { speakerLabels: true }));
    expect(speakerTurnsOf(empty)).toEqual([]);
    expect(empty.results.transcripts).toEqual([{ transcript: '' }]);
  });
});
