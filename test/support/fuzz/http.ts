import net from 'node:net';
import type { FuzzRequest } from './requests';

/** What came back for one request: a response, or no response at all (`error`). */
export interface FuzzResponse {
  status: number;
  /** Lower-case header names; a repeated header's values joined with ', '. */
  headers: Record<string, string>;
  /** The body as text ('' when empty). */
  text: string;
  /** The body parsed as JSON; undefined when empty or not JSON. */
  json: unknown;
  /** Set when no response arrived (connection closed before a status line, timeout); status is then 0. */
  error?: string;
  ms: number;
}

const REQUEST_TIMEOUT_MS = 20_000;

/**
 * Sends a request byte for byte as built, over a raw TCP connection (HTTP/1.1, one request per
 * connection): the path and query exactly as given (no `..` normalisation, `%ZZ` kept, a raw
 * Latin-1 byte when asked), repeated headers as separate lines. Whatever the server answers
 * is read, even when it answers early and closes while the body is still being written (a
 * 401 or 413 before a 2 MB body is sent): only a connection closed without any status line
 * counts as no response.
 */
export function send(apiUrl: string, request: FuzzRequest): Promise<FuzzResponse> {
  const url = new URL(apiUrl);
  const started = Date.now();
  const body = request.body === undefined ? undefined : typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : request.body;
  const lines = [`${request.method} ${request.path}${request.query} HTTP/1.1`, `host: ${url.host}`, 'connection: close'];
  for (const [name, value] of Object.entries(request.headers)) for (const one of [value].flat()) lines.push(`${name}: ${one}`);
  if (body) lines.push(`content-length: ${body.length}`);
  const head = `${lines.join('\r\n')}\r\n\r\n`;
  if (
    /[^\u0000-\u00ff]/.test(head) ||
    /[ \t\r\n\u0000]/.test(`${request.path}${request.query}`) ||
    /[\r\n\u0000]/.test(lines.slice(1).join(''))
  ) {
    throw new Error(`fuzz harness: cannot write this request head as HTTP/1.1 (a generator bug): ${JSON.stringify(head.slice(0, 300))}`);
  }

  return new Promise((resolve) => {
    const received: Buffer[] = [];
    let socketError: string | undefined;
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => {
      socketError ??= `no response within ${REQUEST_TIMEOUT_MS} ms`;
      socket.destroy();
    });
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    // EPIPE/ECONNRESET while the body is still being written: the answer may already be in; read on.
    socket.on('error', (error: NodeJS.ErrnoException) => (socketError ??= error.code ?? error.message));
    socket.on('close', () => resolve({ ...parseResponse(Buffer.concat(received), socketError), ms: Date.now() - started }));
    socket.write(head, 'latin1');
    if (body) socket.write(body);
  });
}

function parseResponse(raw: Buffer, socketError: string | undefined): Omit<FuzzResponse, 'ms'> {
  let rest = raw;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) {
      return {
        status: 0,
        headers: {},
        text: '',
        json: undefined,
        error:
          socketError ??
          (rest.length
            ? `an incomplete response: ${JSON.stringify(rest.toString('latin1').slice(0, 100))}`
            : 'the connection closed without a response'),
      };
    }
    const [statusLine, ...headerLines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    let payload = rest.subarray(end + 4);
    // Informational answers (100 Continue) come before the real one.
    if (status >= 100 && status < 200) {
      rest = payload;
      continue;
    }
    if (!status)
      return { status: 0, headers, text: '', json: undefined, error: `not an HTTP response: ${JSON.stringify(statusLine.slice(0, 100))}` };
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) payload = dechunk(payload);
    else if (headers['content-length'] !== undefined) payload = payload.subarray(0, Number(headers['content-length']));
    const text = payload.toString('utf8');
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status, headers, text, json };
  }
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** GET /health: the server is still up when it answers 200. */
export async function healthy(apiUrl: string): Promise<{ ok: boolean; detail: string }> {
  const response = await send(apiUrl, {
    operationId: 'health',
    method: 'GET',
    path: '/health',
    query: '',
    headers: {},
    credential: 'none',
    tags: [],
  });
  return { ok: response.status === 200, detail: response.error ?? `${response.status} ${response.text.slice(0, 200)}` };
}
