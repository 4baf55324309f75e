import { PublicRecordingListResponse } from '../../schemas/recording-responses';
import { PublicListRecordingsQuery } from '../../schemas/recordings';
import { MEMBER, page, STANDUP } from '../demo-examples';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const listPublicRecordingsRoute = defineRoute({
  name: 'listPublicRecordings',
  method: 'GET',
  path: '/api/v1/public/recordings',
  handler: 'functions/public-recordings/list-public-recordings',
  summary: "List recordings with their recorder, tags and processing results (a personal key: the user's own)",
  access: { orgKey: { scopes: ['recordings:read'] }, userKey: { scopes: ['recordings:read'], minRole: 'viewer' } },
  permissions: { table: ['GetItem', 'BatchGetItem', 'Query'] },
  request: { query: PublicListRecordingsQuery },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const listPublicRecordingsDocs = (): OperationDocs => {
  const publicRecording = {
    id: STANDUP,
    title: 'Monday standup',
    created_at: '2026-11-16T09:05:00.000Z',
    updated_at: '2026-11-16T09:20:00.000Z',
    recording_at: '2026-11-16T09:00:00.000Z',
    duration: 612,
    language: 'en',
    folder_id: '',
    state: 'ready',
    recorded_by: { display_name: 'Mia Member', email: 'mia.member@demo.example', user_id: MEMBER },
    tags: [{ id: 'tag_demo_standup', name: 'Standup', color: '#2ca02c' }],
    summarizations: [
      {
        id: `${STANDUP}_summary`,
        markdown: '## Standup\n\n- APAC pricing deck ready for review\n- Deck goes to the customer on Wednesday',
        template_id: null,
        template_name: null,
        created_at: '2026-11-16T09:20:00.000Z',
        updated_at: '2026-11-16T09:20:00.000Z',
      },
    ],
    summarizations_errors: [],
    transcript: {
      id: `${STANDUP}_transcript`,
      language: 'en',
      segment_count: 3,
      created_at: '2026-11-16T09:15:00.000Z',
      updated_at: '2026-11-16T09:15:00.000Z',
    },
    transcript_status: 'completed',
    transcript_error: '',
    translation: null,
    translation_error: '',
    upload_error: '',
  };
  return {
    description:
      "Lists recordings with their recorder, tags and processing results, newest first: the organization's, or, for a personal key, its member's own.",
    responses: { 200: PublicRecordingListResponse },
    errors: {},
    examples: { responses: { 200: { success: true, data: [publicRecording], pagination: page(1, 20) } } },
    sample: () => ({ credential: 'personalKey', query: { start_date: '2026-11-01', limit: '10' }, status: 200 }),
  };
};
