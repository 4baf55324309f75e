import * as v from 'valibot';
import type { TranscriptSegment } from '../storage/recording-part-items';

/**
 * Amazon Transcribe's batch output JSON (the file a job writes to its OutputKey), and the
 * speaker turns made from it. The local stand-in (infra/local/transcribe-emulator.ts) writes
 * the same shape, so this is the one reader of both engines' output (docs/transcription.md).
 *
 * Transcribe writes times and confidences as strings ("4.87", "1.0"); they are read as numbers.
 * Fields this code does not use (alternatives beyond the first, audio_segments, channel labels)
 * are accepted and ignored: Transcribe adds output fields over time.
 */

/** A decimal number written as a string, as Transcribe writes times and confidences. */
const DecimalText = v.pipe(
  v.union([v.string(), v.number()]),
  v.transform((value) => Number(value)),
  v.check((value) => Number.isFinite(value) && value >= 0, 'must be a non-negative number'),
);

const Alternative = v.object({ confidence: v.optional(DecimalText), content: v.string() });

const OutputItem = v.object({
  start_time: v.optional(DecimalText),
  end_time: v.optional(DecimalText),
  type: v.picklist(['pronunciation', 'punctuation']),
  alternatives: v.pipe(v.array(Alternative), v.minLength(1)),
  speaker_label: v.optional(v.string()),
});

const SpeakerSegment = v.object({
  speaker_label: v.string(),
  start_time: DecimalText,
  end_time: DecimalText,
  items: v.array(v.object({ speaker_label: v.optional(v.string()), start_time: DecimalText, end_time: DecimalText })),
});

const TranscribeOutputSchema = v.object({
  jobName: v.string(),
  status: v.optional(v.string()),
  results: v.object({
    transcripts: v.array(v.object({ transcript: v.string() })),
    items: v.array(OutputItem),
    speaker_labels: v.optional(v.object({ speakers: v.optional(v.union([v.number(), v.string()])), segments: v.array(SpeakerSegment) })),
    language_code: v.optional(v.string()),
  }),
});

export type TranscribeOutput = v.InferOutput<typeof TranscribeOutputSchema>;
export type TranscribeOutputItem = TranscribeOutput['results']['items'][number];

/** Output JSON in a shape this reader does not know: the job's file is unusable, retrying reads the same. */
export class UnreadableTranscribeOutputError extends Error {
  override readonly name = 'UnreadableTranscribeOutputError';
  constructor(readonly problems: string[]) {
    super(`Transcribe output not understood: ${problems.slice(0, 5).join('; ')}`);
  }
}

/** Validates a parsed output file; throws UnreadableTranscribeOutputError naming the paths (never the text) that do not fit. */
export function readTranscribeOutput(json: unknown): TranscribeOutput {
  const result = v.safeParse(TranscribeOutputSchema, json);
  if (!result.success)
    throw new UnreadableTranscribeOutputError(result.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`));
  return result.output;
}

/** A pause this long or longer between two words of one speaker starts a new turn. */
export const TURN_PAUSE_SECONDS = 3;

interface Word {
  text: string;
  start: number;
  end: number;
  label: string;
}

/**
 * The transcript as speaker turns: consecutive words of one speaker, split at pauses of
 * TURN_PAUSE_SECONDS or more; speakers named `Speaker 1`, `Speaker 2`, … in order of first
 * appearance; punctuation attached to the word before it. Times are seconds, 3 decimals.
 *
 * Words are taken in time order (Transcribe lists them so, but overlapping speech may
 * interleave them): a word that starts before the previous one ended still joins the turn of
 * its own speaker, so overlapping talk alternates turns rather than merging two voices.
 */
export function speakerTurnsOf(output: TranscribeOutput): TranscriptSegment[] {
  const labelAt = speakerLabelsByTime(output);
  const words: Word[] = [];
  for (const item of output.results.items) {
    const text = item.alternatives[0].content.trim();
    if (!text) continue;
    if (item.type === 'punctuation' || item.start_time === undefined || item.end_time === undefined) {
      // Punctuation has no times: it ends the word before it ("approved" + "." → "approved.").
      const previous = words.at(-1);
      if (previous) previous.text += text;
      continue;
    }
    const label = item.speaker_label ?? labelAt(item.start_time, item.end_time) ?? 'spk_0';
    words.push({ text, start: item.start_time, end: Math.max(item.end_time, item.start_time), label });
  }
  // A stable sort keeps Transcribe's order for words with equal start times.
  words.sort((a, b) => a.start - b.start);

  const names = new Map<string, string>();
  const nameOf = (label: string) => {
    if (!names.has(label)) names.set(label, `Speaker ${names.size + 1}`);
    return names.get(label)!;
  };
  const turns: (TranscriptSegment & { label: string })[] = [];
  for (const word of words) {
    const turn = turns.at(-1);
    if (turn && turn.label === word.label && word.start - turn.end < TURN_PAUSE_SECONDS) {
      turn.text += ` ${word.text}`;
      turn.end = Math.max(turn.end, word.end);
    } else {
      turns.push({ speaker: nameOf(word.label), text: word.text, start: word.start, end: word.end, label: word.label });
    }
  }
  return turns.map(({ speaker, text, start, end }) => ({ speaker, text, start: seconds(start), end: seconds(end) }));
}

/**
 * Older outputs put speaker labels only under speaker_labels.segments, not on each item: a
 * word's speaker is then the segment item with its times (or the segment that contains it).
 */
function speakerLabelsByTime(output: TranscribeOutput): (start: number, end: number) => string | undefined {
  const segments = output.results.speaker_labels?.segments ?? [];
  const exact = new Map<string, string>();
  for (const segment of segments) {
    for (const item of segment.items) exact.set(`${item.start_time}/${item.end_time}`, item.speaker_label ?? segment.speaker_label);
  }
  return (start, end) =>
    exact.get(`${start}/${end}`) ?? segments.find((segment) => segment.start_time <= start && end <= segment.end_time)?.speaker_label;
}

/**
 * The audio's length in seconds, as far as the output tells: the end of the last timed item
 * or speaker segment. Transcribe's output and job description carry no media length, so
 * trailing silence is not seen; `fallbackSeconds` (a length known otherwise) wins when longer.
 */
export function durationOf(output: TranscribeOutput, fallbackSeconds?: number): number {
  let end = 0;
  for (const item of output.results.items) end = Math.max(end, item.end_time ?? 0);
  for (const segment of output.results.speaker_labels?.segments ?? []) end = Math.max(end, segment.end_time);
  return seconds(Math.max(end, fallbackSeconds ?? 0));
}

/** Seconds to 3 decimals (milliseconds), as stored and served. */
function seconds(value: number): number {
  return Math.round(value * 1000) / 1000;
}
