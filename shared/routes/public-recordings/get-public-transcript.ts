import { TranscriptExportQuery } from '../../schemas/transcription';
import { transcriptExportDescription, transcriptExportDocs } from '../recordings/transcription-docs';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const getPublicTranscriptRoute = defineRoute({
  name: 'getPublicTranscript',
  method: 'GET',
  path: '/api/v1/public/recordings/{recordingId}/transcript',
  handler: 'functions/public-recordings/get-public-transcript',
  summary: "Export one of the key's member's transcripts as JSON, WebVTT, SubRip or text",
  access: { orgKey: { scopes: ['recordings:read'] }, userKey: { scopes: ['recordings:read'], minRole: 'viewer' } },
  // Query: the recording with its transcript, or a language's translation; GetItem: the recording, before a translation.
  permissions: { table: ['GetItem', 'Query'] },
  request: { query: TranscriptExportQuery },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const getPublicTranscriptDocs = (): OperationDocs => ({
  description: `${transcriptExportDescription()} A personal key reaches its member's own recordings only (another member's is 404, like a missing one). The file is the answer itself, not in the envelope.`,
  ...transcriptExportDocs(),
  sample: (ids) => ({
    credential: 'personalKey',
    path: { recordingId: ids.recordingId },
    query: { format: 'txt', download: 'true' },
    status: 200,
  }),
});
