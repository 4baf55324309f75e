import * as v from 'valibot';
import {
  completedSummary,
  excerptOf,
  featuredDigest,
  failedSummary,
  processingSummary,
  queuedSummary,
  withDigest,
  withoutDigest,
} from '../../shared/domain/summaries/summary-changes';
import { eventsOfRecord } from '../../shared/events/change-events';
import { SUMMARY_EVENT_DATA } from '../../shared/schemas/event-catalog';
import { recordingItem, type Recording } from '../../shared/storage/recording-items';
import { summaryItem, type SummaryRecord } from '../../shared/storage/summary-items';
import type { SummaryDraft } from '../../shared/summarization/summary-engine';
import { streamRecord } from '../support/stream-records';

/**
 * The summaries' stream rules: the recording's digest gives summary_queued, _completed and
 * _failed (ids, model, error code: never text), the summary item gives action_item.created when
 * it completes with the recorder's auto_add_tasks_from_summaries; each event's data fits its
 * catalog schema.
 */
const base: Recording = {
  id: 'rec_1',
  org_id: 'org_1',
  recorded_by: 'usr_1',
  title: 'Call',
  description: '',
  duration: 60,
  language: 'en-US',
  tags: [],
  folder_id: null,
  state: 'ready',
  created_at: '2030-01-01T00:00:00.000Z',
  updated_at: '2030-01-01T00:00:00.000Z',
  recording_at: '2030-01-01T00:00:00.000Z',
  related: { transcript: true, summary: false, action_items: false, translation: false },
};
const now = new Date('2030-01-01T00:01:00.000Z');
const later = new Date('2030-01-01T00:02:00.000Z');
const SECRET = 'The merger with Acme closes Tuesday';
const draft: SummaryDraft = {
  sections: [{ title: 'Overview', markdown: SECRET }],
  markdown: `## Overview\n\n${SECRET}`,
  action_items: [{ text: `Tell nobody: ${SECRET}`, assignee: 'Maria', due_date: '2030-01-04', timestamp: 3 }],
  usage: { input_tokens: 10, output_tokens: 5 },
  model: 'us.amazon.nova-lite-v1:0',
  language: 'English',
};
const template = { id: 'tpl_1', name: 'Sales', sections: [{ title: 'Overview', prompt: 'p' }] };

/** The events of a recording change and of a summary change, as the stream gives them. */
function eventsOf(before: Recording, after: Recording, summaryBefore?: SummaryRecord, summaryAfter?: SummaryRecord) {
  const at = after.updated_at;
  const recordingEvents = eventsOfRecord(streamRecord('MODIFY', recordingItem(before), recordingItem(after), { at }));
  const summaryEvents = summaryAfter
    ? eventsOfRecord(
        streamRecord(summaryBefore ? 'MODIFY' : 'INSERT', summaryBefore && summaryItem(summaryBefore), summaryItem(summaryAfter), { at }),
      )
    : [];
  // Search's own internal event (recording.index_due) is search-events.test.ts's.
  return [...recordingEvents, ...summaryEvents].filter((event) => event.type !== 'recording.index_due');
}

function expectSchemas(events: ReturnType<typeof eventsOf>) {
  for (const event of events) {
    const schema = SUMMARY_EVENT_DATA[event.type as keyof typeof SUMMARY_EVENT_DATA];
    expect(schema).toBeDefined();
    expect(v.safeParse(schema, event.data).issues).toBeUndefined();
    expect(JSON.stringify(event)).not.toContain('Acme');
  }
}

