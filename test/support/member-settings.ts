import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { localProfileCipher } from '../../infra/local/profile-key';
import { apiKeyIdFromHash, hashApiKey } from '../../shared/auth/api-key-secrets';
import { parseModelCatalog } from '../../shared/config';
import { updateMemberSettings } from '../../shared/domain/settings/update-member-settings';
import { UpdateMemberSettingsBody } from '../../shared/schemas/settings';
import { call, localDeployment, seed, type ApiResponse, unique } from './api';
import { buildOrg, seedOrg } from './org-builder';

/**
 * What the member settings suites (test/integration/member-settings/) share: the organization
 * they build, the defaults a member starts with, one HTTP client per route and organization,
 * and reads of what is at rest.
 */
const { runtime, db } = localDeployment();

/** Both routes of each operation: the organization's, and the public alias that takes the organization from the credential. */
export const ROUTES = ['organization', 'alias'] as const;
export type Route = (typeof ROUTES)[number];

/** The path of each route, as the OpenAPI document names it (the suites' top-level describes). */
export const SETTINGS_PATHS: Record<Route, string> = {
  organization: '/api/v1/organization/{orgId}/users/{userId}/settings',
  alias: '/api/v1/public/users/{userId}/settings',
};

/** describe.each rows: `<METHOD> <path>` and its route, one top-level describe per route. */
export const routesOf = (method: 'GET' | 'PATCH') => ROUTES.map((route) => [`${method} ${SETTINGS_PATHS[route]}`, route] as const);

export const DEFAULT_SETTINGS = {
  conversation_language: 'English',
  selected_theme: 'system',
  selected_model: 'gpt-4o-mini',
  auto_transcription: true,
  sync_to_cloud: true,
  auto_add_tasks_from_summaries: false,
  auto_route_enabled: false,
  calendar_matching: false,
  find_service_enabled: false,
  max_speakers: 10,
  monthly_transcription_minutes: 0,
};
export const DEFAULT_NOTIFICATIONS = {
  highlight_time: '08:00',
  processing_notifications_enabled: true,
  sync_nudges_enabled: true,
  morning_welcome_notifications_enabled: true,
  reminder_notifications_enabled: true,
};
export const EMPTY_PREFERENCES = { data: [], pagination: { page: 1, limit: 50, total: 0, total_pages: 0, has_more: false } };

export const applied = (
  fields: Partial<
    Record<'settings' | 'notifications' | 'profile', boolean> &
      Record<'preferences_created' | 'preferences_updated' | 'preferences_deleted', number>
  >,
) => ({
  settings: false,
  notifications: false,
  profile: false,
  preferences_created: 0,
  preferences_updated: 0,
  preferences_deleted: 0,
  ...fields,
});
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
/** The public id of an API key, as the service records it as the actor. */
export const keyIdOf = (key: string) => apiKeyIdFromHash(hashApiKey(key));

// ---------------------------------------------------------------------------------------
// Organizations

/**
 * An organization of an active owner, admin, member and viewer, a pending and a removed
 * member, the member whose settings the tests read and write (`target`, two tags of her own)
 * and a `peer` (one tag), with org keys of each users scope set and the admin's personal key.
 */
export function buildSettingsOrg() {
  return buildOrg({
    label: 'ms',
    people: {
      owner: { role: 'owner', first: 'olga', displayName: 'Olga Owner' },
      admin: { role: 'admin', first: 'adam', displayName: 'Adam Admin' },
      member: { role: 'member', first: 'mia', displayName: 'Mia Member' },
      viewer: { role: 'viewer', first: 'vic', displayName: 'Vic Viewer' },
      pending: { role: 'member', status: 'pending', first: 'pat', displayName: 'Pat Pending' },
      removed: { role: 'member', status: 'removed', first: 'rex', displayName: 'Rex Removed' },
      target: { role: 'member', first: 'tara', displayName: 'Tara Target', timezone: 'Europe/Paris' },
      peer: { role: 'member', first: 'pete', displayName: 'Pete Peer' },
    },
    keys: {
      full: { scopes: ['users:read', 'users:write'] },
      read: { scopes: ['users:read'] },
      write: { scopes: ['users:write'] },
      personal: { scopes: ['users:read', 'users:write'], user: 'admin' },
    },
    tags: {
      calls: { name: 'Calls', color: '#ff8800', owner: 'target' },
      accounts: { name: 'Accounts', color: '#1f77b4', owner: 'target' },
      peers: { name: 'Peer only', color: '#000000', owner: 'peer' },
    },
  });
}
export type Org = ReturnType<typeof buildSettingsOrg>;

