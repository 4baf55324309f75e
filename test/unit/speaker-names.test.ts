import {
  speakerOfAssignee,
  speakersOfSegments,
  speakerView,
  withSpeakerAssignee,
  withSpeakerNames,
} from '../../shared/domain/speakers/speaker-names';
import { speakerEvents } from '../../shared/events/transcript-setting-events';
import type { Recording, RecordingTranscription } from '../../shared/storage/recording-items';
import type { RecordingSpeaker } from '../../shared/storage/speaker-items';

/** Speakers as people (docs/transcript-controls.md, "Speakers"): measured from turns, names shown through them, assignees, the event. */

const turn = (speaker: string, start: number, end: number, text = 'Words.') => ({ speaker, text, start, end });
const recorder = { user_id: 'usr_rec', display_name: 'Rita Recorder' };
const unnamed = (label: string, talk: number, turns: number): RecordingSpeaker => ({
  label,
  name: null,
  user_id: null,
  talk_time_seconds: talk,
  turn_count: turns,
});

describe('speakersOfSegments', () => {
  it('lists labels in order of first appearance, with the sum of their turns to 3 decimals and their count', () => {
    const speakers = speakersOfSegments(
      [turn('Speaker 2', 0.1, 0.3), turn('Speaker 1', 0.4, 1), turn('Speaker 2', 0.7, 0.8), turn('Speaker 3', 2, 2.0004)],
      recorder,
    );
    expect(speakers).toEqual([unnamed('Speaker 2', 0.3, 2), unnamed('Speaker 1', 0.6, 1), unnamed('Speaker 3', 0, 1)]);
  });

  it('a turn ending before it starts adds no time, but is a turn', () => {
    expect(speakersOfSegments([turn('Speaker 1', 5, 4), turn('Speaker 1', 6, 7.5)])).toEqual([unnamed('Speaker 1', 1.5, 2)]);
  });

  it("a single voice is the recorder's; without a recorder it stays unnamed", () => {
    const turns = [turn('Speaker 1', 0, 2), turn('Speaker 1', 3, 4.25)];
    expect(speakersOfSegments(turns, recorder)).toEqual([
      { label: 'Speaker 1', name: 'Rita Recorder', user_id: 'usr_rec', talk_time_seconds: 3.25, turn_count: 2 },
    ]);
    expect(speakersOfSegments(turns)).toEqual([unnamed('Speaker 1', 3.25, 2)]);
  });

  it('no turns, no speakers', () => {
    expect(speakersOfSegments([], recorder)).toEqual([]);
  });
});

describe('speakerView', () => {
  it('shows the label as the name until someone names it', () => {
    expect(speakerView(unnamed('Speaker 1', 1, 1))).toEqual({
      label: 'Speaker 1',
      name: 'Speaker 1',
      user_id: null,
      talk_time_seconds: 1,
      turn_count: 1,
    });
    expect(speakerView({ ...unnamed('Speaker 1', 1, 1), name: 'Mia', user_id: 'usr_mia' })).toMatchObject({
      name: 'Mia',
      user_id: 'usr_mia',
    });
  });
});

describe('withSpeakerNames', () => {
  const turns = [turn('Speaker 1', 0, 1, 'Hello.'), turn('Speaker 2', 1, 2, 'Hi.'), turn('Speaker 3', 2, 3, 'Hey.')];

  it('puts the names given in place of the labels, leaving unnamed ones and the rest of each turn as they are', () => {
    const speakers = [
      { ...unnamed('Speaker 1', 1, 1), name: 'Mia Lind', user_id: 'usr_mia' },
      unnamed('Speaker 2', 1, 1),
      { ...unnamed('Speaker 3', 1, 1), name: 'Client' },
    ];
    expect(withSpeakerNames(turns, speakers)).toEqual([{ ...turns[0], speaker: 'Mia Lind' }, turns[1], { ...turns[2], speaker: 'Client' }]);
    // The stored turns are not changed.
    expect(turns[0].speaker).toBe('Speaker 1');
  });

  it('without speakers (or none named) the turns are as stored, in a new array', () => {
    for (const speakers of [undefined, [], [unnamed('Speaker 1', 1, 1)]]) {
      const shown = withSpeakerNames(turns, speakers);
      expect(shown).toEqual(turns);
      expect(shown).not.toBe(turns);
    }
  });

  it('keeps any other field of a turn (a translation’s turns)', () => {
    const translated = [{ speaker: 'Speaker 1', text: 'Hola.', start: 0, end: 1, extra: 7 }];
    expect(withSpeakerNames(translated, [{ ...unnamed('Speaker 1', 1, 1), name: 'Ana' }])).toEqual([{ ...translated[0], speaker: 'Ana' }]);
  });
});

