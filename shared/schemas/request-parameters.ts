import * as v from 'valibot';
import { Id } from './common';

/**
 * What every route's path and query share: the path ids, each a schema of its own, and the
 * query of a route that takes none. The route request middleware (shared/http/middlewares/route-request.ts)
 * validates with these and the OpenAPI generator documents them.
 */

/** A route that takes no query parameters: any it is sent is refused by name. */
export const NoQuery = v.strictObject({});

/** The names of a path template's parameters, in order. */
export function pathParameterNames(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name);
}

/** What each path id names, for the OpenAPI document. */
const PATH_IDS: Record<string, v.GenericSchema<string, string>> = Object.fromEntries(
  Object.entries({
    orgId: 'The organization (`org_…`): the caller must be an active member of it, or hold one of its API keys.',
    userId: 'The member, by user id (`usr_…`).',
    recordingId: 'The recording (`rec_…`).',
    templateId: 'The template (`tpl_…`).',
    inviteId: 'The invitation (`inv_…`).',
    keyId: 'The API key, by its id (`key_…`), never its secret.',
    webhookId: 'The webhook endpoint (`wh_…`).',
    deliveryId: 'The delivery (`dlv_…`).',
    summaryId: 'The summary (`sum_…`).',
    itemId: 'The action item (`ai_…`), within its summary.',
    erasureId: 'The erasure (`era_…`).',
    exportId: 'The export (`exp_…`) of the member named by `userId`.',
  }).map(([name, description]) => [name, v.pipe(Id, v.description(description))]),
);

/**
 * The schema of a path's parameters: every one is an id (ID_PATTERN), so a malformed one is a
 * 400 before any storage sees it (DynamoDB refuses keys over 1-2 KB with an error, not a miss).
 */
export function pathSchema(template: string) {
  return v.strictObject(Object.fromEntries(pathParameterNames(template).map((name) => [name, PATH_IDS[name] ?? Id])));
}

/** A route's query schema, or NoQuery. */
export function querySchemaOf(route: { request?: { query?: v.GenericSchema } }): v.GenericSchema {
  return route.request?.query ?? NoQuery;
}
