import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import {
  checkEndpointUrl,
  EndpointAddressError,
  resolveEndpointAddresses,
  type AddressLookup,
  type EndpointPolicy,
  type ResolvedAddress,
} from './endpoint-address';

/** Why a delivery attempt failed, as the deliveries API reports it. */
export const DELIVERY_ERROR_CODES = [
  'timeout',
  'connection_refused',
  'tls_error',
  'non_2xx',
  'dns_failure',
  'address_not_allowed',
  'connection_error',
] as const;

/** One of {@link DELIVERY_ERROR_CODES}. */
export type DeliveryErrorCode = (typeof DELIVERY_ERROR_CODES)[number];

/** What one delivery attempt came to. */
export interface SendOutcome {
  /** True only for a 2xx answer received in full (or up to the read limit) in time. */
  ok: boolean;
  /** The endpoint's HTTP status, when its response headers arrived; null otherwise. */
  status: number | null;
  /** Wall time of the whole attempt (checks, DNS, connect, response), in whole milliseconds. */
  ms: number;
  /** Null when ok. */
  error: DeliveryErrorCode | null;
}

/** One signed delivery request. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** How to send it. */
export interface SendOptions {
  policy: EndpointPolicy;
  /** The budget for the whole exchange, DNS to the last byte read; default {@link WEBHOOK_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Injected by tests; the system resolver otherwise. */
  lookup?: AddressLookup;
}

/** An endpoint must answer within this many milliseconds ("a 2xx within 10 seconds"). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** How much of a response body is read before the connection is dropped; the body is discarded anyway. */
export const RESPONSE_READ_LIMIT_BYTES = 64 * 1024;

/**
 * Error codes that mean the TLS handshake or the certificate failed. Most TLS failures are also
 * caught by their timing (after TCP connect, before the handshake completed); these cover the rest.
 */
const TLS_ERROR_CODES = new Set([
  'EPROTO',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
]);

/**
 * POSTs one webhook delivery and reports what happened; never throws for network problems and
 * never logs the request or the response.
 *
 * - The URL is checked again ({@link checkEndpointUrl}) and its host resolved with every address
 *   checked ({@link resolveEndpointAddresses}); the connection then goes to those very addresses
 *   (a pinned `lookup`), so a DNS answer that changes between check and connect cannot redirect
 *   it (DNS rebinding). Refused: `address_not_allowed`; no answer: `dns_failure`.
 * - TLS certificates are verified against the host name.
 * - Redirects are not followed: a 3xx is `non_2xx` with its status, like any other non-2xx.
 * - Everything (DNS, connect, headers, body) must finish within `timeoutMs`, else `timeout`.
 * - At most {@link RESPONSE_READ_LIMIT_BYTES} of the response body are read, then discarded.
 */
export async function postWebhook(request: WebhookRequest, options: SendOptions): Promise<SendOutcome> {
  const started = performance.now();
  const outcome = (status: number | null, error: DeliveryErrorCode | null): SendOutcome => ({
    ok: error === null,
    status,
    ms: Math.round(performance.now() - started),
    error,
  });

  let url: URL;
  try {
    url = checkEndpointUrl(request.url, options.policy);
  } catch {
    return outcome(null, 'address_not_allowed');
  }

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
  try {
    const addresses = await untilAborted(resolveEndpointAddresses(url.hostname, options.policy, options.lookup), deadline.signal);
    if (addresses === undefined) return outcome(null, 'timeout');
    const { status, error } = await exchange(url, addresses, request, deadline.signal);
    return outcome(status, error);
  } catch (error) {
    if (error instanceof EndpointAddressError)
      return outcome(null, error.reason === 'unresolvable' ? 'dns_failure' : 'address_not_allowed');
    return outcome(null, 'connection_error');
  } finally {
    clearTimeout(timer);
  }
}

/** `work`'s result, or undefined if `signal` aborts first (a DNS lookup cannot be cancelled, only abandoned). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A `lookup` for the socket that answers with the addresses already checked, never asking DNS again. */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter(({ family }) => family === options.family) : [];
    const candidates = wanted.length > 0 ? wanted : addresses;
    if (options.all)
      callback(
        null,
        candidates.map(({ address, family }) => ({ address, family })),
      );
    else callback(null, candidates[0].address, candidates[0].family);
  };
}

function statusError(status: number): DeliveryErrorCode | null {
  return status >= 200 && status < 300 ? null : 'non_2xx';
}

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  if (error instanceof AggregateError) for (const inner of error.errors) codes.push(...errorCodes(inner));
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string') codes.push(code);
  return codes;
}

function networkError(error: unknown, duringTlsHandshake: boolean): DeliveryErrorCode {
  const codes = errorCodes(error);
  if (duringTlsHandshake || codes.some((code) => TLS_ERROR_CODES.has(code) || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_')))
    return 'tls_error';
  if (codes.length > 0 && codes.every((code) => code === 'ECONNREFUSED')) return 'connection_refused';
  if (codes.includes('ETIMEDOUT')) return 'timeout';
  return 'connection_error';
}

/** The HTTP exchange itself, to the pinned addresses; resolves (never rejects) once settled. */
function exchange(
  url: URL,
  addresses: readonly ResolvedAddress[],
  request: WebhookRequest,
  deadline: AbortSignal,
): Promise<{ status: number | null; error: DeliveryErrorCode | null }> {
  return new Promise((resolve) => {
    const secure = url.protocol === 'https:';
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    let status: number | null = null;
    let duringTlsHandshake = false;
    let settled = false;

    const outgoing = (secure ? https : http).request({
      method: 'POST',
      protocol: url.protocol,
      hostname: host,
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
      lookup: pinnedLookup(addresses),
      // A fresh connection per attempt: no socket from another endpoint or resolution is reused.
      agent: false,
      // SNI and certificate checks use the host name; SNI must not carry an IP literal (RFC 6066).
      ...(secure && isIP(host) === 0 ? { servername: host } : {}),
      rejectUnauthorized: true,
    });

    const settle = (error: DeliveryErrorCode | null) => {
      if (settled) return;
      settled = true;
      deadline.removeEventListener('abort', onDeadline);
      outgoing.destroy();
      resolve({ status, error });
    };
    const onDeadline = () => settle('timeout');
    deadline.addEventListener('abort', onDeadline, { once: true });

    outgoing.on('socket', (socket) => {
      if (!secure) return;
      socket.once('connect', () => (duringTlsHandshake = true));
      socket.once('secureConnect', () => (duringTlsHandshake = false));
    });
    outgoing.on('response', (response) => {
      status = response.statusCode ?? null;
      const answer = status === null ? 'connection_error' : statusError(status);
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= RESPONSE_READ_LIMIT_BYTES) settle(answer);
      });
      response.on('end', () => settle(answer));
      // The connection broke before the body ended: the receiver may not have finished handling it either.
      response.on('error', () => settle('connection_error'));
      response.on('aborted', () => settle('connection_error'));
    });
    outgoing.on('error', (error) => settle(networkError(error, duringTlsHandshake)));
    if (deadline.aborted) settle('timeout');
    else outgoing.end(request.body);
  });
}
