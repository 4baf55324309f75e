import { SuccessOnly } from '../../schemas/envelopes';
import { DeleteRecordingQuery } from '../../schemas/recordings';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const deleteRecordingRoute = defineRoute({
  name: 'deleteRecording',
  method: 'DELETE',
  path: '/api/v1/organization/{orgId}/recordings/{recordingId}',
  handler: 'functions/recordings/delete-recording',
  summary: 'Move a recording to the trash, or delete it permanently',
  access: orgRoute('admin', 'recordings:write'),
  // One transaction either way; a permanent delete's parts and file go in the object cleanup consumer.
  permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  request: { query: DeleteRecordingQuery },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const deleteRecordingDocs = (): OperationDocs => ({
  description:
    "Moves a recording to the trash (`permanent=false`, the default), or deletes it and its related data for good (`permanent=true`). A recording under a legal hold (its own or its recorder's) is refused with 409 `LEGAL_HOLD`, naming the hold.",
  responses: { 200: SuccessOnly },
  errors: { 404: ['RECORDING_NOT_FOUND'], 409: ['CONCURRENT_UPDATE', 'LEGAL_HOLD'] },
  examples: { responses: { 200: { success: true } } },
  sample: (ids) => ({ credential: 'orgKey', path: { recordingId: ids.editRecordingId }, query: { permanent: 'false' }, status: 200 }),
});
