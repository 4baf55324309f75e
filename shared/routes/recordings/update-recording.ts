import { RecordingUpdateResponse } from '../../schemas/recording-responses';
import { UpdateRecordingBody } from '../../schemas/recordings';
import { STANDUP } from '../demo-examples';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const updateRecordingRoute = defineRoute({
  name: 'updateRecording',
  method: 'PUT',
  path: '/api/v1/organization/{orgId}/recordings/{recordingId}',
  handler: 'functions/recordings/update-recording',
  summary: "Change a recording's title, description and tags",
  access: orgRoute('admin', 'recordings:write'),
  permissions: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'DeleteItem'] },
  request: { body: UpdateRecordingBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const updateRecordingDocs = (): OperationDocs => ({
  description: "Changes a recording's title, description and tags; the tags given replace its tags.",
  responses: { 200: RecordingUpdateResponse },
  errors: { 404: ['RECORDING_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] },
  examples: {
    request: { title: 'Monday standup (APAC)', tags: ['tag_demo_standup', 'tag_demo_sales'] },
    responses: {
      200: {
        id: STANDUP,
        title: 'Monday standup (APAC)',
        description: 'Weekly team standup.',
        duration: 612,
        tags: ['tag_demo_standup', 'tag_demo_sales'],
        updated_at: '2026-11-20T10:00:00.000Z',
      },
    },
  },
  sample: (ids) => ({
    credential: 'orgKey',
    path: { recordingId: ids.editRecordingId },
    body: { title: 'Sales call with Kobe Trading (pilot)', description: 'Pilot for 40 seats from January.', tags: [ids.tagId] },
    status: 200,
  }),
});
