import { TranslationResponse } from '../../schemas/translation-responses';
import { TranslateBody } from '../../schemas/translations';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { queuedTranslationExample, translateDescription, translateRefusals } from './translation-docs';

export const translateRecordingRoute = defineRoute({
  name: 'translateRecording',
  method: 'POST',
  path: '/api/v1/organization/{orgId}/recordings/{recordingId}/translations',
  handler: 'functions/translations/translate-recording',
  summary: "Translate a recording's transcript and latest summary",
  access: orgRoute('admin', 'recordings:write'),
  // GetItem: the recording; PutItem: the recording with its queued translation.
  permissions: { table: ['GetItem', 'PutItem'] },
  request: { body: TranslateBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const translateRecordingDocs = (): OperationDocs => ({
  description: translateDescription(),
  responses: { 202: TranslationResponse },
  errors: translateRefusals(),
  examples: { request: { to_language: 'es' }, responses: { 202: queuedTranslationExample } },
  sample: (ids) => ({ credential: 'orgKey', path: { recordingId: ids.recordingId }, body: { to_language: 'es' }, status: 202 }),
});