describe('speakerOfAssignee and withSpeakerAssignee', () => {
  const speakers: RecordingSpeaker[] = [
    { ...unnamed('Speaker 1', 1, 1), name: 'Mia Lind', user_id: 'usr_mia' },
    { ...unnamed('Speaker 2', 1, 1), name: 'Client Co' },
    unnamed('Speaker 3', 1, 1),
  ];

  it('finds the speaker whose label or given name the assignee is, case, accents and spacing aside', () => {
    expect(speakerOfAssignee('Speaker 1', speakers)?.label).toBe('Speaker 1');
    expect(speakerOfAssignee('  speaker   2 ', speakers)?.label).toBe('Speaker 2');
    expect(speakerOfAssignee('mia lind', speakers)?.label).toBe('Speaker 1');
    expect(speakerOfAssignee('Mía Lind', speakers)?.label).toBe('Speaker 1');
    expect(speakerOfAssignee('client co', speakers)?.label).toBe('Speaker 2');
    expect(speakerOfAssignee('Speaker 3', speakers)?.label).toBe('Speaker 3');
  });

  it('finds none for another name, no assignee, no speakers, or two speakers answering to it', () => {
    expect(speakerOfAssignee('Tom', speakers)).toBeUndefined();
    expect(speakerOfAssignee(null, speakers)).toBeUndefined();
    expect(speakerOfAssignee('', speakers)).toBeUndefined();
    expect(speakerOfAssignee('Speaker 1', undefined)).toBeUndefined();
    expect(speakerOfAssignee('Speaker 1', [])).toBeUndefined();
    const twice = [
      { ...unnamed('Speaker 1', 1, 1), name: 'Sam' },
      { ...unnamed('Speaker 2', 1, 1), name: 'sam' },
    ];
    expect(speakerOfAssignee('Sam', twice)).toBeUndefined();
  });

  it("an item assigned to a named speaker's label shows the name and the member it was named as", () => {
    const item = { id: 'act_1', text: 'Send the deck', assignee: 'Speaker 1', assignee_user_id: null, due_date: null };
    expect(withSpeakerAssignee(item, speakers)).toEqual({ ...item, assignee: 'Mia Lind', assignee_user_id: 'usr_mia' });
    // Named by a name only: the name, and no member (the item's own, if it had one).
    expect(withSpeakerAssignee({ ...item, assignee: 'speaker 2' }, speakers)).toEqual({
      ...item,
      assignee: 'Client Co',
      assignee_user_id: null,
    });
    expect(withSpeakerAssignee({ ...item, assignee: 'Speaker 2', assignee_user_id: 'usr_kept' }, speakers)).toMatchObject({
      assignee: 'Client Co',
      assignee_user_id: 'usr_kept',
    });
    // An item without assignee_user_id gets one.
    const bare = { text: 'Book the room', assignee: 'Speaker 1' };
    expect(withSpeakerAssignee(bare, speakers)).toEqual({ text: 'Book the room', assignee: 'Mia Lind', assignee_user_id: 'usr_mia' });
  });

  it('leaves as stored: an unnamed label, an assignee that already is a name, another person, none, no speakers', () => {
    const item = { text: 'Send the deck', assignee: 'Speaker 3' as string | null, assignee_user_id: null };
    for (const assignee of ['Speaker 3', 'Mia Lind', 'Tom', null]) {
      const stored = { ...item, assignee };
      expect(withSpeakerAssignee(stored, speakers)).toBe(stored);
    }
    const stored = { ...item, assignee: 'Speaker 1' };
    expect(withSpeakerAssignee(stored, undefined)).toBe(stored);
  });
});

