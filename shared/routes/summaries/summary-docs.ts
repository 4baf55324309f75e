import type { ErrorCode } from '../../core/error-codes';

/* What the summary routes of both hosts say alike (docs/summaries.md): functions, so that no handler bundle carries them. */
export const createSummaryDescription = () =>
  "Queues a summary of the recording's transcript with a template: the one named by `template_id`, else the organization's default template, else the built-in one (Overview, Key points, Decisions, Action items; `template_id` null, `template_name` `Standard summary`). The summary is written by the summary engine in the recorder's conversation language, with the recorder's selected model and their `summary_enhance` and `manual` preferences as standing instructions; follow it with Get summary or the `recording.summary_completed` / `recording.summary_failed` events. At most 20 summaries per recording, one queued or running per template.";

export const createSummaryRefusals = (): Partial<Record<number, ErrorCode[]>> => ({
  404: ['RECORDING_NOT_FOUND', 'TEMPLATE_NOT_FOUND'],
  409: ['TRANSCRIPT_NOT_READY', 'SUMMARY_IN_PROGRESS', 'SUMMARY_LIMIT_REACHED', 'CONCURRENT_UPDATE'],
});

export const listSummariesDescription = () =>
  "The recording's summaries (at most 20), newest first, each whole: sections, action items, model, language and usage.";

/** A sample summary, for the examples. */
export const sampleSummary = {
  id: 'sum_5f1c0a9e2b7d4c8a1e3f',
  recording_id: 'rec_demo_standup',
  template_id: null,
  template_name: 'Standard summary',
  status: 'completed',
  error: null,
  model: 'us.amazon.nova-lite-v1:0',
  language: 'English',
  markdown:
    '## Overview\n\nWeekly stand-up of the sales team.\n\n## Key points\n\n- The pricing deck is ready.\n\n## Decisions\n\n- Ship the new pricing on Monday.\n\n## Action items\n\n- Maria: send the contract by Friday.',
  sections: [
    { title: 'Overview', markdown: 'Weekly stand-up of the sales team.' },
    { title: 'Key points', markdown: '- The pricing deck is ready.' },
    { title: 'Decisions', markdown: '- Ship the new pricing on Monday.' },
    { title: 'Action items', markdown: '- Maria: send the contract by Friday.' },
  ],
  action_items: [
    {
      id: 'ai_1',
      text: 'Send the contract',
      assignee: 'Maria',
      assignee_user_id: 'usr_demo_member',
      due_date: '2026-11-20',
      completed: false,
      timestamp: 42.5,
    },
  ],
  preferences_applied: 1,
  usage: { input_tokens: 2350, output_tokens: 310 },
  created_at: '2026-11-17T09:30:00.000Z',
  updated_at: '2026-11-17T09:30:12.000Z',
};

export const queuedSample = {
  ...sampleSummary,
  status: 'queued',
  model: null,
  language: null,
  markdown: '',
  sections: [],
  action_items: [],
  preferences_applied: 0,
  usage: { input_tokens: 0, output_tokens: 0 },
  updated_at: sampleSummary.created_at,
};

/** The fixture's summary of a recording (the fixture loader's id: shared/operator-tasks/ensure-recording.ts). */
export const fixtureSummaryId = (recordingId: string) => `${recordingId}_summary`;
