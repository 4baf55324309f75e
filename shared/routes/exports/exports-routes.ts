import { defineRouteArea } from '../route-definition';
import { createMemberExportDocs, createMemberExportRoute } from './create-member-export';
import { getMemberExportDocs, getMemberExportRoute } from './get-member-export';

/** A member's data, exported (docs/governance.md, "Export"). */
export const EXPORTS_ROUTES = defineRouteArea({
  area: 'exports',
  // Deployed with the users' routes: /users/{userId} has one nested stack.
  stack: 'users',
  routes: [
    { route: createMemberExportRoute, docs: createMemberExportDocs },
    { route: getMemberExportRoute, docs: getMemberExportDocs },
  ],
});