describe('speakerEvents', () => {
  const transcription = (attempt: number, status: RecordingTranscription['status'] = 'completed'): RecordingTranscription => ({
    status,
    attempt,
    job_language: 'en-US',
    queued_at: '2030-01-01T00:00:00.000Z',
  });
  const base: Recording = {
    id: 'rec_1',
    org_id: 'org_1',
    recorded_by: 'usr_rec',
    title: 'Call',
    description: '',
    duration: 10,
    language: 'en',
    tags: [],
    folder_id: null,
    state: 'ready',
    created_at: '2030-01-01T00:00:00.000Z',
    updated_at: '2030-01-01T00:00:00.000Z',
    recording_at: '2030-01-01T00:00:00.000Z',
    related: { transcript: true, summary: false, action_items: false, translation: false },
    transcription: transcription(1),
    speakers: [unnamed('Speaker 1', 3, 2), unnamed('Speaker 2', 2, 1)],
  };
  const named = (recording: Recording, label: string, name: string | null, userId: string | null = null): Recording => ({
    ...recording,
    speakers: recording.speakers!.map((speaker) => (speaker.label === label ? { ...speaker, name, user_id: userId } : speaker)),
  });

  it('a naming gives one event with the labels and member ids of the speakers it changed, never a name', () => {
    const after = named(named(base, 'Speaker 1', 'Mia Lind', 'usr_mia'), 'Speaker 2', 'Client Co');
    const events = speakerEvents(base, after);
    expect(events).toEqual([
      {
        type: 'recording.speakers_updated',
        data: {
          speakers: [
            { label: 'Speaker 1', user_id: 'usr_mia' },
            { label: 'Speaker 2', user_id: null },
          ],
        },
      },
    ]);
    expect(JSON.stringify(events)).not.toMatch(/Mia Lind|Client Co/);
    // Only what changed: Speaker 1 renamed, Speaker 2 as it was.
    const renamed = named(after, 'Speaker 1', 'Other', null);
    expect(speakerEvents(after, renamed)).toEqual([
      { type: 'recording.speakers_updated', data: { speakers: [{ label: 'Speaker 1', user_id: null }] } },
    ]);
    // Back to the label is a change.
    expect(speakerEvents(renamed, named(renamed, 'Speaker 1', null))).toHaveLength(1);
  });

  it('the same naming (or a write not touching speakers) gives none', () => {
    const after = named(base, 'Speaker 1', 'Mia Lind', 'usr_mia');
    expect(speakerEvents(after, { ...after, speakers: after.speakers!.map((speaker) => ({ ...speaker })) })).toEqual([]);
    expect(speakerEvents(after, { ...after, title: 'Renamed call' })).toEqual([]);
    expect(speakerEvents(base, base)).toEqual([]);
  });

  it('a new transcript (another attempt, or the attempt completing) brings new speakers without this event', () => {
    const rerun = { ...named(base, 'Speaker 1', 'Mia Lind', 'usr_mia'), transcription: transcription(2) };
    expect(speakerEvents(base, rerun)).toEqual([]);
    const processing = { ...base, speakers: undefined, transcription: transcription(1, 'processing') };
    expect(speakerEvents(processing, base)).toEqual([]);
    expect(speakerEvents({ ...base, transcription: transcription(2, 'processing') }, { ...base, transcription: transcription(2) })).toEqual(
      [],
    );
  });

  it('without speakers after, none', () => {
    expect(speakerEvents(base, { ...base, speakers: undefined })).toEqual([]);
  });

  it('a transcript stored before speakers were: only the speakers named differ from how they were read', () => {
    const legacy: Recording = { ...base, speakers: undefined, transcription: undefined };
    const stored = { ...legacy, speakers: base.speakers };
    expect(speakerEvents(legacy, named(stored, 'Speaker 2', 'Client Co'))).toEqual([
      { type: 'recording.speakers_updated', data: { speakers: [{ label: 'Speaker 2', user_id: null }] } },
    ]);
    // Nothing named that was not: stored as read, no event.
    expect(speakerEvents(legacy, stored)).toEqual([]);
    // A single voice was read as its recorder's: kept so, no event; named otherwise, one.
    const solo = { ...legacy, speakers: [{ ...unnamed('Speaker 1', 3, 2), name: 'Rita Recorder', user_id: 'usr_rec' }] };
    expect(speakerEvents(legacy, solo)).toEqual([]);
    expect(speakerEvents(legacy, named(solo, 'Speaker 1', 'Guest'))).toEqual([
      { type: 'recording.speakers_updated', data: { speakers: [{ label: 'Speaker 1', user_id: null }] } },
    ]);
  });
});
