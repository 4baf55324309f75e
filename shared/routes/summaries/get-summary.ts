import { SummaryResponse } from '../../schemas/summary-responses';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { fixtureSummaryId, sampleSummary } from './summary-docs';

export const getSummaryRoute = defineRoute({
  name: 'getSummary',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/recordings/{recordingId}/summaries/{summaryId}',
  handler: 'functions/summaries/get-summary',
  summary: 'Get a summary',
  access: orgRoute('viewer', 'recordings:read'),
  permissions: { table: ['GetItem'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const getSummaryDocs = (): OperationDocs => ({
  description: 'One summary of the recording, whole: its status, sections, action items, model, language and usage.',
  responses: { 200: SummaryResponse },
  errors: { 404: ['RECORDING_NOT_FOUND', 'SUMMARY_NOT_FOUND'] },
  examples: { responses: { 200: sampleSummary } },
  sample: (ids) => ({
    credential: 'orgKey',
    path: { recordingId: ids.recordingId, summaryId: fixtureSummaryId(ids.recordingId) },
    status: 200,
  }),
});
