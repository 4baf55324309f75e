import { WebVTTParser } from 'webvtt-parser';
import htmlEntities from 'webvtt-parser/html-entities.json';
import { renderTranscript, transcriptFileName, TRANSCRIPT_FORMATS } from '../../shared/transcription/transcript-formats';
import type { TranscriptSegment } from '../../shared/storage/recording-part-items';

/** The export formats, each checked by a parser we did not write (WebVTT: W3C's validator) or by the format's grammar (SubRip). */
const segments: TranscriptSegment[] = [
  { speaker: 'Speaker 1', text: 'Good morning, everyone. Shall we start?', start: 0.54, end: 2.93 },
  { speaker: 'Speaker 2', text: 'Yes: R&D <budget> is approved --> next.', start: 3.61, end: 5.333 },
  { speaker: 'Speaker 1', text: 'A line\n\nbreak inside', start: 3725.5, end: 3725.5 },
];
const transcript = { recordingId: 'rec_1', language: 'en-US', segments };
/** With the HTML entity table the package ships (its built-in one misreads `&amp;` as `&` followed by `;`). */
const vttParser = () => new WebVTTParser(htmlEntities);

describe('renderTranscript', () => {
  it('json: the recording, its language, the whole text and the segments', () => {
    const { contentType, body } = renderTranscript('json', transcript);
    expect(contentType).toBe('application/json');
    expect(JSON.parse(body)).toEqual({ recording_id: 'rec_1', language: 'en-US', text: segments.map((s) => s.text).join(' '), segments });
  });

  it("vtt: W3C's parser reads every cue without an error, with the speaker as voice and the text unescaped", () => {
    const { contentType, body } = renderTranscript('vtt', transcript);
    expect(contentType).toBe('text/vtt; charset=utf-8');
    expect(body.startsWith('WEBVTT\n\n')).toBe(true);
    const { cues, errors } = vttParser().parse(body);
    expect(errors).toEqual([]);
    expect(cues.map((cue) => [cue.startTime, cue.endTime])).toEqual([
      [0.54, 2.93],
      [3.61, 5.333],
      // A zero-length turn lasts 1 ms: a cue must end after it starts.
      [3725.5, 3725.501],
    ]);
    const voices = cues.map((cue) => cue.tree.children[0]);
    expect(voices.map((voice) => [voice.name, voice.value])).toEqual([
      ['v', 'Speaker 1'],
      ['v', 'Speaker 2'],
      ['v', 'Speaker 1'],
    ]);
    expect(voices[1].children?.map((child) => child.value).join('')).toBe('Yes: R&D <budget> is approved -> next.');
    expect(body).toContain('01:02:05.500 --> 01:02:05.501\n<v Speaker 1>A line break inside');
  });

  it('vtt: an empty transcript is a valid file of no cues', () => {
    const { cues, errors } = vttParser().parse(renderTranscript('vtt', { ...transcript, segments: [] }).body);
    expect([cues, errors]).toEqual([[], []]);
  });

  it('srt: numbered cues in the SubRip grammar, the speaker leading each text', () => {
    const { contentType, body } = renderTranscript('srt', transcript);
    expect(contentType).toBe('application/x-subrip');
    // SubRip: blocks separated by one blank line; each is a counter from 1, a timing line, one or more text lines.
    const blocks = body.replace(/\n$/, '').split('\n\n');
    expect(blocks).toHaveLength(3);
    const cue = /^(\d+)\n(\d{2}):(\d{2}):(\d{2}),(\d{3}) --> (\d{2}):(\d{2}):(\d{2}),(\d{3})\n([^\n]+(\n[^\n]+)*)$/;
    blocks.forEach((block, index) => {
      const match = cue.exec(block);
      expect(match).not.toBeNull();
      const [, counter, h1, m1, s1, ms1, h2, m2, s2, ms2] = match!.map(Number);
      expect(counter).toBe(index + 1);
      expect([m1, s1, m2, s2].every((part) => part < 60)).toBe(true);
      expect(h2 * 3_600_000 + m2 * 60_000 + s2 * 1000 + ms2).toBeGreaterThan(h1 * 3_600_000 + m1 * 60_000 + s1 * 1000 + ms1);
    });
    expect(blocks[0]).toBe('1\n00:00:00,540 --> 00:00:02,930\nSpeaker 1: Good morning, everyone. Shall we start?');
    expect(blocks[2]).toBe('3\n01:02:05,500 --> 01:02:05,501\nSpeaker 1: A line break inside');
  });

  it('txt: one "Speaker: text" line per turn', () => {
    const { contentType, body } = renderTranscript('txt', transcript);
    expect(contentType).toBe('text/plain; charset=utf-8');
    expect(body).toBe(
      'Speaker 1: Good morning, everyone. Shall we start?\nSpeaker 2: Yes: R&D <budget> is approved -> next.\nSpeaker 1: A line break inside\n',
    );
  });

  it('renders a 4-hour transcript of 10,000 turns in every format within the response limit', () => {
    const long = Array.from({ length: 10_000 }, (_, i) => ({
      speaker: `Speaker ${(i % 3) + 1}`,
      text: 'word '.repeat(40).trim(),
      start: i * 1.44,
      end: i * 1.44 + 1.2,
    }));
    for (const format of TRANSCRIPT_FORMATS) {
      const { body } = renderTranscript(format, { ...transcript, segments: long });
      // Lambda answers at most 6 MB; the export route must check the size it serves (this is the body alone).
      expect(Buffer.byteLength(body)).toBeLessThan(6 * 1024 * 1024);
    }
    expect(vttParser().parse(renderTranscript('vtt', { ...transcript, segments: long }).body).errors).toEqual([]);
  });
});

describe('transcriptFileName', () => {
  it('keeps ASCII letters, digits, dots, dashes and underscores of the title, with the extension', () => {
    expect(transcriptFileName('Weekly sync: Q3 / budget', 'vtt')).toBe('Weekly-sync-Q3-budget.vtt');
    expect(transcriptFileName('Réunion déjà prévue', 'srt')).toBe('Reunion-deja-prevue.srt');
    expect(transcriptFileName('"quotes"; and\r\nnewlines', 'txt')).toBe('quotes-and-newlines.txt');
    expect(transcriptFileName('会議', 'json')).toBe('transcript.json');
    expect(transcriptFileName('..', 'txt')).toBe('transcript.txt');
    expect(transcriptFileName('x'.repeat(300), 'vtt')).toBe(`${'x'.repeat(100)}.vtt`);
  });
});