describe('summary events', () => {
  const queued = queuedSummary(base, 'sum_1', template, now);
  const withQueued = withDigest(base, queued, now);
  const processing = processingSummary(queued, later, 'us.amazon.nova-lite-v1:0');
  const withProcessing = withDigest(withQueued, processing, later);

  it('queued once, with the summary and template ids; processing says nothing', () => {
    const events = eventsOf(base, withQueued, undefined, queued);
    expect(events.map((e) => [e.type, e.resource, e.data])).toEqual([
      [
        'recording.summary_queued',
        { type: 'recording', id: 'rec_1' },
        { recorded_by: 'usr_1', state: 'ready', summary_id: 'sum_1', template_id: 'tpl_1' },
      ],
    ]);
    expectSchemas(events);
    expect(eventsOf(withQueued, withProcessing, queued, processing)).toEqual([]);
  });

  it('completed names the model; its action items are announced only with auto_add_tasks_from_summaries, without their text', () => {
    for (const announce of [true, false]) {
      const done = completedSummary(processing, later, draft, {
        preferencesApplied: 0,
        announceActionItems: announce,
        assigneeUserIds: ['usr_maria'],
      });
      const events = eventsOf(withProcessing, withDigest(withProcessing, done, later), processing, done);
      expect(events.map((e) => e.type)).toEqual(
        announce ? ['recording.summary_completed', 'action_item.created'] : ['recording.summary_completed'],
      );
      expect(events[0].data).toMatchObject({ summary_id: 'sum_1', model: 'us.amazon.nova-lite-v1:0' });
      if (announce)
        expect(events[1].data).toEqual({
          summary_id: 'sum_1',
          action_item_id: 'ai_1',
          assignee_user_id: 'usr_maria',
          due_date: '2030-01-04',
        });
      expectSchemas(events);
    }
  });

  it('an action item marked done announces nothing again', () => {
    const done = completedSummary(processing, later, draft, { preferencesApplied: 0, announceActionItems: true, assigneeUserIds: [null] });
    const marked = {
      ...done,
      action_items: done.action_items.map((item) => ({ ...item, completed: true })),
      updated_at: '2030-01-01T00:03:00.000Z',
    };
    const recording = withDigest(withProcessing, done, later);
    expect(eventsOf(recording, withDigest(recording, marked, new Date(marked.updated_at)), done, marked)).toEqual([]);
  });

  it('failed carries the error code, never the reason', () => {
    const failed = failedSummary(processing, later, { code: 'MODEL_UNAVAILABLE', reason: SECRET });
    const events = eventsOf(withProcessing, withDigest(withProcessing, failed, later), processing, failed);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      [
        'recording.summary_failed',
        {
          recorded_by: 'usr_1',
          state: 'ready',
          summary_id: 'sum_1',
          template_id: 'tpl_1',
          model: 'us.amazon.nova-lite-v1:0',
          error_code: 'MODEL_UNAVAILABLE',
        },
      ],
    ]);
    expectSchemas(events);
  });

  it('a deleted summary says nothing', () => {
    expect(eventsOf(withQueued, withoutDigest(withQueued, 'sum_1', later))).toEqual([]);
  });
});

describe('summary excerpts', () => {
  it('are at most 500 characters, control characters replaced', () => {
    expect(excerptOf('## A\n\n- b\u0007c')).toBe('## A - b c');
    expect([...excerptOf('é'.repeat(800))]).toHaveLength(500);
  });
});

describe('the summary Get recording features', () => {
  const digest = (id: string, templateId: string | null, status: 'completed' | 'failed' | 'queued', createdAt: string) => ({
    id,
    template_id: templateId,
    template_name: 'T',
    status,
    model: null,
    excerpt: '',
    error: null,
    created_at: createdAt,
    updated_at: createdAt,
  });
  const recording: Recording = {
    ...base,
    summaries: [
      digest('sum_old_default', 'tpl_default', 'completed', '2030-01-01T00:00:01.000Z'),
      digest('sum_new_default', 'tpl_default', 'completed', '2030-01-01T00:00:02.000Z'),
      digest('sum_newest_other', 'tpl_other', 'completed', '2030-01-01T00:00:03.000Z'),
      digest('sum_running_default', 'tpl_default', 'queued', '2030-01-01T00:00:04.000Z'),
    ],
  };

  it("is the latest completed with the organization's default template, else the latest completed, else none", () => {
    expect(featuredDigest(recording, 'tpl_default')?.id).toBe('sum_new_default');
    expect(featuredDigest(recording, 'tpl_none')?.id).toBe('sum_newest_other');
    expect(featuredDigest(recording, undefined)?.id).toBe('sum_newest_other');
    expect(
      featuredDigest({ ...recording, summaries: [digest('sum_q', null, 'queued', '2030-01-01T00:00:05.000Z')] }, undefined),
    ).toBeUndefined();
  });
});
