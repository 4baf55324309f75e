import { readTranscribeOutput, speakerTurnsOf, durationOf } from '../../shared/transcription/transcribe-output';
import { transcribeOutputOf, wordsOfPocketsphinx } from '../../infra/local/local-speech-engine';

/**
 * The local engine's output mapping: PocketSphinx's word lines → Transcribe's output shape, read
 * back by the same reader as Transcribe's own files. The text below is PocketSphinx 5prealpha's
 * real output (`pocketsphinx_continuous -time yes`) on two espeak-ng sentences 4 s apart.
 */
const POCKETSPHINX_OUTPUT = `oh and welcome to the
<s> 0.000 0.180 0.999700
oh 0.190 0.310 0.288072
and 0.320 0.520 0.259407
welcome 0.530 1.030 0.563794
<sil> 1.040 1.190 0.947900
to(3) 1.200 1.300 0.220739
<sil> 1.310 1.410 0.947616
the(2) 1.420 1.820 0.950368
</s> 1.830 2.280 1.000000
and cue really watch sports on to you
<s> 6.120 6.320 0.999900
and 6.330 6.570 0.029873
[NOISE] 6.580 6.600 0.500000
really 6.830 7.120 0.880280
watch 7.130 7.350 0.234859
sports 7.360 7.770 0.349231
</s> 8.650 9.010 1.000000
`;

describe('wordsOfPocketsphinx', () => {
  it('keeps the words with their times and confidences, drops markers and fillers, and reads alternates as their word', () => {
    const words = wordsOfPocketsphinx(POCKETSPHINX_OUTPUT);
    expect(words.map((word) => word.word)).toEqual(['oh', 'and', 'welcome', 'to', 'the', 'and', 'really', 'watch', 'sports']);
    expect(words[2]).toEqual({ word: 'welcome', start: 0.53, end: 1.03, confidence: 0.563794, pauseAfter: true });
    expect(words[1]).toEqual({ word: 'and', start: 0.32, end: 0.52, confidence: 0.259407 });
    // The pauses it marked (<sil>, </s>) follow: welcome, to, the, and sports.
    expect(words.filter((word) => word.pauseAfter).map((word) => word.word)).toEqual(['welcome', 'to', 'the', 'sports']);
    // A hypothesis line of four words is not a word line.
    expect(wordsOfPocketsphinx('it is approved today\nit 0.1 0.2 0.5\n')).toEqual([{ word: 'it', start: 0.1, end: 0.2, confidence: 0.5 }]);
  });
});

describe('transcribeOutputOf', () => {
  const output = transcribeOutputOf('voice-org-rec_1-1', wordsOfPocketsphinx(POCKETSPHINX_OUTPUT), 'en-US');

  it("writes Transcribe's shape: string times and confidences, one speaker, segments at pauses, the language", () => {
    expect(output.results.items[0]).toEqual({
      id: 0,
      type: 'pronunciation',
      alternatives: [{ confidence: '0.2881', content: 'Oh' }],
      start_time: '0.190',
      end_time: '0.310',
      speaker_label: 'spk_0',
    });
    // A full stop where PocketSphinx heard a pause, as a punctuation item without times; the next word capitalized.
    expect(output.results.items[3]).toEqual({
      id: 3,
      type: 'punctuation',
      alternatives: [{ confidence: '0.0', content: '.' }],
      speaker_label: 'spk_0',
    });
    expect(output.results.items.filter((item) => item.type === 'punctuation')).toHaveLength(4);
    expect(output.results.transcripts).toEqual([{ transcript: 'Oh and welcome. To. The. And really watch sports.' }]);
    expect(output.results.language_code).toBe('en-US');
    expect(output.results.speaker_labels.speakers).toBe(1);
    expect(output.results.speaker_labels.segments.map((segment) => [segment.start_time, segment.end_time, segment.items.length])).toEqual([
      ['0.190', '1.820', 5],
      ['6.330', '7.770', 4],
    ]);
  });

  it('is read by the same code as Transcribe output: one speaker, turns split at the 4 s pause', () => {
    const read = readTranscribeOutput(JSON.parse(JSON.stringify(output)));
    expect(speakerTurnsOf(read)).toEqual([
      { speaker: 'Speaker 1', text: 'Oh and welcome. To. The.', start: 0.19, end: 1.82 },
      { speaker: 'Speaker 1', text: 'And really watch sports.', start: 6.33, end: 7.77 },
    ]);
    expect(durationOf(read)).toBe(7.77);
  });

  it('ends the last sentence even without a pause marker after it', () => {
    const words = wordsOfPocketsphinx('maria will send\nmaria 0.1 0.4 0.9\nwill 0.5 0.6 0.9\nsend 0.7 0.9 0.9\n');
    expect(transcribeOutputOf('j', words, 'en-US').results.transcripts).toEqual([{ transcript: 'Maria will send.' }]);
  });

  it('writes a valid file for audio with no words', () => {
    const empty = readTranscribeOutput(transcribeOutputOf('j', [], 'en-US'));
    expect(speakerTurnsOf(empty)).toEqual([]);
    expect(empty.results.transcripts).toEqual([{ transcript: '' }]);
  });
});