export const seededOrg = (): Promise<Org> => seedOrg(buildSettingsOrg());

let memberCounter = 0;
/** A new active member of an organization who never saved any setting. */
export async function newMember(org: Org, role: 'member' | 'admin' = 'member') {
  const name = `m${++memberCounter}_${unique()}`;
  const user = { id: `usr_${name}`, email: `${name}@example.com`, display_name: `Member ${name}` };
  await seed(db, { users: [user], memberships: [{ org_id: org.org, user_id: user.id, role }] });
  return user;
}

// ---------------------------------------------------------------------------------------
// HTTP helpers: one client per (route, organization)

export interface RequestOptions {
  token?: string;
  headers?: Record<string, string>;
  /** Extra query for the alias (org_id) or the read (include...). */
  query?: string;
}

export function settingsPath(route: Route, org: Org, userId: string, query?: string) {
  const path =
    route === 'organization' ? `/api/v1/organization/${org.org}/users/${userId}/settings` : `/api/v1/public/users/${userId}/settings`;
  return query ? `${path}?${query}` : path;
}

export function client(route: Route, org: Org) {
  return {
    get: (userId: string, query = '', options: RequestOptions = {}): Promise<ApiResponse> =>
      call(runtime.apiUrl, 'GET', settingsPath(route, org, userId, [query, options.query].filter(Boolean).join('&')), {
        token: 'token' in options ? options.token : org.keys.full,
        headers: options.headers,
      }),
    patch: (userId: string, body: unknown, options: RequestOptions & { rawBody?: string } = {}): Promise<ApiResponse> =>
      call(runtime.apiUrl, 'PATCH', settingsPath(route, org, userId, options.query), {
        token: 'token' in options ? options.token : org.keys.full,
        headers: options.headers,
        ...(options.rawBody !== undefined ? { rawBody: options.rawBody } : { body }),
      }),
  };
}
export type Client = ReturnType<typeof client>;

/** The whole bundle of a member, every optional section included. */
export const fullBundle = async (api: Client, userId: string) => {
  const res = await api.get(userId, 'include=profile,preferences,tags&preferences_limit=200');
  expect(res.status).toBe(200);
  return res.body.data;
};

/** PATCH that must succeed. */
export async function patchOk(api: Client, userId: string, body: unknown, options: RequestOptions = {}) {
  const res = await api.patch(userId, body, options);
  if (res.status !== 200) throw new Error(`PATCH failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

export const preferencesOf = async (api: Client, userId: string) => (await fullBundle(api, userId)).preferences;

/**
 * Applies a PATCH body as Update member settings does (validated by the route's own schema,
 * the org key as the actor), but at a moment in the past: a test that needs a later write to
 * be later chooses that moment rather than wait for the clock.
 */
export async function patchedAt(at: Date, org: Org, userId: string, body: unknown) {
  const deps = { db, cipher: localProfileCipher(localDeployment().dataDir), models: parseModelCatalog({}), now: () => at };
  const audit = { actor: keyIdOf(org.keys.full), correlationId: `corr-earlier-${unique()}`, source: 'org_admin_api' };
  return updateMemberSettings(deps, { orgId: org.org, userId }, audit, v.parse(UpdateMemberSettingsBody, body));
}

// ---------------------------------------------------------------------------------------
// Raw table access (what is at rest)

export const rawItem = async (key: Record<string, string>) =>
  (await db.client.send(new GetCommand({ TableName: db.tableName, Key: key }))).Item;

export async function profileVersionRows(orgId: string, userId: string) {
  const { Items } = await db.client.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': `ORG#${orgId}`, ':prefix': `MEMBER#${userId}#PROFILEV#` },
    }),
  );
  return Items ?? [];
}

/** An item as text, its binary attributes spelled out as latin1, utf8 and base64. */
export function itemAsText(item: unknown): string {
  const spelled = (encoding: BufferEncoding) =>
    JSON.stringify(item, function (this: Record<string, unknown>, key, value) {
      const raw = this[key];
      return ArrayBuffer.isView(raw) ? Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString(encoding) : value;
    });
  return (['latin1', 'utf8', 'base64'] as const).map(spelled).join('\n');
}

// ---------------------------------------------------------------------------------------
// Output

/** The JSON objects printed in a process's output (pretty-printed or one per line). */
export function jsonObjectsIn(text: string): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  let start = text.indexOf('{');
  while (start !== -1) {
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        end = i;
        break;
      }
    }
    if (end === -1) break;
    try {
      found.push(JSON.parse(text.slice(start, end + 1)));
      start = text.indexOf('{', end + 1);
    } catch {
      start = text.indexOf('{', start + 1);
    }
  }
  return found;
}
