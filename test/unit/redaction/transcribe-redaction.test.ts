import { PII_ENTITY_TYPES, redactTranscribeOutput } from '../../../shared/redaction/redactor';
import { readTranscribeOutput, speakerTurnsOf } from '../../../shared/transcription/transcribe-output';

/** An output as the local engine writes it (infra/local/speech/transcribe-output-file.ts), with ids, speaker labels and audio segments. */
function outputOf(words: [string, string?][]) {
  const items: Record<string, unknown>[] = [];
  const entries: { speaker_label: string; start_time: string; end_time: string }[] = [];
  words.forEach(([word, punctuation], index) => {
    const times = { start_time: (index * 0.5).toFixed(3), end_time: (index * 0.5 + 0.4).toFixed(3) };
    items.push({
      id: items.length,
      type: 'pronunciation',
      alternatives: [{ confidence: '0.9', content: word }],
      ...times,
      speaker_label: 'spk_0',
    });
    entries.push({ speaker_label: 'spk_0', ...times });
    if (punctuation)
      items.push({
        id: items.length,
        type: 'punctuation',
        alternatives: [{ confidence: '0.0', content: punctuation }],
        speaker_label: 'spk_0',
      });
  });
  const transcript = words.map(([word, punctuation]) => word + (punctuation ?? '')).join(' ');
  return {
    jobName: 'job-1',
    accountId: '111122223333',
    status: 'COMPLETED',
    results: {
      language_code: 'en-US',
      transcripts: [{ transcript }],
      speaker_labels: {
        channel_label: 'ch_0',
        speakers: 1,
        segments: [{ speaker_label: 'spk_0', start_time: '0.000', end_time: entries.at(-1)!.end_time, items: entries }],
      },
      items,
      audio_segments: [
        {
          id: 0,
          transcript,
          start_time: '0.000',
          end_time: entries.at(-1)!.end_time,
          speaker_label: 'spk_0',
          items: items.map((item) => item.id),
        },
      ],
    },
  };
}

const SAID = 'my name is john smith and my card is four one one one one one one one one one one one one one one one, thanks.';
const words = (text: string) =>
  text.split(' ').map((word): [string, string?] => (/[,.]$/.test(word) ? [word.slice(0, -1), word.slice(-1)] : [word]));

describe('redactTranscribeOutput', () => {
  const output = outputOf(words(SAID));
  const redacted = redactTranscribeOutput(output, PII_ENTITY_TYPES);

  it('writes the transcript with [PII] in place of each entity', () => {
    expect(redacted.results.transcripts[0].transcript).toBe('my name is [PII] and my card is [PII], thanks.');
    expect(redacted.results.audio_segments[0].transcript).toBe('my name is [PII] and my card is [PII], thanks.');
    expect((redacted as { isRedacted?: boolean }).isRedacted).toBe(true);
  });

  it("makes one [PII] item per entity, spanning its words' times, with Transcribe's redactions", () => {
    const marks = redacted.results.items.filter((item) => (item.alternatives as { content: string }[])[0].content === '[PII]');
    expect(marks).toHaveLength(2);
    expect(marks[0]).toEqual({
      id: 3,
      type: 'pronunciation',
      start_time: '1.500',
      end_time: '2.400',
      speaker_label: 'spk_0',
      alternatives: [
        { content: '[PII]', redactions: [{ confidence: expect.stringMatching(/^0\.\d{4}$/), type: 'NAME', category: 'PII' }] },
      ],
    });
    expect((marks[1].alternatives as { redactions: { type: string }[] }[])[0].redactions[0].type).toBe('CREDIT_DEBIT_NUMBER');
    expect(marks[1].start_time).toBe('4.500');
    expect(marks[1].end_time).toBe('12.400');
    expect(redacted.results.audio_segments[0].items).toEqual(redacted.results.items.map((item) => item.id));
  });

  it('merges the speaker segment entries of each entity, and the service still reads the output', () => {
    const entries = redacted.results.speaker_labels.segments[0].items;
    expect(entries).toHaveLength(redacted.results.items.filter((item) => item.type === 'pronunciation').length);
    expect(speakerTurnsOf(readTranscribeOutput(redacted))).toEqual([
      { speaker: 'Speaker 1', text: 'my name is [PII] and my card is [PII], thanks.', start: 0, end: 12.9 },
    ]);
  });

  it('leaves no word of an entity anywhere in the file, and does not change its input', () => {
    const json = JSON.stringify(redacted);
    for (const secret of ['john', 'smith', 'four one one one', '"four"']) expect(json).not.toContain(secret);
    expect(JSON.stringify(output)).toContain('john');
  });

  it('redacts other item lists and transcripts the file holds, and copies of an entity elsewhere', () => {
    const withExtras = {
      ...outputOf(words('call me at 415 555 0132 please')),
      note: 'caller 415 555 0132',
    };
    (withExtras.results as Record<string, unknown>).channel_labels = {
      channels: [
        {
          channel_label: 'ch_0',
          items: [{ type: 'pronunciation', start_time: '0', end_time: '1', alternatives: [{ content: '415-555-0132' }] }],
        },
      ],
    };
    const result = redactTranscribeOutput(withExtras, ['PHONE']);
    const json = JSON.stringify(result);
    expect(json).not.toMatch(/415|555|0132/);
    expect(result.results.transcripts[0].transcript).toBe('call me at [PII] please');
  });

  it('leaves an output without entities as it was, but for isRedacted', () => {
    const plain = outputOf(words('the budget is approved.'));
    expect(redactTranscribeOutput(plain, PII_ENTITY_TYPES)).toEqual({ ...plain, isRedacted: true });
  });
});
