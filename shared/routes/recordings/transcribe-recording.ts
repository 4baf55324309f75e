import { RecordingResponse } from '../../schemas/recording-responses';
import { TranscribeBody } from '../../schemas/transcription';
import { queuedVoiceMemo } from '../demo-examples';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { transcribeDescription, transcribeRefusals } from './transcription-docs';

export const transcribeRecordingRoute = defineRoute({
  name: 'transcribeRecording',
  method: 'POST',
  path: '/api/v1/organization/{orgId}/recordings/{recordingId}/transcribe',
  handler: 'functions/recordings/transcribe-recording',
  summary: 'Transcribe a recording (again)',
  access: orgRoute('admin', 'recordings:write'),
  // GetItem: the recording, the recorder's settings; BatchGetItem: the allowance and the month's usage; PutItem: the recording and its watch item.
  permissions: { table: ['GetItem', 'BatchGetItem', 'PutItem'] },
  request: { body: TranscribeBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const transcribeRecordingDocs = (): OperationDocs => ({
  description: transcribeDescription(),
  responses: { 202: RecordingResponse },
  errors: transcribeRefusals(),
  examples: { request: { language: 'en-US' }, responses: { 202: queuedVoiceMemo } },
  sample: (ids) => ({ credential: 'orgKey', path: { recordingId: ids.mediaRecordingId }, body: { language: 'en-US' }, status: 202 }),
});
