import type { Passage } from '../../shared/search/passages';

/** A transcript passage for the search tests: an organization's speaker turn with every field set, and what the test changes. */
export function passageFixture(fields: Partial<Passage> & Pick<Passage, 'id' | 'recording_id' | 'text'>): Passage {
  return {
    org_id: 'org_1',
    recorded_by: 'usr_1',
    created_at: '2026-11-02T09:00:00.000Z',
    language: 'en-US',
    title: 'Weekly review',
    field: 'transcript',
    start_time: 1,
    end_time: 2,
    speaker: 'Speaker 1',
    summary_id: null,
    action_item_id: null,
    generation: 1,
    ...fields,
  };
}
