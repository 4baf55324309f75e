import { RecordingResponse } from '../../schemas/recording-responses';
import { GetRecordingQuery } from '../../schemas/recordings';
import { standupItem } from '../demo-examples';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const getRecordingRoute = defineRoute({
  name: 'getRecording',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/recordings/{recordingId}',
  handler: 'functions/recordings/get-recording',
  summary: 'Read a recording and the related resources asked for',
  access: orgRoute('viewer', 'recordings:read'),
  permissions: { table: ['GetItem', 'Query'] },
  request: { query: GetRecordingQuery },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const getRecordingDocs = (): OperationDocs => ({
  description: 'Reads a recording, with its transcript, summary, action items and translation when asked for with `include`.',
  responses: { 200: RecordingResponse },
  errors: { 404: ['RECORDING_NOT_FOUND'] },
  examples: {
    responses: {
      200: {
        ...standupItem,
        description: 'Weekly team standup.',
        folder_id: null,
        state: 'ready',
        upload_error: '',
        transcript_status: 'completed',
        transcript_error: '',
        updated_at: '2026-11-16T09:20:00.000Z',
        recording_at: '2026-11-16T09:00:00.000Z',
        transcript: [
          { speaker: 'Mia', text: 'Morning all, quick round please.', start: 0, end: 3.2 },
          { speaker: 'Adam', text: 'The APAC pricing deck is ready for review.', start: 3.4, end: 7.9 },
        ],
        summary: {
          markdown: '## Standup\n\n- APAC pricing deck ready for review\n- Deck goes to the customer on Wednesday',
          template_id: null,
          template_name: null,
          created_at: '2026-11-16T09:20:00.000Z',
          updated_at: '2026-11-16T09:20:00.000Z',
        },
      },
    },
  },
  sample: (ids) => ({
    credential: 'orgKey',
    path: { recordingId: ids.recordingId },
    query: { include: 'transcript,summary,action_items' },
    status: 200,
  }),
});
