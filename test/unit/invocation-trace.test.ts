import { createSocket, type Socket } from 'node:dgram';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { NotFoundError } from '../../shared/core/errors';
import { httpHandler } from '../../shared/http/http-handler';
import { json } from '../../shared/http/responses';
import { instrumented } from '../../shared/observability/instrumentation';
import { DAEMON_HEADER, daemonAddressOf, parseTraceHeader } from '../../shared/observability/invocation-trace';
import { ROUTES } from '../../shared/routes/manifest';

/**
 * The `lambda` tracing mode (docs/observability.md): each sampled invocation sends one X-Ray
 * subsegment, in the segment document format, to the daemon's UDP address, under Lambda's
 * segment of the invocation (the trace header's Parent). A UDP socket stands for the daemon.
 */

const ROOT = '1-67a1b2c3-0123456789abcdef01234567';
const PARENT = '53995c3f42cd8ad8';
const saved = { ...process.env };
const SENTINEL = 'end of the datagrams sent so far';
let daemon: Socket;
let received: string[];
let sentinelArrived: (() => void) | undefined;

beforeAll(async () => {
  daemon = createSocket('udp4');
  daemon.on('message', (message) => {
    const text = message.toString('utf8');
    if (text === SENTINEL) sentinelArrived?.();
    else received.push(text);
  });
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
});
afterAll(() => daemon.close());

