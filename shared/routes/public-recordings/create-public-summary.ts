import { CreateSummaryBody } from '../../schemas/summaries';
import { PublicSummaryResponse } from '../../schemas/summary-responses';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { createSummaryDescription, createSummaryRefusals, queuedSample } from '../summaries/summary-docs';

export const createPublicSummaryRoute = defineRoute({
  name: 'createPublicSummary',
  method: 'POST',
  path: '/api/v1/public/recordings/{recordingId}/summaries',
  handler: 'functions/public-recordings/create-public-summary',
  summary: "Summarize one of the key's member's recordings",
  access: { userKey: { scopes: ['recordings:write'], minRole: 'member' } },
  permissions: { table: ['GetItem', 'Query', 'PutItem'] },
  request: { body: CreateSummaryBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const createPublicSummaryDocs = (): OperationDocs => ({
  description: `${createSummaryDescription()} A personal key reaches its member's own recordings only (another member's is 404, like a missing one). The summary comes in the envelope.`,
  responses: { 202: PublicSummaryResponse },
  errors: createSummaryRefusals(),
  examples: { request: {}, responses: { 202: { success: true, data: queuedSample } } },
  // The member's stand-up has a transcript in the sample data.
  sample: (ids) => ({ credential: 'personalKey', path: { recordingId: ids.recordingId }, body: {}, status: 202 }),
});
