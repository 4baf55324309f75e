import { UsageResponse } from '../../schemas/transcription-responses';
import { UsageQuery } from '../../schemas/transcription';
import { ADMIN, MEMBER } from '../demo-examples';
import { defineRoute, memberRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const getUsageRoute = defineRoute({
  name: 'getUsage',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/usage',
  handler: 'functions/usage/get-usage',
  summary: "A month's transcription minutes: the organization's, its allowance, and its members'",
  access: memberRoute('usage:read'),
  permissions: { table: ['BatchGetItem', 'Query'] },
  request: { query: UsageQuery },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const getUsageDocs = (): OperationDocs => ({
  description:
    "A UTC calendar month's billed transcription minutes (each completed transcription rounds its audio's length up to a whole minute; a re-run counts again): the organization's total, its monthly allowance (`org set-limits --transcription-minutes`; null: none) and its members' minutes, paged by user id.",
  responses: { 200: UsageResponse },
  errors: {},
  examples: {
    responses: {
      200: {
        month: '2026-11',
        transcription_minutes: 42,
        allowance: 600,
        members: [
          { user_id: ADMIN, transcription_minutes: 12 },
          { user_id: MEMBER, transcription_minutes: 30 },
        ],
        pagination: { limit: 50, next_cursor: null },
      },
    },
  },
  sample: () => ({ credential: 'orgKey', query: { month: '2026-11' }, status: 200 }),
});
