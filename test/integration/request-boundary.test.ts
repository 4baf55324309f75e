import { isOperation, listEndpoints, SAMPLE_REQUESTS, type RouteName } from '../../shared/routes/manifest';
import { generateApiKey } from '../../shared/auth/api-key-secrets';
import type { Endpoint } from '../../shared/routes/route-definition';
import { pathParameterNames } from '../../shared/schemas/request-parameters';
import { call, failure, idTokenFor, localDeployment, type ApiResponse } from '../support/api';
import { sampleIds, seedSampleData } from '../support/sample-data';

/**
 * The request boundary, through the real HTTP path: every route validates its
 * path ids, query and body with its one request schema (the `request` of its route module)
 * before anything is read or written, and says what is wrong in one phrasing per problem.
 */
const { runtime, db } = localDeployment();

const ids = sampleIds('rb');
const u = ids.orgId.slice(-8);
const orgKey = generateApiKey('org_key');
const personalKey = generateApiKey('user_key');
const owner = { id: `${ids.orgId.replace(/^org_/, 'usr_')}_owner`, email: `olivia.owner@${ids.orgId.replace(/_/g, '-')}.example` };

const base = `/api/v1/organization/${ids.orgId}`;
const send = (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
  call(runtime.apiUrl, method, path, { token: orgKey, ...options });

/** A raw request with exactly these headers and body (call() always sends JSON). */
async function raw(method: string, path: string, body: string, headers: Record<string, string>): Promise<ApiResponse> {
  return call(runtime.apiUrl, method, path, { rawBody: body, headers: { authorization: `Bearer ${orgKey}`, ...headers } });
}

const expectProblem = (res: ApiResponse, code: string, problem: { field: string; issue?: string }) => {
  expect(res.status).toBe(400);
  expect(res.body).toEqual(failure(code));
  expect(res.body.details).toContainEqual(expect.objectContaining(problem));
};

beforeAll(async () => {
  await seedSampleData(db, ids, { orgKey, personalKey });
});

/** The endpoint's sample request with one path parameter replaced. */
function pathWith(endpoint: Endpoint<RouteName>, name: string, value: string): string {
  const sample = SAMPLE_REQUESTS[endpoint.routeName](ids);
  return endpoint.path.replace(/\{(\w+)\}/g, (_, param: string) =>
    encodeURIComponent(param === name ? value : param === 'orgId' ? ids.orgId : sample.path![param]),
  );
}

describe('path ids: a malformed one is 400 before any storage sees it, a well-formed one that names nothing is 404', () => {
  // The API reference's asset name (/docs/{asset}) is a file name, not an id: an unknown one is 404 (test/unit/docs-handlers.test.ts).
  const cases = listEndpoints()
    .filter(isOperation)
    .flatMap((endpoint) =>
      pathParameterNames(endpoint.path).map((name) => [`${endpoint.method} ${endpoint.path}`, name, endpoint] as const),
    );

  it('covers every route with a path id', () => {
    // settings get/patch on both hosts, member patch/delete, recording get/put/delete/restore, media, transcript and transcribe on both hosts,
    // template get/patch/delete, invite revoke/resend, API key get/rotate/delete,
    // webhook get/patch/delete/rotate-secret/test/deliveries/retry; summaries list/create on both hosts, get/delete, action item patch;
    // translate on both hosts; legal holds of a recording and of a member (put/delete), a member's exports (create/get)
    // and erasure (erase/get); a recording's speakers on both hosts; and every {orgId}.
    expect(new Set(cases.filter(([, name]) => name !== 'orgId').map(([label]) => label)).size).toBe(50);
  });

  it.each(cases)('%s: {%s} of 1,030 characters is 400 VALIDATION_ERROR naming it', async (_, name, endpoint) => {
    const sample = SAMPLE_REQUESTS[endpoint.routeName](ids);
    const res = await send(endpoint.method, pathWith(endpoint, name, 'x'.repeat(1_030)), { body: sample.body });
    expectProblem(res, 'VALIDATION_ERROR', { field: name, issue: 'format' });
  });

  it.each([
    ['1,000 characters', 'x'.repeat(1_000)],
    ['65 characters', 'x'.repeat(65)],
    ['a dot', 'tpl.1'],
    ['a space', 'tpl 1'],
    ['non-ASCII', 'tpl_é'],
  ])('a template id of %s is 400, not 404 or 500', async (_, id) => {
    expectProblem(await send('GET', `${base}/templates/${encodeURIComponent(id)}`), 'VALIDATION_ERROR', { field: 'templateId' });
  });

  it('an orgId of 2,100 characters with an ID token is 400, not 500', async () => {
    const res = await call(runtime.apiUrl, 'GET', `/api/v1/organization/${'o'.repeat(2_100)}/users`, { token: await idTokenFor(owner) });
    expectProblem(res, 'VALIDATION_ERROR', { field: 'orgId', issue: 'format' });
  });

  it('a well-formed id that names nothing is 404 (readable fixture ids such as org_demo stay valid)', async () => {
    expect((await send('GET', `${base}/templates/tpl_nothing_here`)).status).toBe(404);
    expect((await send('GET', `${base}/recordings/rec_nothing_here`)).status).toBe(404);
    expect((await send('GET', `${base}/templates/${ids.templateId}`)).status).toBe(200);
  });

  it('org_id on a public alias is an id too', async () => {
    const res = await send('GET', `/api/v1/public/users?org_id=${'x'.repeat(300)}`);
    expectProblem(res, 'VALIDATION_ERROR', { field: 'org_id', issue: 'format' });
  });
});

describe('validation messages say what is wrong, one phrasing per problem', () => {
  it('missing required fields are required, not unknown (upload URL)', async () => {
    const res = await call(runtime.apiUrl, 'POST', '/api/v1/public/recordings/upload-url', { token: personalKey, body: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      data: null,
      error: 'VALIDATION_ERROR',
      message: 'filename is required; content_type is required; size_bytes is required.',
      details: [
        { field: 'filename', issue: 'missing', message: 'is required' },
        { field: 'content_type', issue: 'missing', message: 'is required' },
        { field: 'size_bytes', issue: 'missing', message: 'is required' },
      ],
    });
  });

  it('a template without sections: sections is required', async () => {
    const res = await send('POST', `${base}/templates`, { body: { name: 'x' } });
    expect(res.body.message).toBe('sections is required.');
  });

  it('accept without a token: token is required', async () => {
    const res = await call(runtime.apiUrl, 'POST', '/api/v1/organization/invites/accept', { token: await idTokenFor(owner), body: {} });
    expect(res.body).toEqual(failure('VALIDATION_ERROR', 'token is required.'));
  });

  it('a null email must be a string; an unknown field is not a known field', async () => {
    expect((await send('POST', `${base}/invites`, { body: { email: null } })).body.message).toBe('email must be a string.');
    const res = await send('POST', `${base}/invites`, { body: { emial: 'a@example.com' } });
    expect(res.body.details).toEqual([
      { field: 'email', issue: 'missing', message: 'is required' },
      { field: 'emial', issue: 'unknown', message: 'is not a known field' },
    ]);
  });
});

describe('content types', () => {
  const template = JSON.stringify({ name: `Typed ${u}`, sections: [{ title: 't', prompt: 'p' }] });
  const names = async () => ((await send('GET', `${base}/templates?limit=100`)).body.templates as { name: string }[]).map((t) => t.name);

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml'])(
    'a %s body is 415 UNSUPPORTED_MEDIA_TYPE and nothing is created',
    async (contentType) => {
      const res = await raw('POST', `${base}/templates`, template, { 'content-type': contentType });
      expect(res.status).toBe(415);
      expect(res.body).toEqual(failure('UNSUPPORTED_MEDIA_TYPE'));
      expect(await names()).not.toContain(`Typed ${u}`);
    },
  );

  it.each([
    ['application/json; charset=utf-8', 'json'],
    ['Application/JSON', 'capitals'],
    ['application/merge-patch+json', 'merge'],
    ['application/vnd.api+json', 'vnd'],
  ])('%s is parsed as JSON', async (contentType, label) => {
    const body = JSON.stringify({ name: `Typed ${label} ${u}`, sections: [{ title: 't', prompt: 'p' }] });
    expect((await raw('POST', `${base}/templates`, body, { 'content-type': contentType })).status).toBe(201);
  });

  it('a body with no content type is parsed as JSON', async () => {
    const res = await fetch(`${runtime.apiUrl}${base}/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${orgKey}` },
      // A Uint8Array body makes fetch send no content type at all.
      body: new TextEncoder().encode(JSON.stringify({ name: `Untyped ${u}`, sections: [{ title: 't', prompt: 'p' }] })),
    });
    expect(res.status).toBe(201);
  });

  it('text that is not JSON is 400 INVALID_JSON', async () => {
    const res = await raw('POST', `${base}/templates`, 'name=x', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(failure('INVALID_JSON'));
  });

  it('a route that takes no body ignores one, whatever its type', async () => {
    const res = await raw('POST', `${base}/invites/${ids.resendInviteId}/resend`, 'not json', { 'content-type': 'text/plain' });
    expect(res.status).toBe(200);
  });
});

