import { AUTHORIZER } from '../shared/auth/authorizer-function';
import { EVENT_CONSUMERS, EVENT_HANDLERS, EVENT_PROCESSOR, type EventConsumerDefinition } from '../shared/events/event-functions';
import { TRANSCRIPTION_SWEEPER, RETENTION_SWEEPER } from '../shared/events/scheduled-functions';
import type { FunctionPermissions } from '../shared/function-permissions';
import { ROUTE_PLACES, ROUTES, type RouteName } from '../shared/routes/manifest';
import { functionNameOf } from './deployed-names';
import { countsAgainstRateLimits, takesIdempotencyKey, type RouteDefinition } from '../shared/routes/route-definition';

/**
 * Every Lambda function of the stack, from the route manifest (shared/routes/manifest.ts), the
 * authorizer (shared/auth/authorizer-function.ts) and the event functions
 * (shared/events/event-functions.ts): what the stack builds and grants, the sample events
 * cover and the artefact tests run.
 */

/**
 * What a route's function may do: its route's permissions, plus the idempotency table when it
 * takes Idempotency-Key, plus the counter table (and reading the organization's limits) when it counts against rate limits.
 */
function functionPermissions(route: RouteDefinition): FunctionPermissions {
  let permissions = route.permissions;
  if (takesIdempotencyKey(route)) permissions = { ...permissions, idempotency: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] };
  if (countsAgainstRateLimits(route)) {
    const table = permissions.table ?? [];
    permissions = { ...permissions, table: table.includes('GetItem') ? table : ['GetItem', ...table], rateLimit: ['UpdateItem'] };
  }
  return permissions;
}

/** Distinct handler modules: one Lambda function each (aliases share their route's). */
export function listHandlers(): { handler: string; stack: string; routes: RouteName[]; permissions: FunctionPermissions }[] {
  const byHandler = new Map<string, { handler: string; stack: string; routes: RouteName[]; permissions: FunctionPermissions }>();
  for (const [name, route] of Object.entries(ROUTES) as [RouteName, RouteDefinition][]) {
    const entry = byHandler.get(route.handler) ?? {
      handler: route.handler,
      stack: ROUTE_PLACES[name].stack,
      routes: [],
      permissions: functionPermissions(route),
    };
    entry.routes.push(name);
    byHandler.set(route.handler, entry);
  }
  return [...byHandler.values()];
}

/** A Lambda function of the stack, by what invokes it. */
export interface FunctionDefinition {
  /** Module path from the repo root, without extension; it exports `handler`. */
  handler: string;
  /**
   * Its deployed name (infra/deployed-names.ts), which its construct ids and descriptions derive from: a
   * route's `<stack>/<file>`, users/list-users; an event function's events/run-translation.
   */
  name: string;
  kind: 'authorizer' | 'http' | 'event' | 'stream' | 'consumer' | 'scheduled';
  permissions: FunctionPermissions;
  /** Seconds the function may run, when not the stack's default. */
  timeoutSeconds?: number;
}

/**
 * Every Lambda function of the stack: the authorizer, one per handler module (listHandlers), the event
 * handlers, the event processor, the event consumers and the transcription sweeper.
 */
export function listFunctions(): FunctionDefinition[] {
  return [
    { handler: AUTHORIZER.handler, name: functionNameOf(AUTHORIZER.handler), kind: 'authorizer', permissions: AUTHORIZER.permissions },
    ...listHandlers().map(({ handler, stack, permissions }): FunctionDefinition => ({
      handler,
      name: functionNameOf(handler, stack),
      kind: 'http',
      permissions,
    })),
    ...Object.values(EVENT_HANDLERS).map(({ handler, permissions }): FunctionDefinition => ({
      handler,
      name: functionNameOf(handler),
      kind: 'event',
      permissions,
    })),
    {
      handler: EVENT_PROCESSOR.handler,
      name: functionNameOf(EVENT_PROCESSOR.handler),
      kind: 'stream',
      permissions: EVENT_PROCESSOR.permissions,
    },
    ...Object.values(EVENT_CONSUMERS).map((consumer: EventConsumerDefinition): FunctionDefinition => ({
      handler: consumer.handler,
      name: functionNameOf(consumer.handler),
      kind: 'consumer',
      permissions: consumer.permissions,
      ...(consumer.timeoutSeconds ? { timeoutSeconds: consumer.timeoutSeconds } : {}),
    })),
    {
      handler: TRANSCRIPTION_SWEEPER.handler,
      name: functionNameOf(TRANSCRIPTION_SWEEPER.handler),
      kind: 'scheduled',
      permissions: TRANSCRIPTION_SWEEPER.permissions,
      timeoutSeconds: TRANSCRIPTION_SWEEPER.timeoutSeconds,
    },
    {
      handler: RETENTION_SWEEPER.handler,
      name: functionNameOf(RETENTION_SWEEPER.handler),
      kind: 'scheduled',
      permissions: RETENTION_SWEEPER.permissions,
      timeoutSeconds: RETENTION_SWEEPER.timeoutSeconds,
    },
  ];
}
