import { PublicTranslationResponse } from '../../schemas/translation-responses';
import { TranslateBody } from '../../schemas/translations';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { queuedTranslationExample, translateDescription, translateRefusals } from '../translations/translation-docs';

export const translatePublicRecordingRoute = defineRoute({
  name: 'translatePublicRecording',
  method: 'POST',
  path: '/api/v1/public/recordings/{recordingId}/translations',
  handler: 'functions/public-recordings/translate-public-recording',
  summary: "Translate one of the key's member's recordings",
  access: { userKey: { scopes: ['recordings:write'], minRole: 'member' } },
  permissions: { table: ['GetItem', 'PutItem'] },
  request: { body: TranslateBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const translatePublicRecordingDocs = (): OperationDocs => ({
  description: `${translateDescription()} A personal key reaches its member's own recordings only (another member's is 404, like a missing one). The translation comes in the envelope.`,
  responses: { 202: PublicTranslationResponse },
  errors: translateRefusals(),
  examples: { request: { to_language: 'es' }, responses: { 202: { success: true, data: queuedTranslationExample } } },
  // The member's transcribed recording, which Translate recording's sample just sent to Spanish: the same translation answers.
  sample: (ids) => ({ credential: 'personalKey', path: { recordingId: ids.recordingId }, body: { to_language: 'es' }, status: 202 }),
});
