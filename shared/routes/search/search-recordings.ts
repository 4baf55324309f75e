import { SearchQuery } from '../../schemas/search';
import { SearchResponse } from '../../schemas/search-responses';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { searchDescription, searchExample, searchQueryErrorCode, searchRefusals } from './search-docs';

export const searchRecordingsRoute = defineRoute({
  name: 'searchRecordings',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/search',
  handler: 'functions/search/search-recordings',
  summary: "Search the organization's recordings: transcripts, summaries, action items and titles",
  access: orgRoute('viewer', 'recordings:read'),
  permissions: { search: ['ReadDocument'] },
  request: { query: SearchQuery, queryErrorCode: searchQueryErrorCode },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const searchRecordingsDocs = (): OperationDocs => ({
  description: searchDescription(),
  responses: { 200: SearchResponse },
  errors: searchRefusals(),
  examples: { responses: { 200: searchExample } },
  sample: () => ({ credential: 'orgKey', query: { q: 'budget', limit: '5' }, status: 200 }),
});
