import type { FixtureInput } from '../../shared/schemas/fixture';
import { TEMPLATE_LIMITS } from '../../shared/schemas/templates';
import { call, failure, idTokenFor, localDeployment, once, type ApiResponse } from './api';
import { buildOrg, seedOrg } from './org-builder';

/**
 * What the suites of the templates routes (test/integration/templates/) share: the
 * organizations they build (one active member of each role, org keys of each scope set), their
 * HTTP helpers, the largest template the limits allow, and the organizations several routes'
 * blocks use (each suite builds its own: once() is per file).
 */

export const { runtime, db } = localDeployment();

export const NOT_FOUND = failure('TEMPLATE_NOT_FOUND');
export const HOUR_MS = 3_600_000;

// ---------------------------------------------------------------------------------------
// Organizations

export type Section = { title: string; prompt: string };
export type TemplateInput = NonNullable<FixtureInput['templates']>[number];

/** An organization with one active member of each role and org keys of each scope set. */
export function buildTemplatesOrg(label = 'tpl') {
  const org = buildOrg({
    label,
    keys: {
      read: { scopes: ['templates:read'] },
      write: { scopes: ['templates:write'] },
      full: { scopes: ['templates:read', 'templates:write', 'recordings:read'] },
      /** no template scope */
      users: { scopes: ['users:read', 'recordings:read'] },
      /** both template scopes, refused for its kind, not its scopes */
      personal: { scopes: ['templates:read', 'templates:write'], user: 'admin' },
    },
  });
  /** A fixture template of this organization. */
  const tpl = (name: string, fields: Partial<TemplateInput> = {}): TemplateInput => ({
    name,
    sections: [{ title: 'Overview', prompt: 'Summarize the call.' }],
    ...fields,
    id: `tpl_${name.replace(/\W/g, '_')}_${org.id}`,
    org_id: org.org,
  });
  return { ...org, tpl };
}
export type Org = ReturnType<typeof buildTemplatesOrg>;

// ---------------------------------------------------------------------------------------
// HTTP helpers

export const base = (org: Org) => `/api/v1/organization/${org.org}/templates`;
export const send = (method: string, path: string, token?: string, body?: unknown) => call(runtime.apiUrl, method, path, { token, body });
export const list = (org: Org, token = org.keys.full, query = '') => send('GET', `${base(org)}${query}`, token);
export const getTpl = (org: Org, templateId: string, token = org.keys.full) => send('GET', `${base(org)}/${templateId}`, token);
export const create = (org: Org, body: unknown, token = org.keys.full) => send('POST', base(org), token, body);
export const patch = (org: Org, templateId: string, body: unknown, token = org.keys.full) =>
  send('PATCH', `${base(org)}/${templateId}`, token, body);
export const remove = (org: Org, templateId: string, token = org.keys.full) => send('DELETE', `${base(org)}/${templateId}`, token);

