import { spawn, type ChildProcess } from 'node:child_process';
import { call, localDeployment, once } from '../support/api';
import { eventually } from '../support/eventually';
import { CLI_BIN } from '../support/cli';
import { repoRoot } from '../support/local-deployment';
import { WEBHOOK_TIMEOUT_MS } from '../../shared/webhooks/http-sender';
import { buildOrg, seedOrg } from '../support/org-builder';

/**
 * `cli webhooks listen` as a developer runs it against the local deployment: a process that
 * registers a loopback endpoint, prints the verified deliveries, and deletes the endpoint on
 * Ctrl-C (SIGINT) or SIGTERM.
 */
const { dataDir, runtime } = localDeployment();
const org = once(() => seedOrg(buildOrg({ label: 'whlisten', keys: { hooks: { scopes: ['webhooks:read', 'templates:write'] } } })));

interface Listener {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `webhooks listen` as `npx voice-org` does (its bin, in one process: a signal reaches the CLI itself), and waits for its Ready line. */
async function startListener(...args: string[]): Promise<Listener & { endpointId: string; url: string }> {
  const child = spawn(process.execPath, [CLI_BIN, 'webhooks', 'listen', ...args], {
    cwd: repoRoot,
    env: { ...process.env, LOCAL_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = await eventually(
    async () => /^Ready: .* to (\S+) \(endpoint (wh_\w+)/m.exec(stderr),
    (match) => match !== null || child.exitCode !== null,
  );
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`webhooks listen did not get ready:\n${stderr}`);
  }
  return { child, stdout: () => stdout, stderr: () => stderr, exited, url: ready[1], endpointId: ready[2] };
}

const createTemplate = async (key: string, name: string) => {
  const created = await call(runtime.apiUrl, 'POST', `/api/v1/organization/${(await org()).org}/templates`, {
    token: key,
    body: { name, sections: [{ title: 't', prompt: 'p' }] },
  });
  expect(created.status).toBe(201);
  return created.body.id as string;
};
const listWebhooks = async () => {
  const o = await org();
  return (await call(runtime.apiUrl, 'GET', `/api/v1/organization/${o.org}/webhooks`, { token: o.keys.hooks })).body.webhooks as {
    id: string;
    url: string;
    events: string[];
    description: string;
  }[];
};

describe('cli webhooks listen', () => {
  it('registers a loopback endpoint, prints each verified event with its type and id, refuses a forged one, and deletes the endpoint on Ctrl-C', async () => {
    const o = await org();
    const listener = await startListener('--org', o.org);
    try {
      expect(await listWebhooks()).toContainEqual(
        expect.objectContaining({ id: listener.endpointId, url: listener.url, events: ['*'], description: 'cli webhooks listen' }),
      );

      const templateId = await createTemplate(o.keys.hooks, 'Listened');
      const line = new RegExp(
        `^\\S+Z  template\\.created  (evt_[0-9a-f]{32})  template ${templateId}\\n    \\{\\n      "name": "Listened"`,
        'm',
      );
      const printed = await eventually(
        async () => line.exec(listener.stdout()),
        (match) => match !== null,
        { alsoWaitingMs: WEBHOOK_TIMEOUT_MS },
      );
      expect(printed).not.toBeNull();
      // The id printed is the event's: the one the delivery record names. The listener prints before
      // it answers, and the dispatcher records the success after the answer: the record may trail the line.
      type Delivery = { event_id: string; status: string };
      const listDeliveries = async () =>
        (
          await call(runtime.apiUrl, 'GET', `/api/v1/organization/${o.org}/webhooks/${listener.endpointId}/deliveries`, {
            token: o.keys.hooks,
          })
        ).body.deliveries as Delivery[];
      const deliveries = await eventually(listDeliveries, (list) =>
        list.some((d) => d.event_id === printed![1] && d.status === 'succeeded'),
      );
      expect(deliveries).toContainEqual(
        expect.objectContaining({ event_type: 'template.created', event_id: printed![1], status: 'succeeded' }),
      );

      // A delivery not signed with the endpoint's secret is answered 400 and not printed as an event.
      const forged = await fetch(listener.url, {
        method: 'POST',
        headers: { 'webhook-id': 'msg_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
        body: JSON.stringify({ id: 'evt_forged', type: 'template.deleted' }),
      });
      expect(forged.status).toBe(400);
      const rejection = /rejected POST \/webhooks \(webhook-id msg_forged\): No matching signature found/;
      expect(
        await eventually(
          async () => listener.stderr(),
          (text) => rejection.test(text),
        ),
      ).toMatch(rejection);
      expect(listener.stdout()).not.toContain('evt_forged');
    } finally {
      listener.child.kill('SIGINT');
    }
    expect(await listener.exited).toBe(0);
    expect(listener.stderr()).toContain(`Stopped: endpoint ${listener.endpointId} deleted.`);
    expect((await listWebhooks()).map((webhook) => webhook.id)).not.toContain(listener.endpointId);
  });

  it('subscribes to --events only, prints each envelope as one JSON line with --format json, and cleans up on SIGTERM', async () => {
    const o = await org();
    const listener = await startListener('--org', o.org, '--events', 'template.created', '--format', 'json', '--user', o.people.admin.id);
    try {
      expect(listener.stderr()).toContain(`acting as admin ${o.people.admin.id}`);
      const templateId = await createTemplate(o.keys.hooks, 'As JSON');
      const lines = await eventually(
        async () => listener.stdout().split('\n').filter(Boolean),
        (found) => found.length > 0,
        { alsoWaitingMs: WEBHOOK_TIMEOUT_MS },
      );
      // Its own webhook.created came before the template, but the endpoint is not subscribed to it.
      expect(lines.map((text) => JSON.parse(text))).toEqual([
        expect.objectContaining({
          type: 'template.created',
          org_id: o.org,
          resource: { type: 'template', id: templateId },
          data: { name: 'As JSON' },
          id: expect.stringMatching(/^evt_/),
        }),
      ]);
    } finally {
      listener.child.kill('SIGTERM');
    }
    expect(await listener.exited).toBe(0);
    expect((await listWebhooks()).map((webhook) => webhook.id)).not.toContain(listener.endpointId);
  });
});
