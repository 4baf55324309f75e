import { getUsageDocs, getUsageRoute } from './get-usage';
import { defineRouteArea } from '../route-definition';

/** The organization's metered usage (transcription minutes). */
export const USAGE_ROUTES = defineRouteArea({
  area: 'usage',
  stack: 'usage',
  routes: [{ route: getUsageRoute, docs: getUsageDocs }],
});
