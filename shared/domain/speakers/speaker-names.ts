import type { TranscriptSegment } from '../../storage/recording-part-items';
import type { RecordingSpeaker } from '../../storage/speaker-items';

/**
 * A transcript's speakers as people (docs/transcript-controls.md, "Speakers"). The engine labels
 * voices (`Speaker 1`, …); the transcript keeps those labels and every reader shows names
 * through here, so naming a speaker never re-runs an engine and naming again is one write.
 */

/** The recorder, who a transcript of a single voice is attributed to until someone says otherwise. */
export interface Recorder {
  user_id: string;
  display_name: string;
}

/** The labels engines give (`Speaker 1`, as shared/transcription/transcribe-output.ts names them). */
export const ENGINE_LABEL = /^Speaker \d+$/;

/** Seconds to 3 decimals, as transcripts' times are. */
const seconds = (value: number) => Math.round(value * 1000) / 1000;

/**
 * The speakers of a transcript's turns, in order of first appearance: talk time is the sum of
 * their turns' lengths, turns are counted. A transcript of one voice is the recorder's.
 */
export function speakersOfSegments(segments: readonly TranscriptSegment[], recorder?: Recorder): RecordingSpeaker[] {
  const byLabel = new Map<string, RecordingSpeaker>();
  for (const segment of segments) {
    const speaker = byLabel.get(segment.speaker) ?? {
      label: segment.speaker,
      name: null,
      user_id: null,
      talk_time_seconds: 0,
      turn_count: 0,
    };
    speaker.talk_time_seconds += Math.max(0, segment.end - segment.start);
    speaker.turn_count += 1;
    byLabel.set(segment.speaker, speaker);
  }
  const speakers = [...byLabel.values()].map((speaker) => ({ ...speaker, talk_time_seconds: seconds(speaker.talk_time_seconds) }));
  // An engine's label only: a transcript loaded with its speakers' names (a fixture) keeps them.
  if (speakers.length === 1 && recorder && ENGINE_LABEL.test(speakers[0].label))
    Object.assign(speakers[0], { name: recorder.display_name, user_id: recorder.user_id });
  return speakers;
}

export { speakerNameMap, speakerView, withSpeakerNames, type SpeakerView } from '../../storage/speaker-items';

/** How names compare: case, accents and spacing aside. */
const comparable = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The speaker an assignee designates: one whose label or given name it is. Summaries name
 * assignees as the transcript showed them, so a label (`Speaker 2`) written before the speaker
 * was named, or the name after, both find them.
 */
export function speakerOfAssignee(
  assignee: string | null,
  speakers: readonly RecordingSpeaker[] | undefined,
): RecordingSpeaker | undefined {
  if (!assignee || !speakers?.length) return undefined;
  const wanted = comparable(assignee);
  const matches = speakers.filter(
    (speaker) => comparable(speaker.label) === wanted || (speaker.name !== null && comparable(speaker.name) === wanted),
  );
  return matches.length === 1 ? matches[0] : undefined;
}

/**
 * An action item whose assignee is a speaker label that someone has since named: shown with the
 * speaker's name, and the member's id when it was named as one. Others are as stored.
 */
export function withSpeakerAssignee<T extends { assignee: string | null; assignee_user_id?: string | null }>(
  item: T,
  speakers: readonly RecordingSpeaker[] | undefined,
): T {
  const speaker = speakerOfAssignee(item.assignee, speakers);
  if (!speaker || speaker.name === null || comparable(speaker.label) !== comparable(item.assignee ?? '')) return item;
  return { ...item, assignee: speaker.name, assignee_user_id: speaker.user_id ?? item.assignee_user_id ?? null };
}

/**
 * The speakers measured from a transcript's turns, the recorder read (`recorderOf`) only when
 * the rule needs them: a single voice with the engine's label.
 */
export async function measuredSpeakers(
  segments: readonly TranscriptSegment[],
  recorderOf: () => Promise<Recorder | undefined>,
): Promise<RecordingSpeaker[]> {
  const labels = new Set(segments.map((segment) => segment.speaker));
  const needsRecorder = labels.size === 1 && ENGINE_LABEL.test([...labels][0]);
  return speakersOfSegments(segments, needsRecorder ? await recorderOf() : undefined);
}
