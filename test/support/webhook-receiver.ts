import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from './eventually';

/** One request a receiver got. */
export interface ReceivedDelivery {
  method: string;
  /** The request's path and query. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * How the receiver answers one request: a status, a status with headers (a redirect's
 * `location`), or 'hang' to never answer. A promise holds the answer back until it settles,
 * so a test can look at the delivery while this attempt is under way.
 */
export type ReceiverReply = number | 'hang' | { status: number; headers?: Record<string, string> };
export type Responder = (n: number, delivery: ReceivedDelivery) => ReceiverReply | Promise<ReceiverReply>;

export interface Receiver {
  /** The endpoint URL to register (loopback, allowed by the local deployment). */
  url: string;
  /** Every request so far, in arrival order. */
  received: ReceivedDelivery[];
  /** Waits until at least `count` requests came (or the time is up) and returns them all. */
  waitFor(count: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

/**
 * A webhook receiver on loopback for the tests: it records every request and answers with
 * what `respond` says for the n-th request (1-based); 200 unless told.
 */
export async function startReceiver(respond: Responder = () => 200): Promise<Receiver> {
  const received: ReceivedDelivery[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => void answerDelivery());
    const answerDelivery = async () => {
      const delivery = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body, at: Date.now() };
      received.push(delivery);
      const answer = await respond(received.length, delivery);
      if (answer === 'hang' || response.destroyed) return;
      const { status, headers = {} } = typeof answer === 'number' ? { status: answer } : answer;
      response.writeHead(
        status,
        status >= 300 && status < 400 && !headers.location ? { location: 'http://127.0.0.1:9/elsewhere', ...headers } : headers,
      );
      response.end();
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    waitFor: (count) =>
      eventually(
        async () => received,
        (all) => all.length >= count,
      ),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** A loopback URL nothing listens on: a port the system gave a server that is closed again. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks`;
}

/** A latch a receiver's answer can wait on: `opened` settles once the test calls `open`. */
export function latch(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** The Standard Webhooks headers of a received request, as `standardwebhooks` verifies them. */
export function webhookHeadersOf(delivery: ReceivedDelivery): Record<string, string> {
  const header = (name: string) => {
    const value = delivery.headers[name];
    if (typeof value !== 'string') throw new Error(`the request carries no single ${name} header: ${JSON.stringify(delivery.headers)}`);
    return value;
  };
  return {
    'webhook-id': header('webhook-id'),
    'webhook-timestamp': header('webhook-timestamp'),
    'webhook-signature': header('webhook-signature'),
  };
}
