import { SearchQuery } from '../../schemas/search';
import { PublicSearchResponse } from '../../schemas/search-responses';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { searchDescription, searchExample, searchQueryErrorCode, searchRefusals } from './search-docs';

export const searchPublicRecordingsRoute = defineRoute({
  name: 'searchPublicRecordings',
  method: 'GET',
  path: '/api/v1/public/search',
  handler: 'functions/search/search-public-recordings',
  summary: "Search the key's member's own recordings",
  access: { userKey: { scopes: ['recordings:read'], minRole: 'viewer' } },
  permissions: { search: ['ReadDocument'] },
  request: { query: SearchQuery, queryErrorCode: searchQueryErrorCode },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const searchPublicRecordingsDocs = (): OperationDocs => ({
  description: `${searchDescription()} A personal key searches its member's own recordings only, whatever \`recorded_by\` says.`,
  responses: { 200: PublicSearchResponse },
  errors: searchRefusals(),
  examples: { responses: { 200: { success: true, data: searchExample } } },
  sample: () => ({ credential: 'personalKey', query: { q: 'budget' }, status: 200 }),
});
