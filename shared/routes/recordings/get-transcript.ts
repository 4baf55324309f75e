import { TranscriptExportQuery } from '../../schemas/transcription';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { transcriptExportDescription, transcriptExportDocs } from './transcription-docs';

export const getTranscriptRoute = defineRoute({
  name: 'getTranscript',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/recordings/{recordingId}/transcript',
  handler: 'functions/recordings/get-transcript',
  summary: "Export a recording's transcript as JSON, WebVTT, SubRip or text",
  access: orgRoute('viewer', 'recordings:read'),
  // Query: the recording with its transcript, or a language's translation; GetItem: the recording, before a translation.
  permissions: { table: ['GetItem', 'Query'] },
  request: { query: TranscriptExportQuery },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const getTranscriptDocs = (): OperationDocs => ({
  description: transcriptExportDescription(),
  ...transcriptExportDocs(),
  sample: (ids) => ({ credential: 'orgKey', path: { recordingId: ids.recordingId }, query: { format: 'vtt' }, status: 200 }),
});
