import { RetentionResponse } from '../../schemas/governance-responses';
import { defineRoute, memberRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const getRetentionRoute = defineRoute({
  name: 'getRetention',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/retention',
  handler: 'functions/governance/get-retention',
  summary: "Read the organization's retention policy",
  access: memberRoute('governance:read'),
  permissions: { table: ['GetItem'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const getRetentionDocs = (): OperationDocs => ({
  description:
    "The organization's retention policy: after how many days the daily sweep moves a recording to the trash (null: never). docs/governance.md.",
  responses: { 200: RetentionResponse },
  errors: {},
  examples: { responses: { 200: { recordings_days: 365, updated_at: '2026-11-02T09:30:00.000Z', updated_by: 'usr_demo_owner' } } },
  sample: () => ({ credential: 'orgKey', status: 200 }),
});
