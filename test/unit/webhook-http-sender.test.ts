import { execFileSync, spawnSync } from 'node:child_process';
import type { LookupAddress } from 'node:dns';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressLookup } from '../../shared/webhooks/endpoint-address';
import { postWebhook, RESPONSE_READ_LIMIT_BYTES } from '../../shared/webhooks/http-sender';

// Real sockets on 127.0.0.1; the local policy is what lets deliveries reach them.
const LOCAL = { allowLocalUrls: true };
const PUBLIC_ONLY = { allowLocalUrls: false };
const body = JSON.stringify({ id: 'evt_1', type: 'recording.created', data: { title: 'Café ✅' } });
const headers = {
  'content-type': 'application/json',
  'webhook-id': 'evt_1',
  'webhook-timestamp': '1700000000',
  'webhook-signature': 'v1,c2lnbmF0dXJl',
  'user-agent': 'VoiceOrgAPI-Webhooks/1',
};

interface ReceivedRequest {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  received: ReceivedRequest[];
  /** TCP connections accepted, whether or not a request followed. */
  connections: number;
  close(): Promise<void>;
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function listen(server: http.Server | https.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function closer(server: http.Server | https.Server) {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

/** A plain HTTP server that records each request (body read in full) and then lets `answer` respond, or not. */
async function startServer(answer: (response: ServerResponse, request: IncomingMessage) => void): Promise<TestServer> {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method, url: request.url, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(response, request);
    });
  });
  const state = { connections: 0 };
  server.on('connection', () => (state.connections += 1));
  const port = await listen(server);
  const handle: TestServer = {
    origin: `http://127.0.0.1:${port}`,
    port,
    received,
    get connections() {
      return state.connections;
    },
    close: closer(server),
  };
  servers.push(handle);
  return handle;
}

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function fixedLookup(addresses: LookupAddress[]): AddressLookup & { asked: string[] } {
  const asked: string[] = [];
  return Object.assign(
    async (hostname: string) => {
      asked.push(hostname);
      return addresses;
    },
    { asked },
  );
}