describe('query parameters', () => {
  it('a repeated single-valued parameter is 400 naming it, not "the last one wins"', async () => {
    expectProblem(await send('GET', `${base}/users?limit=1&limit=2`), 'VALIDATION_ERROR', { field: 'limit', issue: 'repeated' });
    expectProblem(await send('GET', `${base}/users/${ids.memberId}/settings?include=profile&include=tags`), 'VALIDATION_ERROR', {
      field: 'include',
      issue: 'repeated',
    });
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'a parameter named %s is 400 unknown, on every kind of route',
    async (name) => {
      expectProblem(await send('GET', `${base}/users?${name}=1`), 'VALIDATION_ERROR', { field: name, issue: 'unknown' });
      expectProblem(await send('GET', `${base}/templates/${ids.templateId}?${name}=1`), 'VALIDATION_ERROR', {
        field: name,
        issue: 'unknown',
      });
    },
  );

  it('a route that takes no query parameters names any it is sent', async () => {
    expectProblem(await send('GET', `${base}/templates/${ids.templateId}?expand=all`), 'VALIDATION_ERROR', {
      field: 'expand',
      issue: 'unknown',
    });
  });

  it('NUL in a query value is 400', async () => {
    expectProblem(await send('GET', `${base}/users?q=a%00b`), 'VALIDATION_ERROR', { field: 'q', issue: 'invalid_text' });
  });
});

describe('text that cannot be stored as sent is refused, never altered', () => {
  const settings = `${base}/users/${ids.memberId}/settings`;
  const profile = async () => (await send('GET', `${settings}?include=profile`)).body.data.profile;

  it('a lone surrogate in a profile is 400 INVALID_PROFILE and the profile is unchanged', async () => {
    const before = await profile();
    const res = await raw('PATCH', settings, '{"profile":{"profile":"half an emoji: \\ud83d"}}', { 'content-type': 'application/json' });
    expectProblem(res, 'INVALID_PROFILE', { field: 'profile.profile', issue: 'invalid_text' });
    expect(await profile()).toEqual(before);
  });

  it('a whole emoji (a surrogate pair) is stored and read back as sent', async () => {
    const text = 'A pair: \ud83d\ude00 and é';
    expect((await send('PATCH', settings, { body: { profile: { profile: text } } })).status).toBe(200);
    expect((await profile()).profile).toBe(text);
  });

  it('NUL in a template name is 400 and nothing is created', async () => {
    const res = await send('POST', `${base}/templates`, { body: { name: `nul\u0000${u}`, sections: [{ title: 't', prompt: 'p' }] } });
    expectProblem(res, 'VALIDATION_ERROR', { field: 'name', issue: 'invalid_text' });
  });

  it('preference metadata is refused where DynamoDB or its SDK could not store it, and stored as sent where they can', async () => {
    const create = (metadata: unknown) => ({ preferences: [{ command: 'c', command_type: 'manual', preference_content: 'p', metadata }] });
    for (const metadata of [{ '': [] }, { n: -9007199254740992 }, { n: 1e-131 }]) {
      expectProblem(await send('PATCH', settings, { body: create(metadata) }), 'INVALID_PREFERENCES', { field: 'preferences[0].metadata' });
    }
    const storable = { small: 1e-129, inexact: 0.30000000000000004, big: -9007199254740991, nested: { list: [0, -0.5, 'x'] } };
    expect((await send('PATCH', settings, { body: create(storable) })).status).toBe(200);
    const stored = (await send('GET', `${settings}?include=preferences&preferences_limit=200`)).body.data.preferences.data;
    expect(stored.map((p: { metadata: Record<string, unknown> }) => p.metadata)).toContainEqual(expect.objectContaining(storable));
  });

  it('a body nested 10,000 levels deep is 400, and the API stays up', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const res = await raw('PATCH', settings, `{"preferences":${deep}}`, { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect((await call(runtime.apiUrl, 'GET', '/health')).status).toBe(200);
  });
});
