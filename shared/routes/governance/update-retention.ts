import { UpdateRetentionBody } from '../../schemas/governance';
import { RetentionResponse } from '../../schemas/governance-responses';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const updateRetentionRoute = defineRoute({
  name: 'updateRetention',
  method: 'PUT',
  path: '/api/v1/organization/{orgId}/retention',
  handler: 'functions/governance/update-retention',
  summary: "Set the organization's retention policy",
  access: { idToken: { minRole: 'owner' }, orgKey: { scopes: ['governance:write'] } },
  permissions: { table: ['UpdateItem', 'PutItem', 'DeleteItem'] },
  request: { body: UpdateRetentionBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const updateRetentionDocs = (): OperationDocs => ({
  description:
    'Sets after how many days (1–3650) recordings are moved to the trash, counted from `recording_at` (else `created_at`), or null to keep them until deleted. Nothing moves at request time: the daily sweep applies the policy (a shorter one at its next run), skipping recordings under a legal hold; the trash then purges as usual. Audited as `organization.retention_updated`.',
  responses: { 200: RetentionResponse },
  errors: { 400: ['VALIDATION_ERROR'] },
  examples: {
    request: { recordings_days: 365 },
    responses: { 200: { recordings_days: 365, updated_at: '2026-11-02T09:30:00.000Z', updated_by: 'usr_demo_owner' } },
  },
  sample: () => ({ credential: 'orgKey', body: { recordings_days: 3650 }, status: 200 }),
});