/** A create that must succeed; returns the Template. */
export async function created(org: Org, body: Record<string, unknown>, token = org.keys.full) {
  const res = await create(org, body, token);
  if (res.status !== 201) throw new Error(`POST templates: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; name: string; description: string; sections: Section[]; created_at: string; updated_at: string };
}

/** The templates of an organization as its list returns them. */
export async function listed(org: Org) {
  const res = await list(org);
  if (res.status !== 200) throw new Error(`GET templates: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.templates as { id: string; name: string }[];
}

export const sections = (count: number, title = (i: number) => `Section ${i + 1}`): Section[] =>
  Array.from({ length: count }, (_, i) => ({ title: title(i), prompt: `Prompt ${i + 1}.` }));

/** Expected order of a list: by lower-cased name (code unit order), then id. */
export const byNameThenId = (a: { name: string; id: string }, b: { name: string; id: string }) => {
  const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
  if (x !== y) return x < y ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};

/** Lambda's synchronous response payload limit (6 MB). */
export const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;

/**
 * The bytes of a response: its body as sent, and as the Lambda payload that AWS limits (the
 * proxy result, where the body is a JSON string, so its escapes are escaped again).
 */
export function responseBytes(res: ApiResponse) {
  const body = JSON.stringify(res.body);
  const headers = Object.fromEntries(res.headers.entries());
  return { body: Buffer.byteLength(body), lambda: Buffer.byteLength(JSON.stringify({ statusCode: res.status, headers, body })) };
}

/**
 * The largest template the limits allow, in the costliest character they allow (`"`: two
 * bytes in the body, four in the Lambda payload), spread over the most sections.
 */
export function largestTemplate(name = '') {
  const text = (units: number) => '"'.repeat(units);
  let left = TEMPLATE_LIMITS.sectionsText - 2 * TEMPLATE_LIMITS.sections;
  const grow = (max: number) => {
    const extra = Math.min(max - 1, left);
    left -= extra;
    return 1 + extra;
  };
  const shape = Array.from({ length: TEMPLATE_LIMITS.sections }, () => ({
    title: grow(TEMPLATE_LIMITS.sectionTitle),
    prompt: grow(TEMPLATE_LIMITS.prompt),
  }));
  return {
    name: `${name}${text(TEMPLATE_LIMITS.name - name.length)}`,
    description: text(TEMPLATE_LIMITS.description),
    sections: shape.map(({ title, prompt }) => ({ title: text(title), prompt: text(prompt) })),
  };
}

export const expectUnderLimit = (res: ApiResponse, status: number) => {
  expect(res.status).toBe(status);
  const bytes = responseBytes(res);
  expect(bytes.body).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
  expect(bytes.lambda).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
  return bytes;
};

// ---------------------------------------------------------------------------------------
// Organizations several routes' blocks share

/** Two organizations with one template each: another organization's template must be out of reach on every route. */
export const isolation = once(async () => {
  const mine = buildTemplatesOrg('iso');
  const theirs = buildTemplatesOrg('iso_other');
  await Promise.all([seedOrg(mine, { templates: [mine.tpl('Mine')] }), seedOrg(theirs, { templates: [theirs.tpl('Theirs')] })]);
  return { mine, theirs, mineId: mine.tpl('Mine').id };
});

/** After a refused attempt of theirs: my template is still there, unchanged, and not in their list. */
export async function expectUntouchedByTheirs({ mine, theirs, mineId }: Awaited<ReturnType<typeof isolation>>) {
  const still = await getTpl(mine, mineId);
  expect(still.status).toBe(200);
  expect(still.body.name).toBe('Mine');
  expect((await listed(theirs)).map((t) => t.id)).not.toContain(mineId);
}

/** Where validation runs: an organization for valid requests, and one where only creates that must fail are sent (it must stay empty). */
export const validation = once(async () => {
  const [org, empty] = await Promise.all([seedOrg(buildTemplatesOrg('valid')), seedOrg(buildTemplatesOrg('invalid'))]);
  return { org, empty };
});

export const ok = { name: 'Valid', description: 'Fine.', sections: sections(1) };
export const chars = (n: number, c = 'x') => c.repeat(n);

/** A 400 VALIDATION_ERROR whose details name `field` (given as a dot path, e.g. sections.0.title; named sections[0].title). */
export const expectInvalid = (res: ApiResponse, field: string) => {
  expect(res.status).toBe(400);
  expect(res.body).toEqual(failure('VALIDATION_ERROR'));
  if (field) expect(res.body.details).toContainEqual(expect.objectContaining({ field: field.replace(/\.(\d+)/g, '[$1]') }));
};

/**
 * Who may call each route, and what everyone else is answered, is the access matrix's
 * (test/integration/access-matrix.test.ts, generated from the manifest). Here, each kind of
 * caller a route admits gets its answer: an ID token of the lowest role it admits, and an org
 * key with only the route's scope.
 */
export const READERS = [
  ['a member’s ID token', (org: Org) => idTokenFor(org.people.member)],
  ['a key with templates:read only', async (org: Org) => org.keys.read],
] as const;
export const WRITERS = [
  ['an admin’s ID token', (org: Org) => idTokenFor(org.people.admin)],
  ['a key with templates:write only', async (org: Org) => org.keys.write],
] as const;

/** The organization of the callers blocks: one template to read, and one per writer to update and to delete. */
export const callers = once(async () => {
  const org = buildTemplatesOrg('callers');
  await seedOrg(org, {
    templates: [org.tpl('Shared'), ...WRITERS.flatMap(([label]) => [org.tpl(`upd ${label}`), org.tpl(`del ${label}`)])],
  });
  return org;
});

/** The organization the largest templates are written to. */
export const bigOrg = once(() => seedOrg(buildTemplatesOrg('big')));

// ---------------------------------------------------------------------------------------
