import type { SearchField } from '../core/search-fields';
import type { SearchableRecording } from '../storage/search-sources';
import { withSpeakerNames } from '../storage/speaker-items';

export type { SearchField } from '../core/search-fields';

/**
 * One searchable passage of a recording, as the index stores it: a speaker turn, a summary
 * section, an action item or the title. The recording's own fields ride along on each passage
 * so that the filters (organization, recorder, dates, language) are plain term and range filters.
 */
export interface Passage {
  /** Stable per place in the recording (`<recording>:<field>:<place>`): indexing again overwrites, never duplicates. */
  id: string;
  org_id: string;
  recording_id: string;
  recorded_by: string;
  created_at: string;
  language: string;
  title: string;
  field: SearchField;
  text: string;
  /** Seconds in the recording where the passage is said; null where nothing is said (a title, a summary section). */
  start_time: number | null;
  end_time: number | null;
  speaker: string | null;
  summary_id: string | null;
  action_item_id: string | null;
  /**
   * When the recording was indexed (milliseconds): a reindex writes every passage with a new
   * generation, then removes the ones with an older one, so answers never have a gap.
   */
  generation: number;
}

/**
 * The passages of a recording, or none when it is not searchable (in the trash, or deleted).
 * A completed transcript gives one passage per speaker turn; each completed summary one per
 * section and one per action item; the title one.
 */
export function passagesOf(source: SearchableRecording, generation: number): Passage[] {
  const { recording } = source;
  if (recording.deleted_at) return [];
  const base = {
    org_id: recording.org_id,
    recording_id: recording.id,
    recorded_by: recording.recorded_by,
    created_at: recording.created_at,
    language: recording.language,
    title: recording.title,
    generation,
  };
  const none = { start_time: null, end_time: null, speaker: null, summary_id: null, action_item_id: null };
  const passages: Passage[] = [];
  const add = (field: SearchField, place: string, text: string, rest: Partial<Passage> = {}) => {
    if (text.trim()) passages.push({ ...base, ...none, ...rest, field, text, id: `${recording.id}:${field}:${place}` });
  };
  add('title', '0', recording.title);
  // Turns carry the names speakers were given, so results show who said them by name.
  withSpeakerNames(source.segments, recording.speakers).forEach((segment, index) =>
    add('transcript', String(index), segment.text, { start_time: segment.start, end_time: segment.end, speaker: segment.speaker }),
  );
  for (const summary of source.summaries) {
    if (summary.status !== 'completed') continue;
    summary.sections.forEach((section, index) =>
      add('summary', `${summary.id}:${index}`, `${section.title}\n${section.markdown}`, { summary_id: summary.id }),
    );
    for (const item of summary.action_items) {
      add('action_items', `${summary.id}:${item.id}`, item.text, {
        summary_id: summary.id,
        action_item_id: item.id,
        start_time: item.timestamp,
        end_time: item.timestamp,
      });
    }
  }
  if (source.loadedSummary) add('summary', 'loaded', source.loadedSummary.markdown);
  for (const item of source.loadedActionItems ?? []) add('action_items', `loaded:${item.id}`, item.text, { action_item_id: item.id });
  return passages;
}
