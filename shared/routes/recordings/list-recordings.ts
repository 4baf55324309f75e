import { RecordingListResponse } from '../../schemas/recording-responses';
import { ListRecordingsQuery } from '../../schemas/recordings';
import { ADMIN, standupItem } from '../demo-examples';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const listRecordingsRoute = defineRoute({
  name: 'listRecordings',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/recordings',
  handler: 'functions/recordings/list-recordings',
  summary: "List the organization's recordings (or its trash)",
  access: orgRoute('viewer', 'recordings:read'),
  permissions: { table: ['GetItem', 'BatchGetItem', 'Query'] },
  request: { query: ListRecordingsQuery },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const listRecordingsDocs = (): OperationDocs => {
  const SALES_CALL = 'rec_demo_sales_call';

  const salesCallItem = {
    id: SALES_CALL,
    title: 'Sales call with Kobe Trading',
    duration: 1834,
    language: 'ja',
    recorded_by: ADMIN,
    tags: ['tag_demo_sales'],
    created_at: '2026-11-18T02:30:00.000Z',
  };
  return {
    description:
      "Lists the organization's recordings, newest first, filtered by day, tags and recorder, by page or by cursor; `deleted=true` lists the trash instead.",
    responses: { 200: RecordingListResponse },
    errors: {},
    examples: {
      responses: { 200: { recordings: [salesCallItem, standupItem], pagination: { page: 1, limit: 20, total: 2, next_cursor: null } } },
    },
    sample: () => ({ credential: 'orgKey', query: { startDate: '2026-11-01', limit: '10' }, status: 200 }),
  };
};
