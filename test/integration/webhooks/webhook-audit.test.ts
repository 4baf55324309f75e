import { apiKeyIdFromHash, hashApiKey } from '../../../shared/auth/api-key-secrets';
import type { AuditEntry } from '../../../shared/schemas/audit';
import { call, idTokenFor } from '../../support/api';
import { eventually } from '../../support/eventually';
import { publishedEvents } from '../../support/events';
import { cleanUpWebhooks, expectNoSecret, hooksApi, hooksOrg, receiver, runtime } from '../../support/webhooks';

/**
 * The audit log of webhook endpoints (the audit consumer, through the deployment's event
 * pipeline): every change of an endpoint with who made it and in which request, never a secret
 * or the endpoint's URL. The organizations, receivers and helpers of the webhooks suites:
 * test/support/webhooks.ts (every endpoint a suite made is deleted after it, so that no retry
 * outlives it).
 */

afterAll(cleanUpWebhooks);

describe('audit: changes of endpoints are in the audit log, with who made them, never a secret or URL', () => {
  it('webhook.created, updated, secret_rotated and deleted, each with its actor and request', async () => {
    const o = await hooksOrg('whaudit');
    const at = await receiver();
    const owner = await idTokenFor(o.people.owner);
    const admin = await idTokenFor(o.people.admin);
    const byOwner = hooksApi(o, owner);
    const byKey = hooksApi(o);
    const byAdmin = hooksApi(o, admin);
    const correlation = (step: string) => `wha-${step}-${o.id}`;

    const created = await byOwner.create(
      { url: `${at.url}?token=receiver-secret-${o.id}`, events: ['template.created'] },
      correlation('create'),
    );
    expect(created.status).toBe(201);
    const hook = created.body;
    expect(
      (await byKey.update(hook.id, { description: 'Renamed', url: `${at.url}/v2?token=receiver-secret-${o.id}` }, correlation('update')))
        .status,
    ).toBe(200);
    const rotated = await byAdmin.rotate(hook.id, correlation('rotate'));
    expect(rotated.status).toBe(200);
    expect((await byKey.remove(hook.id, correlation('delete'))).status).toBe(200);

    const keyActor = { kind: 'api_key', id: apiKeyIdFromHash(hashApiKey(o.keys.hooks)) };
    const read = () =>
      call<{ entries: AuditEntry[] }>(runtime.apiUrl, 'GET', `/api/v1/organization/${o.org}/audit-log?resource_id=${hook.id}`, {
        token: o.keys.audit,
      });
    const res = await eventually(read, (r) => r.status === 200 && r.body.entries.length >= 4);
    expect(res.body.entries).toEqual([
      expect.objectContaining({
        type: 'webhook.deleted',
        actor: keyActor,
        correlation_id: correlation('delete'),
        resource: { type: 'webhook', id: hook.id },
      }),
      expect.objectContaining({
        type: 'webhook.secret_rotated',
        actor: { kind: 'user', id: o.people.admin.id },
        correlation_id: correlation('rotate'),
        resource: { type: 'webhook', id: hook.id },
      }),
      expect.objectContaining({
        type: 'webhook.updated',
        actor: keyActor,
        correlation_id: correlation('update'),
        resource: { type: 'webhook', id: hook.id },
      }),
      expect.objectContaining({
        type: 'webhook.created',
        actor: { kind: 'user', id: o.people.owner.id },
        correlation_id: correlation('create'),
        resource: { type: 'webhook', id: hook.id },
      }),
    ]);
    expect([...res.body.entries[2].changes].sort()).toEqual(['description', 'url']);

    // Neither the log nor the events themselves carry a secret or the endpoint's URL (it may hold the receiver's token).
    const events = publishedEvents(o.org).filter((event) => event.resource.id === hook.id);
    expect(events.map((event) => event.type)).toEqual(['webhook.created', 'webhook.updated', 'webhook.secret_rotated', 'webhook.deleted']);
    for (const body of [res.body, events]) {
      expectNoSecret(body, hook.secret, rotated.body.secret);
      expect(JSON.stringify(body)).not.toContain(`receiver-secret-${o.id}`);
      expect(JSON.stringify(body)).not.toContain(at.url);
    }
  });
});
