import { healthDocs, healthRoute } from './health';
import { defineRouteArea } from '../route-definition';

/** The liveness check. */
export const HEALTH_ROUTES = defineRouteArea({
  area: 'health',
  stack: 'health',
  routes: [{ route: healthRoute, docs: healthDocs }],
});
