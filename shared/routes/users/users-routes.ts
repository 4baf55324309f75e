import { getMemberSettingsDocs, getMemberSettingsRoute } from './get-member-settings';
import { listUsersDocs, listUsersRoute } from './list-users';
import { updateMemberSettingsDocs, updateMemberSettingsRoute } from './update-member-settings';
import { defineRouteArea } from '../route-definition';

/** An organization's users and their settings bundle. */
export const USERS_ROUTES = defineRouteArea({
  area: 'users',
  stack: 'users',
  routes: [
    { route: listUsersRoute, docs: listUsersDocs },
    { route: getMemberSettingsRoute, docs: getMemberSettingsDocs },
    { route: updateMemberSettingsRoute, docs: updateMemberSettingsDocs },
  ],
});
