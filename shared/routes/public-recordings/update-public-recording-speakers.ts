import { UpdateSpeakersBody } from '../../schemas/transcript-controls';
import { PublicSpeakersResponse } from '../../schemas/transcript-control-responses';
import { speakersDescription, speakersExample, speakersRequestExample } from '../recordings/update-recording-speakers';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const updatePublicRecordingSpeakersRoute = defineRoute({
  name: 'updatePublicRecordingSpeakers',
  method: 'PATCH',
  path: '/api/v1/public/recordings/{recordingId}/speakers',
  handler: 'functions/public-recordings/update-public-recording-speakers',
  summary: "Name the speakers of one of the key's member's recordings",
  access: { userKey: { scopes: ['recordings:write'], minRole: 'member' } },
  permissions: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem'] },
  request: { body: UpdateSpeakersBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const updatePublicRecordingSpeakersDocs = (): OperationDocs => ({
  description: `${speakersDescription()} A personal key reaches its member's own recordings only (another member's is 404, like a missing one). The speakers come in the envelope.`,
  responses: { 200: PublicSpeakersResponse },
  errors: {
    400: ['VALIDATION_ERROR', 'INVALID_SPEAKERS'],
    404: ['RECORDING_NOT_FOUND', 'TRANSCRIPT_NOT_FOUND'],
    409: ['CONCURRENT_UPDATE'],
  },
  examples: { request: speakersRequestExample, responses: { 200: { success: true, data: speakersExample } } },
  sample: (ids) => ({
    credential: 'personalKey',
    path: { recordingId: ids.recordingId },
    body: { speakers: [{ label: 'Mia', name: null }] },
    status: 200,
  }),
});
