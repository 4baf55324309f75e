import { Webhook as StandardWebhook } from 'standardwebhooks';
import type { DomainEvent } from '../../shared/schemas/event-catalog';
import type { CreatedWebhook, Webhook as WebhookBody, WebhookDelivery as DeliveryBody } from '../../shared/schemas/webhooks';
import type * as v from 'valibot';
import { call, expectFailure, localDeployment, unique, type ApiResponse } from './api';
import { eventually } from './eventually';
import { buildOrg, seedOrg } from './org-builder';
import { startReceiver, webhookHeadersOf, type ReceivedDelivery, type Receiver, type Responder } from './webhook-receiver';

/**
 * What the suites of the webhook routes and deliveries (test/integration/webhooks/) share: the
 * organizations they build, the receivers on loopback (every one closed, and every endpoint made
 * deleted, by cleanUpWebhooks after each file, so that no retry outlives it), the webhook routes
 * of an organization, and the reads of deliveries and signatures (`standardwebhooks` verifies
 * every signature: an implementation that is not ours).
 */
export const { runtime } = localDeployment();

export type CreatedWebhookBody = v.InferOutput<typeof CreatedWebhook>;
export type DeliveryList = { deliveries: DeliveryBody[]; pagination: { limit: number; next_cursor: string | null } };
/** The envelope of a 400, with what the tests read of it. */
export type Refusal = { error: string; details?: { field: string; issue: string }[] };

export const WEBHOOK_ID = /^wh_[0-9a-f]{20}$/;
export const DELIVERY_ID = /^dlv_[0-9a-f]{32}$/;
export const EVENT_ID = /^evt_[0-9a-f]{32}$/;
export const DAY_MS = 24 * 3600 * 1000;

// ---------------------------------------------------------------------------------------
// Organizations, receivers and the API

export function hooksOrg(label: string) {
  return seedOrg(
    buildOrg({
      label,
      keys: {
        hooks: { scopes: ['webhooks:read', 'webhooks:write', 'templates:write'] },
        reader: { scopes: ['webhooks:read'] },
        audit: { scopes: ['audit:read'] },
      },
    }),
  );
}
export type HooksOrg = Awaited<ReturnType<typeof hooksOrg>>;

const receivers: Receiver[] = [];
/** Endpoints the tests created, deleted after the file so that no retry outlives it. */
const endpoints = new Map<string, { orgId: string; token: string }>();

export async function receiver(respond?: Responder): Promise<Receiver> {
  const started = await startReceiver(respond);
  receivers.push(started);
  return started;
}

/** Deletes the endpoints the file's tests created and closes their receivers: each suite runs it after all its tests. */
export async function cleanUpWebhooks(): Promise<void> {
  await Promise.all(
    [...endpoints].map(([id, { orgId, token }]) =>
      call(runtime.apiUrl, 'DELETE', `/api/v1/organization/${orgId}/webhooks/${id}`, { token }),
    ),
  );
  await Promise.all(receivers.map((r) => r.close()));
}

/** The webhook routes of one organization's path, with one credential (the org key with both webhook scopes unless told). */
export function hooksApi(o: HooksOrg, token: string = o.keys.hooks, orgId: string = o.org) {
  const base = `/api/v1/organization/${orgId}/webhooks`;
  const send = <T = any>(method: string, path: string, body?: unknown, correlationId?: string): Promise<ApiResponse<T>> =>
    call<T>(runtime.apiUrl, method, `${base}${path}`, { token, body, headers: correlationId ? { 'x-correlation-id': correlationId } : {} });
  return {
    create: async (body: unknown, correlationId?: string) => {
      const res = await send<CreatedWebhookBody>('POST', '', body, correlationId);
      if (res.status === 201) endpoints.set(res.body.id, { orgId, token });
      return res;
    },
    list: () => send<{ webhooks: WebhookBody[] }>('GET', ''),
    get: (id: string) => send<WebhookBody>('GET', `/${id}`),
    update: (id: string, body: unknown, correlationId?: string) => send<WebhookBody>('PATCH', `/${id}`, body, correlationId),
    remove: (id: string, correlationId?: string) => send('DELETE', `/${id}`, undefined, correlationId),
    rotate: (id: string, correlationId?: string) =>
      send<CreatedWebhookBody & { previous_secret_expires_at: string }>('POST', `/${id}/rotate-secret`, undefined, correlationId),
    test: (id: string) => send<DeliveryBody>('POST', `/${id}/test`),
    deliveries: (id: string, query = '') => send<DeliveryList>('GET', `/${id}/deliveries${query}`),
    retry: (id: string, deliveryId: string) => send<DeliveryBody>('POST', `/${id}/deliveries/${deliveryId}/retry`),
  };
}
export type HooksApi = ReturnType<typeof hooksApi>;

/** Creates an endpoint that must be accepted. */
export async function endpoint(hooks: HooksApi, body: Record<string, unknown>): Promise<CreatedWebhookBody> {
  const res = await hooks.create(body);
  expect(res.status).toBe(201);
  return res.body;
}

