import { SuccessOnly } from '../../schemas/envelopes';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { fixtureSummaryId } from './summary-docs';

export const deleteSummaryRoute = defineRoute({
  name: 'deleteSummary',
  method: 'DELETE',
  path: '/api/v1/organization/{orgId}/recordings/{recordingId}/summaries/{summaryId}',
  handler: 'functions/summaries/delete-summary',
  summary: 'Delete a summary',
  access: orgRoute('admin', 'recordings:write'),
  // PutItem: the recording (its digest); DeleteItem: the summary, in one transaction.
  permissions: { table: ['GetItem', 'PutItem', 'DeleteItem'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const deleteSummaryDocs = (): OperationDocs => ({
  description:
    'Deletes a summary for good (one being written is deleted too: its result is discarded). Frees a place of the 20 a recording keeps.',
  responses: { 200: SuccessOnly },
  errors: { 404: ['RECORDING_NOT_FOUND', 'SUMMARY_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] },
  examples: { responses: { 200: { success: true } } },
  sample: (ids) => ({
    credential: 'orgKey',
    path: { recordingId: ids.recordingId, summaryId: fixtureSummaryId(ids.recordingId) },
    status: 200,
  }),
});
