import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createVoiceOrgClient } from '../../clients/typescript';
import { GENERATE_COMMAND, generatedTypes, TYPES_FILE } from '../../clients/typescript/generate';
import { openApiDocument } from '../../shared/openapi/document';

// The typed client's types are committed: a route or schema change must come with them regenerated.
describe('the typed client (clients/typescript)', () => {
  let generated: string;
  beforeAll(async () => {
    generated = await generatedTypes();
  }, 30_000);

  it('has the types the current document generates', () => {
    const committed = readFileSync(TYPES_FILE, 'utf8');
    if (committed !== generated) {
      const committedLines = committed.split('\n');
      const generatedLines = generated.split('\n');
      const line = generatedLines.findIndex((text, i) => text !== committedLines[i]);
      throw new Error(
        `${path.relative(process.cwd(), TYPES_FILE)} is stale: run \`${GENERATE_COMMAND}\` and commit it ` +
          `(first difference at line ${line + 1}: committed ${JSON.stringify(committedLines[line])}, generated ${JSON.stringify(generatedLines[line])})`,
      );
    }
  });

  it('types every operation of the document under its operationId', () => {
    const operations = generated.slice(generated.indexOf('\nexport interface operations {'));
    const typed = [...operations.matchAll(/^ {4}(\w+): \{$/gm)].map(([, name]) => name);
    // The operations the API serves (paths) and the one it sends to subscribers (webhooks).
    const { paths, webhooks = {} } = openApiDocument();
    const documented = [paths, webhooks].flatMap((items) =>
      Object.values<Record<string, { operationId: string }>>(items).flatMap((item) => Object.values(item).map((op) => op.operationId)),
    );
    expect(documented.length).toBeGreaterThan(40);
    expect(typed.sort()).toEqual(documented.sort());
  });
});

describe('createVoiceOrgClient', () => {
  /** A client whose fetch records each request and answers 200 `{}`. */
  function recording(options: Omit<Parameters<typeof createVoiceOrgClient>[0], 'fetch'>) {
    const requests: Request[] = [];
    const api = createVoiceOrgClient({
      ...options,
      fetch: async (request) => {
        requests.push(request);
        return new Response('{"status":"ok"}', { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    return { api, requests };
  }

  it('sends the token as a bearer credential, to the base URL without its trailing slash', async () => {
    const { api, requests } = recording({ baseUrl: 'https://api.example.com/', token: 'pk_org_abc' });
    const { data } = await api.GET('/health');
    expect(data).toEqual({ status: 'ok' });
    expect(requests[0].url).toBe('https://api.example.com/health');
    expect(requests[0].headers.get('authorization')).toBe('Bearer pk_org_abc');
  });

  it('asks a token function before every request (a refreshed ID token), and sends nothing when it has none', async () => {
    const tokens = ['id-token-1', 'id-token-2', undefined];
    const { api, requests } = recording({ baseUrl: 'http://127.0.0.1:3000', token: async () => tokens.shift() });
    for (let i = 0; i < 3; i++) await api.GET('/health');
    expect(requests.map((request) => request.headers.get('authorization'))).toEqual(['Bearer id-token-1', 'Bearer id-token-2', null]);
  });

  it('keeps an Authorization header the request sets itself; sends none without a token', async () => {
    const { api, requests } = recording({ baseUrl: 'http://127.0.0.1:3000', token: 'pk_org_abc' });
    await api.GET('/health', { headers: { Authorization: 'Bearer other' } });
    expect(requests[0].headers.get('authorization')).toBe('Bearer other');

    const anonymous = recording({ baseUrl: 'http://127.0.0.1:3000' });
    await anonymous.api.GET('/health');
    expect(anonymous.requests[0].headers.has('authorization')).toBe(false);
  });
});
