import { RecordingListItem } from '../../schemas/recording-responses';
import { OWNER } from '../demo-examples';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const restoreRecordingRoute = defineRoute({
  name: 'restoreRecording',
  method: 'POST',
  path: '/api/v1/organization/{orgId}/recordings/{recordingId}/restore',
  handler: 'functions/recordings/restore-recording',
  summary: 'Bring a recording back from the trash',
  access: orgRoute('admin', 'recordings:write'),
  // DeleteItem: its trash timer goes in the restoring transaction.
  permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const restoreRecordingDocs = (): OperationDocs => ({
  description: 'Brings a recording back from the trash, as it was.',
  responses: { 200: RecordingListItem },
  errors: { 404: ['RECORDING_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] },
  examples: {
    responses: {
      200: {
        id: 'rec_demo_old_test',
        title: 'Microphone test',
        duration: 12,
        language: 'en',
        recorded_by: OWNER,
        tags: [],
        created_at: '2026-11-02T16:00:00.000Z',
      },
    },
  },
  sample: (ids) => ({ credential: 'orgKey', path: { recordingId: ids.trashedRecordingId }, status: 200 }),
});
