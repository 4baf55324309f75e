import { CreateSummaryBody } from '../../schemas/summaries';
import { SummaryResponse } from '../../schemas/summary-responses';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { createSummaryDescription, createSummaryRefusals, queuedSample } from './summary-docs';

export const createSummaryRoute = defineRoute({
  name: 'createSummary',
  method: 'POST',
  path: '/api/v1/organization/{orgId}/recordings/{recordingId}/summaries',
  handler: 'functions/summaries/create-summary',
  summary: "Summarize a recording's transcript with a template",
  access: orgRoute('admin', 'recordings:write'),
  // GetItem: the recording, the template; Query: the default template; PutItem: the recording (its digest) and the summary, in one transaction.
  permissions: { table: ['GetItem', 'Query', 'PutItem'] },
  request: { body: CreateSummaryBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const createSummaryDocs = (): OperationDocs => ({
  description: createSummaryDescription(),
  responses: { 202: SummaryResponse },
  errors: createSummaryRefusals(),
  examples: { request: {}, responses: { 202: queuedSample } },
  // The public alias queued one with the built-in template before: this one names a template.
  sample: (ids) => ({ credential: 'orgKey', path: { recordingId: ids.recordingId }, body: { template_id: ids.templateId }, status: 202 }),
});
