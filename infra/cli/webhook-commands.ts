import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import * as v from 'valibot';
import { roleAtLeast } from '../../shared/core/access';
import { parseInput } from '../../shared/schemas/validation';
import { Id } from '../../shared/schemas/common';
import { WEBHOOK_EVENT_FILTERS, type CreatedWebhook } from '../../shared/schemas/webhooks';
import { membershipFromItem, type Membership } from '../../shared/storage/membership-items';
import { getMembership } from '../../shared/storage/memberships';
import { keys } from '../../shared/storage/keys';
import { queryAll } from '../../shared/storage/query-all';
import type { TableContext } from '../../shared/storage/dynamo';
import { loadIdentityProvider } from '../local/identity-provider';
import type { LocalRuntime } from '../local/runtime-file';
import { CliError } from './cli-error';
import type { CommandSpec } from './command-line';
import type { CliTarget } from './target';

/** What the endpoint `webhooks listen` registers is called, so a left-over one is recognisable in GET …/webhooks. */
export const LISTEN_DESCRIPTION = 'cli webhooks listen';
/** How long the clean-up on Ctrl-C waits for the API before giving up (and saying which endpoint is left). */
const CLEAN_UP_TIMEOUT_MS = 10_000;

const ListenFlags = v.object({
  org: Id,
  user: v.optional(Id),
  port: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,5}$/, 'must be a port number'),
      v.transform(Number),
      v.minValue(1, 'must be from 1 to 65535'),
      v.maxValue(65_535, 'must be from 1 to 65535'),
    ),
  ),
  events: v.optional(
    v.pipe(
      v.string(),
      v.transform((list) =>
        list
          .split(',')
          .map((type) => type.trim())
          .filter(Boolean),
      ),
      v.array(v.picklist(WEBHOOK_EVENT_FILTERS, 'must be an event type of docs/events.md, or *')),
      v.minLength(1, 'must name at least one event type, or *'),
    ),
    '*',
  ),
  format: v.optional(v.picklist(['text', 'json'], 'must be text or json'), 'text'),
});
type ListenFlags = v.InferOutput<typeof ListenFlags>;

/** The envelope a delivery carries (docs/events.md), as far as the printout reads it. */
interface DeliveredEvent {
  id: string;
  type: string;
  resource?: { type: string; id: string };
  data?: unknown;
}

/** The local webhook CLI commands. */
export const WEBHOOK_COMMANDS: Record<string, CommandSpec<CliTarget>> = {
  'webhooks listen': {
    summary: "local only: receive an organization's webhook deliveries on loopback and print them (like stripe listen)",
    notes: [
      `Starts a receiver on 127.0.0.1, registers it as an endpoint of the organization (description "${LISTEN_DESCRIPTION}")`,
      'through the local API, acting as one of its owners or admins with an ID token of the local identity provider,',
      'and prints each delivery whose signature the standardwebhooks package verifies (others are answered 400).',
      'Ctrl-C deletes the endpoint and exits. Status lines go to stderr, events to stdout.',
    ].join('\n'),
    flags: {
      org: { placeholder: 'O', required: true, description: 'the organization whose events to receive' },
      port: { placeholder: 'P', description: 'the port to listen on (default: a free one)' },
      events: { placeholder: 'a,b', description: 'comma-separated event types to subscribe to (default: *, every type)' },
      user: { placeholder: 'U', description: "the owner or admin to act as (default: the organization's first active owner, else admin)" },
      format: {
        placeholder: 'text|json',
        description: 'text: one line per event and its data indented; json: each envelope as one JSON line (default: text)',
      },
    },
    run: async (rawFlags, target) => {
      if (!target.local)
        throw new CliError(
          'LOCAL_ONLY',
          'webhooks listen registers a loopback endpoint, which only the local deployment accepts; in AWS, register a public HTTPS endpoint through the API.',
        );
      const flags = parseInput(ListenFlags, rawFlags);
      await listen(flags, target.db, target.local);
      return undefined;
    },
  },
};

