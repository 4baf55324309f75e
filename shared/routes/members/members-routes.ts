import { removeMemberDocs, removeMemberRoute } from './remove-member';
import { updateMemberDocs, updateMemberRoute } from './update-member';

/** Changing a member's role, and removing a member. In manifest order: the order of the OpenAPI document, the stack and the sample requests. */
export const MEMBERS_ROUTES = [
  { route: updateMemberRoute, docs: updateMemberDocs },
  { route: removeMemberRoute, docs: removeMemberDocs },
] as const;