describe('postWebhook, answers', () => {
  it('delivers the exact body and headers in one POST, and a 200 is ok', async () => {
    const server = await startServer((response) => response.writeHead(200).end('thanks'));
    const outcome = await postWebhook({ url: `${server.origin}/hooks/in?source=voice`, headers, body }, { policy: LOCAL });
    expect(outcome).toEqual({ ok: true, status: 200, ms: expect.any(Number), error: null });
    expect(Number.isInteger(outcome.ms)).toBe(true);
    expect(server.received).toHaveLength(1);
    const [request] = server.received;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hooks/in?source=voice');
    expect(request.body).toBe(body);
    expect(request.headers).toMatchObject({
      ...headers,
      host: `127.0.0.1:${server.port}`,
      'content-length': String(Buffer.byteLength(body)),
    });
  });

  it('treats any 2xx as ok (204 without a body)', async () => {
    const server = await startServer((response) => response.writeHead(204).end());
    await expect(postWebhook({ url: server.origin, headers, body }, { policy: LOCAL })).resolves.toMatchObject({
      ok: true,
      status: 204,
      error: null,
    });
  });

  it('reports a 500 as non_2xx with its status', async () => {
    const server = await startServer((response) => response.writeHead(500).end('boom'));
    await expect(postWebhook({ url: server.origin, headers, body }, { policy: LOCAL })).resolves.toMatchObject({
      ok: false,
      status: 500,
      error: 'non_2xx',
    });
  });

  it('does not follow a redirect: 301 is non_2xx and its Location is never called', async () => {
    const target = await startServer((response) => response.writeHead(200).end());
    const redirecting = await startServer((response) => response.writeHead(301, { location: `${target.origin}/moved` }).end());
    const outcome = await postWebhook({ url: redirecting.origin, headers, body }, { policy: LOCAL });
    expect(outcome).toMatchObject({ ok: false, status: 301, error: 'non_2xx' });
    expect(redirecting.received).toHaveLength(1);
    expect(target.connections).toBe(0);
  });

  it('reads at most the read limit of an endless 200 body, and still counts it ok', async () => {
    const chunk = Buffer.alloc(16 * 1024, 'x');
    let written = 0;
    const server = await startServer((response) => {
      response.writeHead(200);
      const pump = () => {
        let flowing = true;
        while (!response.destroyed && flowing) {
          flowing = response.write(chunk);
          written += chunk.length;
        }
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    });
    const outcome = await postWebhook({ url: server.origin, headers, body }, { policy: LOCAL, timeoutMs: 2_000 });
    expect(outcome).toMatchObject({ ok: true, status: 200, error: null });
    expect(written).toBeGreaterThanOrEqual(RESPONSE_READ_LIMIT_BYTES);
  });
});

describe('postWebhook, timeouts', () => {
  it('gives up on a server that never answers: timeout, no status', async () => {
    const server = await startServer(() => undefined);
    const outcome = await postWebhook({ url: server.origin, headers, body }, { policy: LOCAL, timeoutMs: 200 });
    expect(outcome).toMatchObject({ ok: false, status: null, error: 'timeout' });
    expect(outcome.ms).toBeGreaterThanOrEqual(195);
    expect(outcome.ms).toBeLessThan(2_000);
    expect(server.received).toHaveLength(1);
  });

  it('counts the body in the budget: a 200 whose body never ends is a timeout (with the status seen)', async () => {
    const server = await startServer((response) => {
      response.writeHead(200);
      response.write('{"partial":');
    });
    await expect(postWebhook({ url: server.origin, headers, body }, { policy: LOCAL, timeoutMs: 200 })).resolves.toMatchObject({
      ok: false,
      status: 200,
      error: 'timeout',
    });
  });

  it('counts DNS in the budget: a lookup that never answers is a timeout', async () => {
    const hangingLookup: AddressLookup = () => new Promise(() => undefined);
    const outcome = await postWebhook(
      { url: 'https://slow-dns.example.com/hook', headers, body },
      { policy: PUBLIC_ONLY, timeoutMs: 200, lookup: hangingLookup },
    );
    expect(outcome).toMatchObject({ ok: false, status: null, error: 'timeout' });
  });
});

describe('postWebhook, connection failures', () => {
  it('reports a closed port as connection_refused', async () => {
    const port = await closedPort();
    await expect(postWebhook({ url: `http://127.0.0.1:${port}/`, headers, body }, { policy: LOCAL })).resolves.toMatchObject({
      ok: false,
      status: null,
      error: 'connection_refused',
    });
  });

  it('reports connection_refused when every address of the host refuses (IPv6 and IPv4 tried)', async () => {
    const port = await closedPort();
    const lookup = fixedLookup([
      { address: '::1', family: 6 },
      { address: '127.0.0.1', family: 4 },
    ]);
    await expect(postWebhook({ url: `http://localhost:${port}/`, headers, body }, { policy: LOCAL, lookup })).resolves.toMatchObject({
      error: 'connection_refused',
    });
  });

  it('reports a connection closed before any answer as connection_error', async () => {
    const server = await startServer((response) => response.socket?.destroy());
    await expect(postWebhook({ url: server.origin, headers, body }, { policy: LOCAL })).resolves.toMatchObject({
      ok: false,
      status: null,
      error: 'connection_error',
    });
  });
});

describe('postWebhook, address rules (SSRF)', () => {
  it('refuses 127.0.0.1 without the local exception, without connecting', async () => {
    const server = await startServer((response) => response.writeHead(200).end());
    for (const url of [server.origin, `https://127.0.0.1:${server.port}/`, `https://localhost:${server.port}/`]) {
      await expect(postWebhook({ url, headers, body }, { policy: PUBLIC_ONLY })).resolves.toMatchObject({
        ok: false,
        status: null,
        error: 'address_not_allowed',
      });
    }
    expect(server.connections).toBe(0);
  });

  it('refuses a host that resolves to a private address, or to one private among public ones', async () => {
    for (const addresses of [
      [{ address: '10.0.0.7', family: 4 }],
      [{ address: '169.254.169.254', family: 4 }],
      [
        { address: '93.184.215.14', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
    ]) {
      const lookup = fixedLookup(addresses);
      await expect(
        postWebhook({ url: 'https://hooks.example.com/in', headers, body }, { policy: PUBLIC_ONLY, lookup }),
      ).resolves.toMatchObject({
        ok: false,
        status: null,
        error: 'address_not_allowed',
      });
      expect(lookup.asked).toEqual(['hooks.example.com']);
    }
  });

  it('reports an unresolvable host as dns_failure', async () => {
    const notFound: AddressLookup = async (hostname) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    };
    await expect(
      postWebhook({ url: 'https://nowhere.example.com/', headers, body }, { policy: PUBLIC_ONLY, lookup: notFound }),
    ).resolves.toMatchObject({
      ok: false,
      status: null,
      error: 'dns_failure',
    });
  });

  it('refuses a URL that breaks the syntax rules as address_not_allowed', async () => {
    for (const url of ['not a url', 'http://example.com/', 'https://user:pw@example.com/', 'https://printer.local/']) {
      await expect(postWebhook({ url, headers, body }, { policy: PUBLIC_ONLY })).resolves.toMatchObject({
        ok: false,
        error: 'address_not_allowed',
      });
    }
  });

  it('connects to the address it checked, resolving the host once', async () => {
    const server = await startServer((response) => response.writeHead(200).end());
    const lookup = fixedLookup([{ address: '127.0.0.1', family: 4 }]);
    await expect(postWebhook({ url: `http://localhost:${server.port}/`, headers, body }, { policy: LOCAL, lookup })).resolves.toMatchObject(
      { ok: true },
    );
    expect(lookup.asked).toEqual(['localhost']);
    expect(server.received[0].headers.host).toBe(`localhost:${server.port}`);
  });
});

const opensslAvailable = spawnSync('openssl', ['version']).status === 0;

// Without openssl there is no certificate to serve (node:crypto cannot issue X.509 certificates).
(opensslAvailable ? describe : describe.skip)('postWebhook, TLS', () => {
  let directory: string;
  let tls: { key: Buffer; cert: Buffer };

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
    const [key, cert] = [join(directory, 'key.pem'), join(directory, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,DNS:receiver.example,IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    tls = { key: readFileSync(key), cert: readFileSync(cert) };
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  /** An HTTPS server with the self-signed certificate, recording the SNI names it is asked for and the requests it gets. */
  async function startTlsServer() {
    const serverNames: (string | undefined)[] = [];
    const requests: string[] = [];
    const server = https.createServer(
      {
        ...tls,
        SNICallback: (servername, callback) => {
          serverNames.push(servername);
          callback(null, undefined);
        },
      },
      (request, response) => {
        requests.push(request.url ?? '');
        response.writeHead(200).end();
      },
    );
    const port = await listen(server);
    servers.push({ close: closer(server) });
    return { port, serverNames, requests };
  }

  it('verifies certificates: a self-signed one is a tls_error and no request is sent', async () => {
    const server = await startTlsServer();
    const outcome = await postWebhook({ url: `https://localhost:${server.port}/hook`, headers, body }, { policy: LOCAL });
    expect(outcome).toMatchObject({ ok: false, status: null, error: 'tls_error' });
    expect(server.requests).toEqual([]);
  });

  it('sends the host name as SNI while connecting to the pinned address', async () => {
    // receiver.example resolves nowhere but in the injected lookup: reaching the server proves the socket used it.
    const server = await startTlsServer();
    const lookup = fixedLookup([{ address: '127.0.0.1', family: 4 }]);
    const outcome = await postWebhook({ url: `https://receiver.example:${server.port}/hook`, headers, body }, { policy: LOCAL, lookup });
    expect(outcome).toMatchObject({ error: 'tls_error' });
    expect(server.serverNames).toEqual(['receiver.example']);
    expect(lookup.asked).toEqual(['receiver.example']);
  });

  it('reports an https URL answered by a plain HTTP server as tls_error', async () => {
    const plain = await startServer((response) => response.writeHead(200).end());
    await expect(postWebhook({ url: `https://127.0.0.1:${plain.port}/`, headers, body }, { policy: LOCAL })).resolves.toMatchObject({
      ok: false,
      error: 'tls_error',
    });
  });
});
