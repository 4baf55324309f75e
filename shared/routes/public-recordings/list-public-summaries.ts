import { PublicSummaryListResponse } from '../../schemas/summary-responses';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { listSummariesDescription, sampleSummary } from '../summaries/summary-docs';

export const listPublicSummariesRoute = defineRoute({
  name: 'listPublicSummaries',
  method: 'GET',
  path: '/api/v1/public/recordings/{recordingId}/summaries',
  handler: 'functions/public-recordings/list-public-summaries',
  summary: "List the summaries of one of the key's member's recordings",
  access: { userKey: { scopes: ['recordings:read'], minRole: 'viewer' } },
  permissions: { table: ['GetItem', 'Query'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const listPublicSummariesDocs = (): OperationDocs => ({
  description: `${listSummariesDescription()} A personal key reaches its member's own recordings only (another member's is 404, like a missing one).`,
  responses: { 200: PublicSummaryListResponse },
  errors: { 404: ['RECORDING_NOT_FOUND'] },
  examples: { responses: { 200: { success: true, data: { summaries: [sampleSummary] } } } },
  sample: (ids) => ({ credential: 'personalKey', path: { recordingId: ids.mediaRecordingId }, status: 200 }),
});
