import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { IdempotencyAlreadyInProgressError, IdempotencyConfig, IdempotencyValidationError } from '@aws-lambda-powertools/idempotency';
import { makeHandlerIdempotent } from '@aws-lambda-powertools/idempotency/middleware';
import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import type { Principal } from '../../auth/principal';
import { IDEMPOTENCY_TABLE } from '../../storage/idempotency-table-definition';
import { ConflictError, UnprocessableContentError, ValidationError } from '../../core/errors';
import { headerValue } from '../gateway';
import type { HttpMiddleware } from '../http-context';

/** The request and response headers of Idempotency-Key (draft-ietf-httpapi-idempotency-key-header; Stripe's names). */
export const IDEMPOTENCY_HEADERS = {
  key: 'idempotency-key',
  replayed: 'idempotent-replayed',
} as const;

/** The longest key accepted (Stripe's limit). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Seconds a client is told to wait (Retry-After) when the first request with its key is still running. */
export const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;

const PRINTABLE_ASCII = new RegExp(`^[\\x20-\\x7E]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`);
/** The draft's form of the header: a Structured Field string, `"…"` with `\"` and `\\` escapes. */
const SF_STRING = /^"((?:[^"\\]|\\["\\])*)"$/;

/**
 * The request's Idempotency-Key, undefined when the header is absent. Both the draft's quoted
 * form (`"abc"`) and the bare form Stripe uses (`abc`) name the same key. Anything else than
 * 1–255 printable ASCII characters is a 400 INVALID_IDEMPOTENCY_KEY.
 */
export function idempotencyKeyOf(headers: Record<string, string | undefined> | null | undefined): string | undefined {
  const raw = headerValue(headers, IDEMPOTENCY_HEADERS.key);
  if (raw === undefined) return undefined;
  const quoted = SF_STRING.exec(raw);
  const key = quoted ? quoted[1].replace(/\\(["\\])/g, '$1') : raw;
  if (!PRINTABLE_ASCII.test(key)) {
    throw ValidationError.field(
      'Idempotency-Key',
      'format',
      `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters, such as a UUID`,
      'INVALID_IDEMPOTENCY_KEY',
    );
  }
  return key;
}

/** Whose key it is: keys of different credentials never meet. An API key keeps its id across rotations. */
export function credentialOf(principal: Principal): string {
  return principal.kind === 'id_token' ? `id_token ${principal.issuer} ${principal.subject}` : `${principal.kind} ${principal.keyId}`;
}

/**
 * The key that seals a stored response body: derived from the credential and the client's
 * Idempotency-Key, neither of which the table holds (the record id is another hash of them).
 * Responses of key and webhook creation carry secrets shown once; sealed, the table never holds
 * them readable, and only a request with the same key by the same credential opens them.
 */
function sealingKey(credential: string, key: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, credential, 'voice-org idempotency response body', 32));
}

/** A stored body: AES-256-GCM, `v1.<iv>.<tag>.<ciphertext>` in base64url. */
function seal(body: string, sealKey: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey, iv);
  const ciphertext = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

function unseal(sealed: string, sealKey: Buffer): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('idempotency: a stored body that is not sealed');
  const decipher = createDecipheriv('aes-256-gcm', sealKey, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

type PowertoolsMiddleware = ReturnType<typeof makeHandlerIdempotent>;
/** The middy request Powertools' middleware works on: ours carries the proxy event, this one the idempotency input. */
type IdempotencyRequest = Parameters<NonNullable<PowertoolsMiddleware['before']>>[0] & { response: unknown };

/**
 * Idempotency-Key on an authenticated POST route (docs/idempotency.md), with Powertools'
 * idempotency middleware and its persistence layer. Used after routePolicy, so only an
 * authorized caller reserves a key, and before errorResponse, whose envelope it stores.
 *
 * A record is keyed by the route and a hash of (credential, key), and holds a hash of the
 * request (resource, path ids, query, JSON body) and its response: status, body (sealed with
 * a key derived from the credential and the Idempotency-Key, see sealingKey) and the route's
 * own headers (content type…); CORS and x-correlation-id are those of each request.
 * - no header: nothing happens, the route runs as it always did;
 * - a new key: the route runs; its response is stored for 24 hours, a 4xx included; a 5xx
 *   removes the record, so the client may retry (a function that dies mid-request leaves it
 *   in progress until its deadline, Powertools' in_progress_expiration);
 * - a stored key: the route does not run; the stored response is answered with
 *   `Idempotent-Replayed: true` (the handler returns `context.idempotentReplay`);
 * - the same key with another request: 422 IDEMPOTENCY_KEY_REUSED; while the first request
 *   still runs: 409 IDEMPOTENCY_KEY_IN_PROGRESS with Retry-After.
 *
 * `persistenceStore` is called on the first keyed request only (the table name is config).
 */
export function idempotency(routeName: string, persistenceStore: () => BasePersistenceLayer): HttpMiddleware {
  const config = new IdempotencyConfig({
    eventKeyJmesPath: 'key',
    payloadValidationJmesPath: 'request',
    throwOnNoIdempotencyKey: true,
    expiresAfterSeconds: IDEMPOTENCY_TABLE.recordTtlSeconds,
    // The record's id is a hash of the credential and the key: neither is readable in the table.
    hashFunction: 'sha256',
  });
  let powertools: PowertoolsMiddleware | undefined;
  // The requests that reserved a key and must settle it, by middy request.
  const reserved = new WeakMap<object, { idempotencyRequest: IdempotencyRequest; sealKey: Buffer }>();

  const settle = async (request: object, response: APIGatewayProxyResult | null | undefined) => {
    const reservation = reserved.get(request);
    if (!reservation || !powertools) return;
    reserved.delete(request);
    const { idempotencyRequest, sealKey } = reservation;
    if (response && response.statusCode < 500) {
      idempotencyRequest.response = storedResponse(response, sealKey);
      await powertools.after?.(idempotencyRequest);
    } else {
      await powertools.onError?.(idempotencyRequest);
    }
  };

  return {
    before: async (request) => {
      const { event, context } = request;
      const key = idempotencyKeyOf(event.headers);
      if (key === undefined) return;
      if (!context.principal) throw new Error('idempotency() runs after authorizationContext()');
      powertools ??= makeHandlerIdempotent({ persistenceStore: persistenceStore(), config, keyPrefix: routeName });
      const credential = credentialOf(context.principal);
      const idempotencyRequest: IdempotencyRequest = {
        event: {
          key: { credential, key },
          request: {
            resource: event.resource,
            path: event.pathParameters ?? {},
            query: event.queryStringParameters ?? {},
            body: context.jsonBody ?? null,
          },
        },
        context,
        response: undefined,
        error: undefined,
        // Powertools keeps its state here; apart from middy's own, so its early-return cleanup touches no other middleware.
        internal: {},
      };
      let stored: unknown;
      try {
        stored = await powertools.before?.(idempotencyRequest);
      } catch (error) {
        throw refusalOf(error);
      }
      const sealKey = sealingKey(credential, key);
      if (stored === undefined) reserved.set(request, { idempotencyRequest, sealKey });
      else context.idempotentReplay = replayOf(stored as APIGatewayProxyResult, sealKey);
    },
    after: async (request) => {
      if (request.context.idempotentReplay) {
        if (request.response) request.response.headers = { ...request.response.headers, [IDEMPOTENCY_HEADERS.replayed]: 'true' };
        return;
      }
      await settle(request, request.response);
    },
    onError: async (request) => {
      // errorResponse ran first: request.response is the envelope of the error.
      await settle(request, request.response);
    },
  };
}

/** 409 while the first request with the key still runs, with the Retry-After the error mapping adds. */
class IdempotencyKeyInProgressError extends ConflictError {
  constructor() {
    super('IDEMPOTENCY_KEY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed; retry shortly.');
  }

  override get headers(): Record<string, string> {
    return { 'retry-after': String(IN_PROGRESS_RETRY_AFTER_SECONDS) };
  }
}

function refusalOf(error: unknown): unknown {
  if (error instanceof IdempotencyValidationError) {
    return new UnprocessableContentError(
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was already used with a different request; use a new key for a new request.',
    );
  }
  if (error instanceof IdempotencyAlreadyInProgressError) return new IdempotencyKeyInProgressError();
  return error;
}

/** What is kept of a response: its status, sealed body and the route's own headers (string values; DynamoDB stores no undefined). */
function storedResponse(response: APIGatewayProxyResult, sealKey: Buffer): APIGatewayProxyResult {
  const headers = Object.fromEntries(
    Object.entries(response.headers ?? {}).flatMap(([name, value]) => (value === undefined ? [] : [[name.toLowerCase(), String(value)]])),
  );
  return {
    statusCode: response.statusCode,
    headers,
    body: seal(response.body, sealKey),
    ...(response.isBase64Encoded ? { isBase64Encoded: true } : {}),
  };
}

/** The stored response as it is answered again: its body opened. */
function replayOf(stored: APIGatewayProxyResult, sealKey: Buffer): APIGatewayProxyResult {
  return { ...stored, body: unseal(stored.body, sealKey) };
}
