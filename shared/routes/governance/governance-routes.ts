import { defineRouteArea } from '../route-definition';
import { getRetentionDocs, getRetentionRoute } from './get-retention';
import { placeMemberLegalHoldDocs, placeMemberLegalHoldRoute } from './place-member-legal-hold';
import { releaseMemberLegalHoldDocs, releaseMemberLegalHoldRoute } from './release-member-legal-hold';
import { updateRetentionDocs, updateRetentionRoute } from './update-retention';

/** The organization's retention policy and its members' legal holds (docs/governance.md). */
export const GOVERNANCE_ROUTES = defineRouteArea({
  area: 'governance',
  // Deployed with the users' routes: /users/{userId} has one nested stack.
  stack: 'users',
  routes: [
    { route: getRetentionRoute, docs: getRetentionDocs },
    { route: updateRetentionRoute, docs: updateRetentionDocs },
    { route: placeMemberLegalHoldRoute, docs: placeMemberLegalHoldDocs },
    { route: releaseMemberLegalHoldRoute, docs: releaseMemberLegalHoldDocs },
  ],
});
