import { healthDocs, healthRoute } from './health';

/** The liveness check. In manifest order: the order of the OpenAPI document, the stack and the sample requests. */
export const HEALTH_ROUTES = [{ route: healthRoute, docs: healthDocs }] as const;
