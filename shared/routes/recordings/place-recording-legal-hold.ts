import { PlaceLegalHoldBody } from '../../schemas/governance';
import { LegalHoldResponse } from '../../schemas/governance-responses';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const placeRecordingLegalHoldRoute = defineRoute({
  name: 'placeRecordingLegalHold',
  method: 'PUT',
  path: '/api/v1/organization/{orgId}/recordings/{recordingId}/legal-hold',
  handler: 'functions/recordings/place-recording-legal-hold',
  summary: 'Place a legal hold on a recording',
  access: { idToken: { minRole: 'owner' }, orgKey: { scopes: ['governance:write'] } },
  permissions: { table: ['GetItem', 'UpdateItem', 'PutItem'] },
  request: { body: PlaceLegalHoldBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const placeRecordingLegalHoldDocs = (): OperationDocs => ({
  description:
    "Holds a recording, live or in the trash, until the hold is released: deleting it (to the trash or for good), the trash's purge, retention and its recorder's erasure refuse with 409 `LEGAL_HOLD` or skip it. Get recording shows the hold. Placing it again changes its reason only. Audited as `recording.legal_hold_placed` (never the reason).",
  responses: { 200: LegalHoldResponse },
  errors: { 400: ['VALIDATION_ERROR'], 404: ['RECORDING_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] },
  examples: {
    request: { reason: 'Litigation hold: Acme v. Example (case 24-1187)' },
    responses: {
      200: {
        reason: 'Litigation hold: Acme v. Example (case 24-1187)',
        placed_by: 'usr_demo_owner',
        placed_at: '2026-11-02T09:30:00.000Z',
        scope: 'recording',
      },
    },
  },
  sample: (ids) => ({ credential: 'orgKey', path: { recordingId: ids.recordingId }, body: { reason: 'Sample hold' }, status: 200 }),
});
