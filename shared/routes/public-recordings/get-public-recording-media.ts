import { PublicRecordingMediaResponse } from '../../schemas/recording-responses';
import { RecordingMediaQuery } from '../../schemas/recordings';
import { mediaUrl } from '../demo-examples';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const getPublicRecordingMediaRoute = defineRoute({
  name: 'getPublicRecordingMedia',
  method: 'GET',
  path: '/api/v1/public/recordings/{recordingId}/media',
  handler: 'functions/public-recordings/get-public-recording-media',
  summary: "A short-lived URL to play or download a recording's file (a personal key: the user's own recordings)",
  access: { orgKey: { scopes: ['recordings:read'] }, userKey: { scopes: ['recordings:read'], minRole: 'viewer' } },
  permissions: { table: ['GetItem'], bucket: ['GetObject'] },
  request: { query: RecordingMediaQuery },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const getPublicRecordingMediaDocs = (): OperationDocs => ({
  description:
    "Answers a short-lived pre-signed URL that plays or saves a recording's file, in the envelope; a personal key reaches its member's own recordings only.",
  responses: { 200: PublicRecordingMediaResponse },
  errors: { 404: ['RECORDING_NOT_FOUND'], 409: ['RECORDING_NOT_UPLOADED'] },
  examples: { responses: { 200: { success: true, data: mediaUrl } } },
  sample: (ids) => ({ credential: 'personalKey', path: { recordingId: ids.mediaRecordingId }, query: { download: 'true' }, status: 200 }),
});