/** A template change of the organization: an event the endpoints may subscribe to. */
export async function createTemplate(o: HooksOrg, correlationId?: string): Promise<string> {
  const res = await call(runtime.apiUrl, 'POST', `/api/v1/organization/${o.org}/templates`, {
    token: o.keys.hooks,
    body: { name: `Standup ${unique()}`, sections: [{ title: 'Done', prompt: 'What got done?' }] },
    headers: correlationId ? { 'x-correlation-id': correlationId } : {},
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

export async function changeTemplate(o: HooksOrg, method: 'PATCH' | 'DELETE', templateId: string): Promise<void> {
  const res = await call(runtime.apiUrl, method, `/api/v1/organization/${o.org}/templates/${templateId}`, {
    token: o.keys.hooks,
    body: method === 'PATCH' ? { description: 'Every morning' } : undefined,
  });
  expect(res.status).toBe(200);
}

/** One delivery of an endpoint, once `done` holds for it (or the time is up: then as it last was). */
export async function deliveryWhen(
  hooks: HooksApi,
  webhookId: string,
  deliveryId: string,
  done: (delivery: DeliveryBody) => boolean,
  wait: { alsoWaitingMs?: number } = {},
): Promise<DeliveryBody | undefined> {
  const find = (res: ApiResponse<DeliveryList>) => res.body.deliveries?.find((delivery) => delivery.id === deliveryId);
  const res = await eventually(
    () => hooks.deliveries(webhookId, '?limit=100'),
    (r) => r.status === 200 && !!find(r) && done(find(r)!),
    wait,
  );
  return find(res);
}

/** Every delivery of an endpoint, once `done` holds for the list. */
export async function deliveriesWhen(
  hooks: HooksApi,
  webhookId: string,
  done: (deliveries: DeliveryBody[]) => boolean,
): Promise<DeliveryBody[]> {
  const res = await eventually(
    () => hooks.deliveries(webhookId, '?limit=100'),
    (r) => r.status === 200 && done(r.body.deliveries),
  );
  return res.body.deliveries;
}

/** The payload of a received delivery, verified with `secret` by standardwebhooks (which throws when the signature does not match). */
export function verified(secret: string, delivery: ReceivedDelivery): DomainEvent {
  return new StandardWebhook(secret).verify(delivery.body, webhookHeadersOf(delivery)) as DomainEvent;
}

export const payloadOf = (delivery: ReceivedDelivery) => JSON.parse(delivery.body) as DomainEvent;
export const webhookIdOf = (delivery: ReceivedDelivery) => webhookHeadersOf(delivery)['webhook-id'];
/** The signatures of a delivery's webhook-signature header (space-separated, one per secret). */
export const signaturesOf = (delivery: ReceivedDelivery) => webhookHeadersOf(delivery)['webhook-signature'].split(' ');

/** No secret in an answer: not the secret itself, nor any field that could carry one. */
export function expectNoSecret(body: unknown, ...secrets: string[]): void {
  const text = JSON.stringify(body);
  for (const secret of secrets) expect(text).not.toContain(secret.slice('whsec_'.length));
  expect(text).not.toContain('whsec_');
  expect(text).not.toMatch(/"(secret|secrets|ciphertext|previous_secret_expires_at)"/);
}

/** A 400 whose details name `field`. */
export function expectRefused(
  res: ApiResponse<unknown>,
  code: 'VALIDATION_ERROR' | 'WEBHOOK_URL_NOT_ALLOWED' | 'INVALID_JSON',
  field?: string,
): void {
  expectFailure(res, 400, code);
  if (field) expect((res.body as Refusal).details).toContainEqual(expect.objectContaining({ field }));
}

// Addresses a delivery must never reach, and URLs that are not https. The deployment allows
// loopback (127.0.0.0/8, ::1, localhost) for developers, so [::1] is not among them here.
export const NOT_ALLOWED_URLS = [
  'ftp://example.com/hooks',
  'http://example.com/hooks',
  'https://user:password@example.com/hooks',
  'https://token@example.com/hooks',
  'https://10.0.0.1/hooks',
  'https://172.16.5.4/hooks',
  'https://192.168.1.10/hooks',
  'https://169.254.169.254/latest/meta-data',
  'https://100.64.0.1/hooks',
  'https://0.0.0.0/hooks',
  'https://[fc00::1]/hooks',
  'https://[fe80::1]/hooks',
  'https://[::ffff:10.0.0.1]/hooks',
  'https://[::ffff:a9fe:a9fe]/hooks',
  'https://metadata.google.internal/computeMetadata',
  'https://printer.local/hooks',
  'https://intranet/hooks',
  'https://example.com/hooks#fragment',
];

/**
 * An organization with one endpoint (the baseline) where only requests that must be refused
 * are sent: `expectUnchanged` checks that nothing was written (it still has just the baseline
 * endpoint, as it was).
 */
export async function badInputOrg() {
  const o = await hooksOrg('whbad');
  const hooks = hooksApi(o);
  const url = (await receiver()).url;
  const { secret: _, ...baseline } = await endpoint(hooks, { url, events: ['template.created'], description: 'Baseline' });
  const expectUnchanged = async (): Promise<void> => {
    expect((await hooks.list()).body.webhooks).toEqual([baseline]);
  };
  return { o, hooks, url, baseline: baseline as WebhookBody, expectUnchanged };
}

/**
 * Two organizations, A and B, each with an endpoint (every type) at a receiver of its own, and a
 * test delivery of B's: another organization's ids must be out of reach on every route.
 */
export async function isolationWorld() {
  const [a, b] = await Promise.all([hooksOrg('whisoa'), hooksOrg('whisob')]);
  const [atA, atB] = await Promise.all([receiver(), receiver()]);
  const hookA = await endpoint(hooksApi(a), { url: atA.url, events: ['*'] });
  const hookB = await endpoint(hooksApi(b), { url: atB.url, events: ['*'] });
  const deliveryB = (await hooksApi(b).test(hookB.id)).body;
  return { a, b, atA, atB, hookA, hookB, deliveryB };
}
export type IsolationWorld = Awaited<ReturnType<typeof isolationWorld>>;

/** After a refused attempt of A's on B's endpoint: B's endpoint is still there, as it was (a rotation would have moved updated_at). */
export async function expectUntouchedByA({ b, hookB }: IsolationWorld): Promise<void> {
  const { secret: _, ...view } = hookB;
  expect((await hooksApi(b).get(hookB.id)).body).toEqual(view);
}
