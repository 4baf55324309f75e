import { PublicTranscribeResponse } from '../../schemas/transcription-responses';
import { TranscribeBody } from '../../schemas/transcription';
import { queuedVoiceMemo } from '../demo-examples';
import { transcribeDescription, transcribeRefusals } from '../recordings/transcription-docs';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const transcribePublicRecordingRoute = defineRoute({
  name: 'transcribePublicRecording',
  method: 'POST',
  path: '/api/v1/public/recordings/{recordingId}/transcribe',
  handler: 'functions/public-recordings/transcribe-public-recording',
  summary: "Transcribe one of the key's member's recordings (again)",
  access: { userKey: { scopes: ['recordings:write'], minRole: 'member' } },
  permissions: { table: ['GetItem', 'BatchGetItem', 'PutItem'] },
  request: { body: TranscribeBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const transcribePublicRecordingDocs = (): OperationDocs => ({
  description: `${transcribeDescription()} A personal key reaches its member's own recordings only (another member's is 404, like a missing one). The recording comes in the envelope.`,
  responses: { 202: PublicTranscribeResponse },
  errors: transcribeRefusals(),
  examples: { request: { language: 'auto' }, responses: { 202: { success: true, data: queuedVoiceMemo } } },
  sample: (ids) => ({ credential: 'personalKey', path: { recordingId: ids.mediaRecordingId }, status: 202 }),
});
