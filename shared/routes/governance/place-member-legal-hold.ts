import { PlaceLegalHoldBody } from '../../schemas/governance';
import { MemberLegalHoldResponse } from '../../schemas/governance-responses';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const placeMemberLegalHoldRoute = defineRoute({
  name: 'placeMemberLegalHold',
  method: 'PUT',
  path: '/api/v1/organization/{orgId}/users/{userId}/legal-hold',
  handler: 'functions/governance/place-member-legal-hold',
  summary: 'Place a legal hold on every recording a member recorded, now and later',
  access: { idToken: { minRole: 'owner' }, orgKey: { scopes: ['governance:write'] } },
  permissions: { table: ['GetItem', 'PutItem'] },
  request: { body: PlaceLegalHoldBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const placeMemberLegalHoldDocs = (): OperationDocs => ({
  description:
    "Holds every recording the member recorded in this organization, now and later, until the hold is released: deleting one (to the trash or for good), the trash's purge, retention and the member's erasure refuse with 409 `LEGAL_HOLD` or skip them. A member who has left can be held too. Placing it again changes its reason only. Audited as `member.legal_hold_placed` (never the reason).",
  responses: { 200: MemberLegalHoldResponse },
  errors: { 400: ['VALIDATION_ERROR'], 404: ['MEMBER_NOT_FOUND'] },
  examples: {
    request: { reason: 'Litigation hold: Acme v. Example (case 24-1187)' },
    responses: {
      200: {
        success: true,
        data: {
          reason: 'Litigation hold: Acme v. Example (case 24-1187)',
          placed_by: 'usr_demo_owner',
          placed_at: '2026-11-02T09:30:00.000Z',
          scope: 'member',
        },
      },
    },
  },
  sample: (ids) => ({ credential: 'orgKey', path: { userId: ids.memberId }, body: { reason: 'Sample hold' }, status: 200 }),
});
