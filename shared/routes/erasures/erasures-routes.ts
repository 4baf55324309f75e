import { defineRouteArea } from '../route-definition';
import { eraseMemberDocs, eraseMemberRoute } from './erase-member';
import { getMemberErasureDocs, getMemberErasureRoute } from './get-member-erasure';

/** A member erased for good (docs/governance.md, "Erasure"): reading an erasure comes before the request that erases. */
export const ERASURES_ROUTES = defineRouteArea({
  area: 'erasures',
  // Deployed with the users' routes: /users/{userId} has one nested stack.
  stack: 'users',
  routes: [
    { route: getMemberErasureRoute, docs: getMemberErasureDocs },
    { route: eraseMemberRoute, docs: eraseMemberDocs },
  ],
});
