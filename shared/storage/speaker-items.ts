import { nestedItemFields } from './item-fields';

/**
 * A recording's speakers as stored on its item (docs/transcript-controls.md, "Speakers"): one entry
 * per engine label, with its talk time and turns measured when the transcript was stored, and
 * the person someone named it as. No DynamoDB client here: the stream processor maps these.
 */
export interface RecordingSpeaker {
  /** The engine's label, as the transcript's turns carry it (`Speaker 1`, …). */
  label: string;
  /** The name someone gave it; null shows the label. */
  name: string | null;
  /** The member it was named as (their display name at that moment is `name`); null when none. */
  user_id: string | null;
  talk_time_seconds: number;
  turn_count: number;
}

type Item = Record<string, unknown>;

export function speakersFromList(owner: Item, list: unknown[]): RecordingSpeaker[] {
  return list.map((entry) => {
    const fields = nestedItemFields(owner, entry, 'recording speaker');
    return {
      label: fields.string('label'),
      name: fields.nullableString('name'),
      user_id: fields.nullableString('user_id'),
      talk_time_seconds: fields.number('talk_time_seconds'),
      turn_count: fields.number('turn_count'),
    };
  });
}

/** A speaker as the API and the JSON export show it: `name` is the label until someone names it. */
export function speakerView(speaker: RecordingSpeaker) {
  return {
    label: speaker.label,
    name: speaker.name ?? speaker.label,
    user_id: speaker.user_id,
    talk_time_seconds: speaker.talk_time_seconds,
    turn_count: speaker.turn_count,
  };
}

export type SpeakerView = ReturnType<typeof speakerView>;

/** The names shown for labels: only the named speakers (a label with no name shows as itself). */
export function speakerNameMap(speakers: readonly RecordingSpeaker[] | undefined): Map<string, string> {
  return new Map((speakers ?? []).flatMap((speaker) => (speaker.name === null ? [] : [[speaker.label, speaker.name] as const])));
}

/** Turns with each speaker's name in place of its label (a translation's turns carry the same labels). */
export function withSpeakerNames<T extends { speaker: string }>(
  segments: readonly T[],
  speakers: readonly RecordingSpeaker[] | undefined,
): T[] {
  const names = speakerNameMap(speakers);
  if (names.size === 0) return [...segments];
  return segments.map((segment) => {
    const name = names.get(segment.speaker);
    return name === undefined ? segment : { ...segment, speaker: name };
  });
}
