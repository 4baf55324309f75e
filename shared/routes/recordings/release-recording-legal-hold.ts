import { SuccessOnly } from '../../schemas/envelopes';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const releaseRecordingLegalHoldRoute = defineRoute({
  name: 'releaseRecordingLegalHold',
  method: 'DELETE',
  path: '/api/v1/organization/{orgId}/recordings/{recordingId}/legal-hold',
  handler: 'functions/recordings/release-recording-legal-hold',
  summary: "Release a recording's legal hold",
  access: { idToken: { minRole: 'owner' }, orgKey: { scopes: ['governance:write'] } },
  permissions: { table: ['GetItem', 'UpdateItem', 'DeleteItem'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const releaseRecordingLegalHoldDocs = (): OperationDocs => ({
  description:
    "Releases the recording's own hold (its recorder's hold, if any, still holds it). A recording without a hold is left as it is. A recording in the trash whose purge was held is purged within a day of the release. Audited as `recording.legal_hold_released`.",
  responses: { 200: SuccessOnly },
  errors: { 404: ['RECORDING_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] },
  examples: { responses: { 200: { success: true } } },
  sample: (ids) => ({ credential: 'orgKey', path: { recordingId: ids.recordingId }, status: 200 }),
});
