import { SummaryListResponse } from '../../schemas/summary-responses';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { listSummariesDescription, sampleSummary } from './summary-docs';

export const listSummariesRoute = defineRoute({
  name: 'listSummaries',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/recordings/{recordingId}/summaries',
  handler: 'functions/summaries/list-summaries',
  summary: "List a recording's summaries",
  access: orgRoute('viewer', 'recordings:read'),
  permissions: { table: ['GetItem', 'Query'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const listSummariesDocs = (): OperationDocs => ({
  description: listSummariesDescription(),
  responses: { 200: SummaryListResponse },
  errors: { 404: ['RECORDING_NOT_FOUND'] },
  examples: { responses: { 200: { summaries: [sampleSummary] } } },
  sample: (ids) => ({ credential: 'orgKey', path: { recordingId: ids.recordingId }, status: 200 }),
});
