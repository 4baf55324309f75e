import type { DynamoDBRecord } from 'aws-lambda';
import { marshall } from '@aws-sdk/util-dynamodb';
import { eventsOfRecord } from '../../../shared/events/change-events';
import { recordingItem, type Recording } from '../../../shared/storage/recording-items';
import { summaryItem, type SummaryRecord } from '../../../shared/storage/summary-items';

/** A stream record of one item change, as DynamoDB Streams delivers it (new and old images). */
function record(name: 'INSERT' | 'MODIFY' | 'REMOVE', before?: Record<string, unknown>, after?: Record<string, unknown>): DynamoDBRecord {
  const image = (item?: Record<string, unknown>) => item && (marshall(item, { removeUndefinedValues: true }) as never);
  const keys = (after ?? before)!;
  return {
    eventID: `e-${name}-${String(keys.SK)}`,
    eventName: name,
    dynamodb: {
      ApproximateCreationDateTime: 1_796_000_000,
      Keys: marshall({ PK: keys.PK, SK: keys.SK }) as never,
      NewImage: image(after),
      OldImage: image(before),
    },
  };
}

const recording = {
  id: 'rec_1',
  org_id: 'org_1',
  recorded_by: 'usr_1',
  title: 'Budget review',
  description: '',
  duration: 60,
  language: 'en-US',
  tags: [],
  folder_id: null,
  state: 'ready',
  created_at: '2026-11-02T09:00:00.000Z',
  updated_at: '2026-11-02T09:00:00.000Z',
  recording_at: '2026-11-02T09:00:00.000Z',
  related: { transcript: false, summary: false, action_items: false, translation: false },
} as Recording;

const indexDue = (events: ReturnType<typeof eventsOfRecord>) =>
  events.filter((event) => event.type === 'recording.index_due').map((event) => [event.resource.id, event.org_id, event.data]);

describe('recording.index_due: what search sees changed', () => {
  it('follows a new recording, a new title, the trash and a restore', () => {
    expect(indexDue(eventsOfRecord(record('INSERT', undefined, recordingItem(recording))))).toEqual([['rec_1', 'org_1', {}]]);
    const retitled = { ...recording, title: 'Budget review (final)', updated_at: '2026-11-02T10:00:00.000Z' };
    expect(indexDue(eventsOfRecord(record('MODIFY', recordingItem(recording), recordingItem(retitled))))).toHaveLength(1);
    const trashed = { ...recording, deleted_at: '2026-11-03T00:00:00.000Z' };
    expect(indexDue(eventsOfRecord(record('MODIFY', recordingItem(recording), recordingItem(trashed))))).toHaveLength(1);
    expect(indexDue(eventsOfRecord(record('MODIFY', recordingItem(trashed), recordingItem(recording))))).toHaveLength(1);
  });

  it('says nothing for a change search does not hold (the description), nor for a recording removed for good', () => {
    const described = { ...recording, description: 'Notes', updated_at: '2026-11-02T10:00:00.000Z' };
    expect(indexDue(eventsOfRecord(record('MODIFY', recordingItem(recording), recordingItem(described))))).toEqual([]);
    expect(indexDue(eventsOfRecord(record('REMOVE', recordingItem(recording), undefined)))).toEqual([]);
  });

  it('follows every change of a summary, its deletion included, for its recording', () => {
    const summary: SummaryRecord = {
      id: 'sum_1',
      org_id: 'org_1',
      recording_id: 'rec_1',
      template_id: null,
      template_name: 'Standard summary',
      template_sections: [],
      status: 'completed',
      error: null,
      model: 'local-extractive',
      language: 'en',
      markdown: '## Decisions\nThe budget is approved.',
      sections: [{ title: 'Decisions', markdown: 'The budget is approved.' }],
      action_items: [],
      preferences_applied: 0,
      usage: { input_tokens: 0, output_tokens: 0 },
      announce_action_items: false,
      created_at: '2026-11-02T09:05:00.000Z',
      updated_at: '2026-11-02T09:06:00.000Z',
    };
    expect(indexDue(eventsOfRecord(record('INSERT', undefined, summaryItem(summary))))).toEqual([['rec_1', 'org_1', {}]]);
    expect(indexDue(eventsOfRecord(record('REMOVE', summaryItem(summary), undefined)))).toEqual([['rec_1', 'org_1', {}]]);
  });
});
