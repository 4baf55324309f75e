import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  durationOf,
  readTranscribeOutput,
  speakerTurnsOf,
  UnreadableTranscribeOutputError,
} from '../../shared/transcription/transcribe-output';

/** Transcribe output → speaker turns, on samples in AWS's documented output shape (test/support/transcribe-output-samples). */
const sample = (name: string) =>
  readTranscribeOutput(JSON.parse(readFileSync(path.join(__dirname, '../support/transcribe-output-samples', name), 'utf8')));

describe('readTranscribeOutput', () => {
  it("reads AWS's documented example, times and confidences from strings to numbers", () => {
    const output = sample('two-speakers.json');
    expect(output.results.items[0]).toMatchObject({
      type: 'pronunciation',
      start_time: 4.87,
      end_time: 5.02,
      alternatives: [{ confidence: 1, content: "I've" }],
    });
    expect(output.results.speaker_labels?.segments).toHaveLength(2);
  });

  it('refuses a shape it does not know, naming the path and never the text', () => {
    const broken = {
      jobName: 'j',
      results: { transcripts: [{ transcript: 'secret words' }], items: [{ type: 'word', alternatives: [{ content: 'secret' }] }] },
    };
    expect(() => readTranscribeOutput(broken)).toThrow(UnreadableTranscribeOutputError);
    try {
      readTranscribeOutput(broken);
    } catch (error) {
      expect((error as Error).message).toContain('results.items.0.type');
      expect((error as Error).message).not.toContain('secret');
    }
    expect(() =>
      readTranscribeOutput({
        jobName: 'j',
        results: {
          transcripts: [],
          items: [{ type: 'pronunciation', start_time: 'soon', end_time: '1', alternatives: [{ content: 'a' }] }],
        },
      }),
    ).toThrow(UnreadableTranscribeOutputError);
    expect(() => readTranscribeOutput('not json')).toThrow(UnreadableTranscribeOutputError);
  });
});

describe('speakerTurnsOf', () => {
  it("makes turns of AWS's two-speaker example, punctuation attached to the word before", () => {
    expect(speakerTurnsOf(sample('two-speakers.json'))).toEqual([
      { speaker: 'Speaker 1', text: "I've been on hold for an hour.", start: 4.87, end: 6.88 },
      { speaker: 'Speaker 2', text: 'Sorry about that.', start: 8.49, end: 9.24 },
    ]);
  });

  it('names speakers in order of first appearance and splits one speaker at a pause of 3 s or more', () => {
    expect(speakerTurnsOf(sample('three-speakers.json'))).toEqual([
      { speaker: 'Speaker 1', text: 'Good morning, everyone. Shall we start?', start: 0.54, end: 2.93 },
      { speaker: 'Speaker 2', text: 'Yes, the budget is approved.', start: 3.61, end: 5.33 },
      // 8.73 - 5.33 = 3.4 s of silence: the same speaker starts a new turn.
      { speaker: 'Speaker 2', text: 'Next item.', start: 8.73, end: 9.4 },
      { speaker: 'Speaker 3', text: 'Thanks Anna!', start: 9.95, end: 10.8 },
      { speaker: 'Speaker 1', text: 'Great.', start: 11.4, end: 11.77 },
    ]);
  });

  it('splits at exactly 3 s and keeps a pause just under it', () => {
    const output = readTranscribeOutput({
      jobName: 'j',
      results: {
        transcripts: [{ transcript: 'a b c' }],
        items: [
          {
            type: 'pronunciation',
            start_time: '0.0',
            end_time: '1.0',
            speaker_label: 'spk_4',
            alternatives: [{ confidence: '0.9', content: 'a' }],
          },
          {
            type: 'pronunciation',
            start_time: '3.999',
            end_time: '4.5',
            speaker_label: 'spk_4',
            alternatives: [{ confidence: '0.9', content: 'b' }],
          },
          {
            type: 'pronunciation',
            start_time: '7.5',
            end_time: '8.0',
            speaker_label: 'spk_4',
            alternatives: [{ confidence: '0.9', content: 'c' }],
          },
        ],
      },
    });
    expect(speakerTurnsOf(output)).toEqual([
      { speaker: 'Speaker 1', text: 'a b', start: 0, end: 4.5 },
      { speaker: 'Speaker 1', text: 'c', start: 7.5, end: 8 },
    ]);
  });

  it('keeps overlapping speech apart: words in time order, each with its own speaker', () => {
    expect(speakerTurnsOf(sample('overlapping-speech.json'))).toEqual([
      { speaker: 'Speaker 1', text: 'So the plan is', start: 0.3, end: 1.05 },
      { speaker: 'Speaker 2', text: 'Wait', start: 0.98, end: 1.3 },
      { speaker: 'Speaker 1', text: 'to ship.', start: 1.12, end: 1.55 },
      { speaker: 'Speaker 2', text: 'wait.', start: 1.4, end: 1.71 },
    ]);
  });

  it('makes one speaker of an output without speaker labels, still split at long pauses', () => {
    expect(speakerTurnsOf(sample('no-speaker-labels.json'))).toEqual([
      { speaker: 'Speaker 1', text: 'Testing one, two.', start: 0.2, end: 1.2 },
      { speaker: 'Speaker 1', text: 'Testing again.', start: 5, end: 5.9 },
    ]);
  });

  it('reads the speaker from speaker_labels.segments when items carry none', () => {
    expect(speakerTurnsOf(sample('segment-labels-only.json')).map(({ speaker, text }) => `${speaker}: ${text}`)).toEqual([
      'Speaker 1: Hello there.',
      'Speaker 2: Hi.',
    ]);
  });

  it('transcribes an identified language like any other, and an empty output to no turns', () => {
    const output = sample('identified-language.json');
    expect(output.results.language_code).toBe('de-DE');
    expect(speakerTurnsOf(output)).toEqual([{ speaker: 'Speaker 1', text: 'Guten Morgen, alle zusammen.', start: 0.4, end: 2.3 }]);
    expect(speakerTurnsOf(readTranscribeOutput({ jobName: 'j', results: { transcripts: [{ transcript: '' }], items: [] } }))).toEqual([]);
  });

  it('rounds times to milliseconds', () => {
    const output = readTranscribeOutput({
      jobName: 'j',
      results: {
        transcripts: [],
        items: [{ type: 'pronunciation', start_time: '0.12345', end_time: '0.98765', alternatives: [{ confidence: '1.0', content: 'x' }] }],
      },
    });
    expect(speakerTurnsOf(output)).toEqual([{ speaker: 'Speaker 1', text: 'x', start: 0.123, end: 0.988 }]);
  });
});

describe('durationOf', () => {
  it('is the end of the last timed item or segment, or a longer known length', () => {
    expect(durationOf(sample('two-speakers.json'))).toBe(9.24);
    expect(durationOf(sample('two-speakers.json'), 12.5)).toBe(12.5);
    expect(durationOf(sample('two-speakers.json'), 3)).toBe(9.24);
    expect(durationOf(readTranscribeOutput({ jobName: 'j', results: { transcripts: [], items: [] } }))).toBe(0);
  });
});
