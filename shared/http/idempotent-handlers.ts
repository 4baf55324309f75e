import type { APIGatewayProxyResult } from 'aws-lambda';
import { idempotencyStore } from '../storage/idempotency-records';
import {
  apiHandler,
  orglessHandler,
  type ApiRequest,
  type KeyedRequests,
  type OrganizationRequest,
  type OrganizationRoute,
  type OrglessRoute,
} from './api-handler';
import { idempotency } from './middlewares/idempotency';

/** Idempotency-Key on a route (docs/idempotency.md), its records in the idempotency table. */
const keyedRequests: KeyedRequests = (routeName) => idempotency(routeName, idempotencyStore);

/**
 * The handler of a keyed organization route (a POST behind the authorizer): apiHandler with
 * Idempotency-Key. Only these handlers' bundles carry the idempotency middleware and Powertools'
 * idempotency utility; apiHandler refuses a keyed route at cold start.
 */
export function idempotentApiHandler<const R extends OrganizationRoute>(
  route: R,
  handle: (request: OrganizationRequest<R>) => Promise<APIGatewayProxyResult>,
) {
  return apiHandler(route, handle, { idempotency: keyedRequests });
}

/** The handler of a keyed route that acts in no organization yet (accepting an invitation): orglessHandler with Idempotency-Key. */
export function idempotentOrglessHandler<const R extends OrglessRoute>(
  route: R,
  handle: (request: ApiRequest<R>) => Promise<APIGatewayProxyResult>,
) {
  return orglessHandler(route, handle, { idempotency: keyedRequests });
}
