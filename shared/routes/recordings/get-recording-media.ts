import { RecordingMedia } from '../../schemas/recording-responses';
import { RecordingMediaQuery } from '../../schemas/recordings';
import { mediaUrl } from '../demo-examples';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const getRecordingMediaRoute = defineRoute({
  name: 'getRecordingMedia',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/recordings/{recordingId}/media',
  handler: 'functions/recordings/get-recording-media',
  summary: "A short-lived URL to play or download a recording's uploaded file",
  access: orgRoute('viewer', 'recordings:read'),
  // GetObject: pre-signing a GET needs the permission the URL exercises.
  permissions: { table: ['GetItem'], bucket: ['GetObject'] },
  request: { query: RecordingMediaQuery },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const getRecordingMediaDocs = (): OperationDocs => ({
  description:
    "Answers a short-lived pre-signed URL that plays (or, with `download=true`, saves) the recording's uploaded file (docs/playback.md).",
  responses: { 200: RecordingMedia },
  errors: { 404: ['RECORDING_NOT_FOUND'], 409: ['RECORDING_NOT_UPLOADED'] },
  examples: { responses: { 200: mediaUrl } },
  sample: (ids) => ({ credential: 'orgKey', path: { recordingId: ids.mediaRecordingId }, status: 200 }),
});
