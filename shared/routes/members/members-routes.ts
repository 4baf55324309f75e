import { removeMemberDocs, removeMemberRoute } from './remove-member';
import { updateMemberDocs, updateMemberRoute } from './update-member';
import { defineRouteArea } from '../route-definition';

/** Changing a member's role, and removing a member. */
export const MEMBERS_ROUTES = defineRouteArea({
  area: 'members',
  // Deployed with the users' routes: /users/{userId} has one nested stack.
  stack: 'users',
  routes: [
    { route: updateMemberRoute, docs: updateMemberDocs },
    { route: removeMemberRoute, docs: removeMemberDocs },
  ],
});
