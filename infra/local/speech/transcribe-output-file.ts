import type { RecognizedWord } from './piece-words';

/**
 * Recognized words as Amazon Transcribe's batch output file: results.transcripts, items
 * (pronunciations with string times and confidences, punctuation items without times), and with
 * speaker labels asked for, a speaker_label on every item and speaker_labels.segments (one per
 * run of a voice, split at pauses of SEGMENT_GAP_SECONDS), as Transcribe writes them. The code
 * that reads Transcribe output (shared/transcription/transcribe-output.ts) reads this unchanged.
 */

/** A gap this long between words of one voice starts a new speaker segment. */
const SEGMENT_GAP_SECONDS = 1.5;

const decimal = (value: number, digits: number) => value.toFixed(digits);

type Item =
  | {
      id: number;
      type: 'pronunciation';
      alternatives: { confidence: string; content: string }[];
      start_time: string;
      end_time: string;
      speaker_label?: string;
    }
  | { id: number; type: 'punctuation'; alternatives: { confidence: string; content: string }[]; speaker_label?: string };

interface Segment {
  speaker_label: string;
  start_time: string;
  end_time: string;
  items: { speaker_label: string; start_time: string; end_time: string }[];
}

export function transcribeOutputOf(jobName: string, words: RecognizedWord[], languageCode: string, options: { speakerLabels: boolean }) {
  const items: Item[] = [];
  const texts: string[] = [];
  const segments: Segment[] = [];
  const speakers = new Set<string>();
  for (const word of words) {
    const label = `spk_${word.speaker ?? 0}`;
    const speaker = options.speakerLabels ? { speaker_label: label } : {};
    const times = { start_time: decimal(word.start, 3), end_time: decimal(word.end, 3) };
    items.push({
      id: items.length,
      type: 'pronunciation',
      alternatives: [{ confidence: decimal(word.confidence, 4), content: word.word }],
      ...times,
      ...speaker,
    });
    if (word.punctuation)
      items.push({ id: items.length, type: 'punctuation', alternatives: [{ confidence: '0.0', content: word.punctuation }], ...speaker });
    texts.push(word.word + (word.punctuation ?? ''));
    if (!options.speakerLabels) continue;
    speakers.add(label);
    const last = segments.at(-1);
    const entry = { speaker_label: label, ...times };
    if (last && last.speaker_label === label && word.start - Number(last.end_time) < SEGMENT_GAP_SECONDS) {
      last.items.push(entry);
      last.end_time = entry.end_time;
    } else segments.push({ ...entry, items: [entry] });
  }
  return {
    jobName,
    accountId: '111122223333',
    status: 'COMPLETED',
    results: {
      language_code: languageCode,
      transcripts: [{ transcript: texts.join(' ') }],
      ...(options.speakerLabels ? { speaker_labels: { channel_label: 'ch_0', speakers: speakers.size, segments } } : {}),
      items,
    },
  };
}
