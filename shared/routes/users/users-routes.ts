import { getMemberSettingsDocs, getMemberSettingsRoute } from './get-member-settings';
import { listUsersDocs, listUsersRoute } from './list-users';
import { updateMemberSettingsDocs, updateMemberSettingsRoute } from './update-member-settings';

/** An organization's users and their settings bundle. In manifest order: the order of the OpenAPI document, the stack and the sample requests. */
export const USERS_ROUTES = [
  { route: listUsersRoute, docs: listUsersDocs },
  { route: getMemberSettingsRoute, docs: getMemberSettingsDocs },
  { route: updateMemberSettingsRoute, docs: updateMemberSettingsDocs },
] as const;
