import { UpdateRedactionBody } from '../../schemas/transcript-controls';
import { RedactionResponse } from '../../schemas/transcript-control-responses';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { redactionExample } from './get-redaction';

export const updateRedactionRoute = defineRoute({
  name: 'updateRedaction',
  method: 'PUT',
  path: '/api/v1/organization/{orgId}/redaction',
  handler: 'functions/governance/update-redaction',
  summary: "Set the organization's PII redaction",
  access: { idToken: { minRole: 'owner' }, orgKey: { scopes: ['governance:write'] } },
  permissions: { table: ['UpdateItem'] },
  request: { body: UpdateRedactionBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const updateRedactionDocs = (): OperationDocs => ({
  description:
    "With `pii: redact`, every transcript completed from now on is stored only redacted: each entity of the types asked for (Amazon Transcribe's, or `ALL`, the default) becomes `[PII]`, and summaries, action items, translations, search and exports are made from that text. No unredacted copy is kept. Amazon Transcribe redacts en-US and es-US jobs itself; other languages and language identification get the service's own redactor after transcription (docs/transcript-controls.md says what each language gets). Transcripts made before keep their text until transcribed again; the audio file is not redacted. Audited as `organization.redaction_updated`.",
  responses: { 200: RedactionResponse },
  errors: { 400: ['VALIDATION_ERROR'] },
  examples: { request: { pii: 'redact', entity_types: redactionExample.entity_types }, responses: { 200: redactionExample } },
  sample: () => ({ credential: 'orgKey', body: { pii: 'off' }, status: 200 }),
});