/** Registers the receiver, prints deliveries until SIGINT or SIGTERM, then deletes the endpoint. */
async function listen(flags: ListenFlags, db: TableContext, local: LocalRuntime & { dataDir: string }): Promise<void> {
  const admin = await actingAdmin(db, flags.org, flags.user);
  const idp = await loadIdentityProvider(local.dataDir, local.issuer, local.audience);
  // A new token for each call: the command may run for longer than a token lives.
  const api = async (method: string, path: string, body?: unknown) => {
    const token = await idp.issueIdToken({ sub: `local|${admin.user_id}`, email: admin.email, name: admin.display_name });
    const response = await fetch(`${local.apiUrl}/api/v1/organization/${flags.org}/webhooks${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(CLEAN_UP_TIMEOUT_MS),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };

  let verifier: Webhook | undefined;
  const server = createServer((request, response) => void receive(request, response, verifier, flags.format));
  const port = await listenOn(server, flags.port ?? 0);
  const url = `http://127.0.0.1:${port}/webhooks`;
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  // Kept until the end: a second Ctrl-C during the clean-up must not kill the process before the endpoint is deleted.
  const onSignal = () => stop();
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);

  try {
    const created = await api('POST', '', { url, events: flags.events, description: LISTEN_DESCRIPTION });
    if (created.status !== 201) throw apiRefusal('Registering the endpoint', created);
    const endpoint = created.body as unknown as v.InferOutput<typeof CreatedWebhook>;
    verifier = new Webhook(endpoint.secret);
    status(
      `Ready: forwarding ${flags.events.join(', ')} to ${url} (endpoint ${endpoint.id}, acting as ${admin.role} ${admin.user_id}). Ctrl-C to stop.`,
    );

    await stopped;
    const deleted = await api('DELETE', `/${endpoint.id}`).catch((error: Error) => ({ status: 0, body: { message: error.message } }));
    // 404: someone deleted it already, which is what we wanted.
    if (deleted.status !== 200 && deleted.status !== 404)
      throw apiRefusal(`Deleting endpoint ${endpoint.id} (delete it yourself: DELETE …/webhooks/${endpoint.id})`, deleted);
    status(`Stopped: endpoint ${endpoint.id} deleted.`);
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    await new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  }
}

/**
 * The owner or admin the command acts as: `userId` when given (refused unless an active owner
 * or admin), else the first active owner in email order, else the first active admin.
 */
async function actingAdmin(db: TableContext, orgId: string, userId: string | undefined): Promise<Membership> {
  const isActiveAdmin = (membership: Membership | undefined): membership is Membership =>
    membership?.status === 'active' && roleAtLeast(membership.role, 'admin');
  if (userId) {
    const membership = await getMembership(db, orgId, userId);
    if (!isActiveAdmin(membership)) throw new CliError('NOT_AN_ADMIN', `${userId} is not an active owner or admin of ${orgId}.`);
    return membership;
  }
  const items = await queryAll(db, {
    TableName: db.tableName,
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    FilterExpression: '#role IN (:owner, :admin)',
    ExpressionAttributeNames: { '#role': 'role' },
    ExpressionAttributeValues: { ':pk': keys.activeMembersIndex(orgId).GSI1PK, ':owner': 'owner', ':admin': 'admin' },
  });
  const admins = items.map(membershipFromItem).filter(isActiveAdmin);
  const chosen = admins.find((membership) => membership.role === 'owner') ?? admins[0];
  if (!chosen)
    throw new CliError(
      'NO_ADMIN',
      `${orgId} has no active owner or admin to act as (or does not exist): add one with \`member add --role owner\`.`,
    );
  return chosen;
}

/** Listens on 127.0.0.1 (port 0: any free one) and returns the port. */
function listenOn(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new CliError('PORT_IN_USE', `Port ${port} on 127.0.0.1 is taken: choose another with --port, or leave it out for a free one.`)
          : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/** One delivery: 200 and printed when its signature verifies, 400 and the reason on stderr otherwise. */
async function receive(
  request: IncomingMessage,
  response: ServerResponse,
  verifier: Webhook | undefined,
  format: ListenFlags['format'],
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  const arrivedAt = new Date().toISOString();
  let event: DeliveredEvent;
  try {
    // Before the endpoint exists nothing can be signed for it: refuse, as a wrong signature.
    if (!verifier) throw new WebhookVerificationError('The endpoint is not registered yet');
    event = verifier.verify(body, headersOf(request)) as DeliveredEvent;
  } catch (error) {
    const why = error instanceof WebhookVerificationError ? error.message : `Unreadable delivery: ${(error as Error).message}`;
    // Printed before answering, so that whoever sent it can read why once the answer came.
    status(
      `${arrivedAt}  rejected ${request.method} ${request.url} (webhook-id ${String(request.headers['webhook-id'] ?? 'none')}): ${why}`,
    );
    response.writeHead(400, { 'content-type': 'text/plain' }).end(`${why}\n`);
    return;
  }
  process.stdout.write(format === 'json' ? `${JSON.stringify(event)}\n` : describeEvent(arrivedAt, event));
  response.writeHead(200).end();
}

/** `<time>  <type>  <event id>  <resource type> <resource id>`, then the event's data as indented JSON. */
function describeEvent(arrivedAt: string, event: DeliveredEvent): string {
  const resource = event.resource ? `${event.resource.type} ${event.resource.id}` : '-';
  const data = JSON.stringify(event.data ?? {}, null, 2)
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
  return `${arrivedAt}  ${event.type}  ${event.id}  ${resource}\n${data}\n`;
}

/** The request's headers as the verifier takes them (a repeated header joined, as HTTP reads it). */
function headersOf(request: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
  );
}

/** What the API refused, as a CliError with its code. */
function apiRefusal(what: string, answer: { status: number; body: Record<string, unknown> }): CliError {
  const code = typeof answer.body.error === 'string' ? answer.body.error : 'API_ERROR';
  return new CliError(
    code,
    `${what} failed (${answer.status || 'no answer'}): ${typeof answer.body.message === 'string' ? answer.body.message : JSON.stringify(answer.body)}`,
  );
}

/** Status lines go to stderr, so that stdout carries the events only (`--format json | jq`). */
const status = (line: string) => process.stderr.write(`${line}\n`);
