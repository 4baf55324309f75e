import { RedactionResponse } from '../../schemas/transcript-control-responses';
import { defineRoute, memberRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const getRedactionRoute = defineRoute({
  name: 'getRedaction',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/redaction',
  handler: 'functions/governance/get-redaction',
  summary: "Read the organization's PII redaction setting",
  access: memberRoute('governance:read'),
  permissions: { table: ['GetItem'] },
});

export const redactionExample = {
  pii: 'redact',
  entity_types: ['CREDIT_DEBIT_NUMBER', 'EMAIL', 'PHONE'],
  updated_at: '2026-11-02T09:30:00.000Z',
  updated_by: 'usr_demo_owner',
};

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const getRedactionDocs = (): OperationDocs => ({
  description:
    'Whether transcripts are redacted of personal data, and which entity types. Off until an owner turns it on. docs/transcript-controls.md, "Redaction".',
  responses: { 200: RedactionResponse },
  errors: {},
  examples: { responses: { 200: redactionExample } },
  sample: () => ({ credential: 'orgKey', status: 200 }),
});
