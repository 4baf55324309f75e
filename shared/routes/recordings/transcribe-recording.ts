import { RecordingResponse } from '../../schemas/recording-responses';
import { TranscribeBody } from '../../schemas/transcription';
import { queuedVoiceMemo } from '../demo-examples';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

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

/** The refusals of Transcribe recording (both hosts). */
export const TRANSCRIBE_REFUSALS = {
  403: ['TRANSCRIPTION_QUOTA_EXCEEDED'],
  404: ['RECORDING_NOT_FOUND'],
  409: ['RECORDING_NOT_UPLOADED', 'TRANSCRIPTION_IN_PROGRESS', 'CONCURRENT_UPDATE'],
} as const;

export const TRANSCRIBE_DESCRIPTION =
  'Queues the transcription of an uploaded recording and answers it with `transcript_status: queued` (its `state` is `processing` until the transcription completes or fails). A completed or failed transcription may run again: the new transcript replaces the old one when it completes, and its minutes are billed again. The language is the body\'s, else the recorder\'s conversation language, else identified automatically.';

/** Its documentation, examples and sample request, for the OpenAPI document and the sample events: a function, so that esbuild leaves it out of the handler's bundle whole. */
export const transcribeRecordingDocs = (): OperationDocs => ({
  description: TRANSCRIBE_DESCRIPTION,
  responses: { 202: RecordingResponse },
  errors: TRANSCRIBE_REFUSALS,
  examples: { request: { language: 'en-US' }, responses: { 202: queuedVoiceMemo } },
  sample: (ids) => ({ credential: 'orgKey', path: { recordingId: ids.mediaRecordingId }, body: { language: 'en-US' }, status: 202 }),
});