beforeEach(() => {
  received = [];
  process.env.TABLE_NAME = 'invocation-trace-unit';
  process.env.TRACING = 'lambda';
  process.env.AWS_XRAY_DAEMON_ADDRESS = `127.0.0.1:${daemon.address().port}`;
  process.env._X_AMZN_TRACE_ID = `Root=${ROOT};Parent=${PARENT};Sampled=1;Lineage=a87bd80c:0`;
});
afterEach(() => {
  for (const name of ['TRACING', 'AWS_XRAY_DAEMON_ADDRESS', '_X_AMZN_TRACE_ID']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

/**
 * The datagrams the daemon got: each its header line and its document. A handler resolves once
 * its datagram is handed to the kernel, so a sentinel sent now arrives after all of them.
 */
async function datagrams(): Promise<{ header: unknown; document: Record<string, any> }[]> {
  const arrived = new Promise<void>((resolve) => (sentinelArrived = resolve));
  const sender = createSocket('udp4');
  await new Promise<void>((resolve) => sender.send(SENTINEL, daemon.address().port, '127.0.0.1', () => resolve()));
  sender.close();
  await arrived;
  return received.map((text) => {
    const [header, document, ...rest] = text.split('\n');
    expect(rest).toEqual([]);
    return { header: JSON.parse(header), document: JSON.parse(document) };
  });
}

const event = (headers: Record<string, string> = {}) =>
  ({
    headers: { 'x-correlation-id': 'corr-123', ...headers },
    requestContext: { requestId: 'req-1' },
    body: null,
  }) as unknown as APIGatewayProxyEvent;

describe('the invocation subsegment (TRACING=lambda)', () => {
  it("sends one subsegment of an HTTP route to the daemon: under Lambda's segment, named after the route, annotated, without the response", async () => {
    const handler = httpHandler(ROUTES.listUsers, async () => json(200, { secret: 'pk_org_never_in_a_trace' }));
    const started = Date.now() / 1000;
    expect((await handler(event(), {} as never)).statusCode).toBe(200);
    const [sent, ...more] = await datagrams();
    expect(more).toEqual([]);
    expect(sent.header).toEqual(JSON.parse(DAEMON_HEADER));
    expect(sent.document).toEqual({
      type: 'subsegment',
      id: expect.stringMatching(/^[0-9a-f]{16}$/),
      trace_id: ROOT,
      parent_id: PARENT,
      name: 'listUsers',
      start_time: expect.any(Number),
      end_time: expect.any(Number),
      http: { response: { status: 200 } },
      annotations: { route: 'listUsers', correlation_id: 'corr-123', cold_start: expect.any(Boolean), service: 'voice-org-api' },
    });
    expect(sent.document.start_time).toBeGreaterThanOrEqual(Math.floor(started));
    expect(sent.document.end_time).toBeGreaterThanOrEqual(sent.document.start_time);
    expect(received.join()).not.toContain('pk_org_never_in_a_trace');
  });

  it('marks a 5xx a fault and a 4xx an error (429 a throttle), as X-Ray filters them', async () => {
    const answering = (status: number) => httpHandler(ROUTES.listUsers, async () => json(status, {}));
    await answering(503)(event(), {} as never);
    await answering(404)(event(), {} as never);
    await answering(429)(event(), {} as never);
    const flags = (await datagrams()).map(({ document: { fault, error, throttle } }) => ({ fault, error, throttle }));
    expect(flags).toEqual([
      { fault: true, error: undefined, throttle: undefined },
      { fault: undefined, error: true, throttle: undefined },
      { fault: undefined, error: true, throttle: true },
    ]);
  });

  it("records a route's thrown error by the status it was answered with: a 404 is an error, an unexpected throw a fault (500)", async () => {
    const notFound = httpHandler(ROUTES.listUsers, async () => {
      throw new NotFoundError('USER_NOT_FOUND', 'no such user');
    });
    const broken = httpHandler(ROUTES.listUsers, async () => {
      throw new Error('a bug');
    });
    expect((await notFound(event(), {} as never)).statusCode).toBe(404);
    expect((await broken(event(), {} as never)).statusCode).toBe(500);
    const flags = (await datagrams()).map(({ document: { fault, error, http } }) => ({ fault, error, status: http.response.status }));
    expect(flags).toEqual([
      { fault: undefined, error: true, status: 404 },
      { fault: true, error: undefined, status: 500 },
    ]);
  });

  it('names a consumer or another function, and records a handler that threw as a fault; the first invocation of the process is its cold start', async () => {
    const consumer = instrumented(async () => 'done', { consumer: 'sendInvitationEmail' });
    const failing = instrumented(async () => {
      throw new Error('boom');
    });
    await consumer({});
    await consumer({});
    await expect(failing({}, { functionName: 'voice-org-sweeper' } as never)).rejects.toThrow('boom');
    const documents = (await datagrams()).map(({ document }) => document);
    expect(documents.map(({ name, annotations, fault }) => ({ name, annotations, fault }))).toEqual([
      {
        name: 'sendInvitationEmail',
        annotations: { consumer: 'sendInvitationEmail', cold_start: expect.any(Boolean), service: 'voice-org-api' },
        fault: undefined,
      },
      {
        name: 'sendInvitationEmail',
        annotations: { consumer: 'sendInvitationEmail', cold_start: false, service: 'voice-org-api' },
        fault: undefined,
      },
      {
        name: 'voice-org-sweeper',
        annotations: { function: 'voice-org-sweeper', cold_start: false, service: 'voice-org-api' },
        fault: true,
      },
    ]);
  });

  it('sends nothing when Lambda did not sample the request, in any other tracing mode, or without a daemon', async () => {
    const handler = httpHandler(ROUTES.listUsers, async () => json(200, {}));
    process.env._X_AMZN_TRACE_ID = `Root=${ROOT};Parent=${PARENT};Sampled=0`;
    await handler(event(), {} as never);
    process.env._X_AMZN_TRACE_ID = `Root=${ROOT};Parent=${PARENT};Sampled=1`;
    for (const mode of ['opentelemetry', 'off']) {
      process.env.TRACING = mode;
      await handler(event(), {} as never);
    }
    process.env.TRACING = 'lambda';
    delete process.env.AWS_XRAY_DAEMON_ADDRESS;
    await handler(event(), {} as never);
    expect(await datagrams()).toEqual([]);
  });
});

describe('the trace header and the daemon address', () => {
  it("reads Lambda's trace header", () => {
    expect(parseTraceHeader(`Root=${ROOT};Parent=${PARENT};Sampled=1;Lineage=a87bd80c:0`)).toEqual({
      root: ROOT,
      parent: PARENT,
      sampled: true,
    });
    expect(parseTraceHeader(`Root=${ROOT};Parent=${PARENT};Sampled=0`)).toEqual({ root: ROOT, parent: PARENT, sampled: false });
    // Pass-through (tracing off): a root alone is no parent to attach to.
    expect(parseTraceHeader(`Root=${ROOT}`)).toBeUndefined();
    expect(parseTraceHeader(undefined)).toBeUndefined();
    expect(parseTraceHeader('Root=garbage;Parent=x;Sampled=1')).toBeUndefined();
  });

  it('reads the daemon address in both of its forms', () => {
    expect(daemonAddressOf('169.254.79.129:2000')).toEqual({ host: '169.254.79.129', port: 2000 });
    expect(daemonAddressOf('tcp:127.0.0.1:2001 udp:127.0.0.1:2000')).toEqual({ host: '127.0.0.1', port: 2000 });
    expect(daemonAddressOf(undefined)).toBeUndefined();
    expect(daemonAddressOf('nonsense')).toBeUndefined();
  });
});
