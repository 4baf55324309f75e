import { ensureMembership } from '../../shared/operator-tasks/directory';
import type { DomainEvent } from '../../shared/schemas/event-catalog';
import { expireItems } from '../../infra/local/ttl-emulator';
import { call, idp, localDeployment, once, sentEmails, TIMESTAMP, unique } from '../support/api';
import { eventually } from '../support/eventually';
import { eventsInclude, publishedEvents } from '../support/events';
import { buildOrg, seedOrg } from '../support/org-builder';

/**
 * The event pipeline end to end, as `npm start` runs it: an API call commits, DynamoDB
 * Local's stream carries the change, the processor turns it into its domain event, and the
 * event reaches the bus (events.jsonl) once, naming who made the change and in which request.
 */
const { runtime, db } = localDeployment();
const org = once(() =>
  seedOrg(
    buildOrg({
      label: 'events',
      keys: {
        full: {
          scopes: [
            'users:read',
            'users:write',
            'recordings:read',
            'recordings:write',
            'templates:read',
            'templates:write',
            'invites:read',
            'invites:write',
          ],
        },
        recorder: { scopes: ['recordings:write'], user: 'member' },
      },
    }),
  ),
);
type Org = Awaited<ReturnType<typeof org>>;

const api = async (method: string, path: string, token: string, body?: unknown, correlationId = `evt-test-${unique()}`) => {
  const res = await call(runtime.apiUrl, method, path, { token, body, headers: { 'x-correlation-id': correlationId } });
  expect(res.status).toBeLessThan(300);
  return { body: res.body, correlationId };
};
const orgPath = (o: Org, rest: string) => `/api/v1/organization/${o.org}${rest}`;

/** The events of these types of one resource, in order, once each type is there; each exactly once. */
async function eventsOf(o: Org, resourceId: string, types: DomainEvent['type'][]): Promise<DomainEvent[]> {
  const events = (await eventsInclude(o.org, types, resourceId)).filter(
    (event) => event.resource.id === resourceId && types.includes(event.type),
  );
  for (const type of types) expect(events.filter((event) => event.type === type)).toHaveLength(1);
  return events;
}

const orgKeyActor = { kind: 'api_key', id: expect.stringMatching(/^key_/) };

describe('domain events: every committed change publishes its event once', () => {
  it('templates: created, updated (the fields named), deleted; by the org key, in its request', async () => {
    const o = await org();
    const created = await api('POST', orgPath(o, '/templates'), o.keys.full, {
      name: 'Weekly',
      description: 'd',
      sections: [{ title: 'a', prompt: 'b' }],
    });
    const templateId: string = created.body.id;
    const updated = await api('PATCH', orgPath(o, `/templates/${templateId}`), o.keys.full, { sections: [{ title: 'c', prompt: 'd' }] });
    const deleted = await api('DELETE', orgPath(o, `/templates/${templateId}`), o.keys.full);
    const events = await eventsOf(o, templateId, ['template.created', 'template.updated', 'template.deleted']);
    expect(events.map((event) => [event.type, event.correlation_id])).toEqual([
      ['template.created', created.correlationId],
      ['template.updated', updated.correlationId],
      ['template.deleted', deleted.correlationId],
    ]);
    for (const event of events) {
      expect(event).toMatchObject({
        id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
        occurred_at: expect.stringMatching(TIMESTAMP),
        org_id: o.org,
        actor: orgKeyActor,
      });
    }
    expect(events[1].data).toEqual({ name: 'Weekly', changes: ['sections'] });
  });

  it('recordings: created by the upload URL, uploaded, updated, trashed, restored, deleted', async () => {
    const o = await org();
    const bytes = Buffer.from('voice');
    const upload = await api('POST', '/api/v1/public/recordings/upload-url', o.keys.recorder, {
      filename: 'a.m4a',
      content_type: 'audio/mp4',
      size_bytes: bytes.length,
    });
    const { recording_id: recordingId, upload_url: url, headers } = upload.body.data;
    expect((await fetch(url, { method: 'PUT', headers, body: bytes })).status).toBe(200);
    await eventsOf(o, recordingId, ['recording.created', 'recording.uploaded']);
    await api('PUT', orgPath(o, `/recordings/${recordingId}`), o.keys.full, { title: 'Standup' });
    await api('DELETE', orgPath(o, `/recordings/${recordingId}`), o.keys.full);
    await api('POST', orgPath(o, `/recordings/${recordingId}/restore`), o.keys.full);
    const deleted = await api('DELETE', orgPath(o, `/recordings/${recordingId}?permanent=true`), o.keys.full);
    const events = await eventsOf(o, recordingId, [
      'recording.created',
      'recording.uploaded',
      'recording.updated',
      'recording.trashed',
      'recording.restored',
      'recording.deleted',
    ]);
    expect(events.map((event) => event.type)).toEqual([
      'recording.created',
      'recording.uploaded',
      'recording.updated',
      'recording.trashed',
      'recording.restored',
      'recording.deleted',
    ]);
    const byType = Object.fromEntries(events.map((event) => [event.type, event]));
    // The member's personal key acts as the member; the upload landing is the service's doing.
    expect(byType['recording.created'].actor).toEqual({ kind: 'user', id: o.people.member.id });
    expect(byType['recording.uploaded'].actor).toBeNull();
    expect(byType['recording.updated'].data).toMatchObject({ changes: ['title'] });
    expect(byType['recording.deleted']).toMatchObject({
      actor: orgKeyActor,
      correlation_id: deleted.correlationId,
      data: { recorded_by: o.people.member.id, reason: 'request' },
    });
  });

  it('member settings: the sections changed, never their content', async () => {
    const o = await org();
    const target = o.people.viewer.id;
    await api('PATCH', orgPath(o, `/users/${target}/settings`), o.keys.full, {
      settings: { selected_theme: 'dark' },
      notifications: { processing_notifications_enabled: false },
    });
    const [event] = await eventsOf(o, target, ['member_settings.updated']);
    expect(event).toMatchObject({
      resource: { type: 'member_settings', id: target },
      actor: orgKeyActor,
      data: { user_id: target, sections: ['settings', 'notifications'] },
    });
    expect(JSON.stringify(event)).not.toContain('dark');
  });

  it('member settings whose notifications were never set (an empty map in the stream image) still publish their event', async () => {
    const o = await org();
    const target = o.people.member.id;
    await api('PATCH', orgPath(o, `/users/${target}/settings`), o.keys.full, { settings: { selected_theme: 'light' } });
    const [event] = await eventsOf(o, target, ['member_settings.updated']);
    expect(event.data).toEqual({ user_id: target, sections: ['settings'] });
  });

  it('members: joined by accepting an invitation (the new user is the actor), updated, removed', async () => {
    const o = await org();
    const address = o.address(`joiner-${unique()}`);
    const sent = await api('POST', orgPath(o, '/invites'), o.keys.full, { email: address, role: 'member' });
    const emails = await eventually(
      () => sentEmails(address),
      (found) => found.length > 0,
    );
    const token = /\/invites\/accept\?token=([A-Za-z0-9_-]+)/.exec(emails[0]?.body.text ?? '')?.[1] ?? '';
    const idToken = await (await idp()).issueIdToken({ sub: `local|joiner_${unique()}`, email: address });
    const accepted = await call(runtime.apiUrl, 'POST', '/api/v1/organization/invites/accept', { token: idToken, body: { token } });
    expect(accepted.status).toBe(200);

    const inviteEvents = await eventsOf(o, sent.body.id, ['invite.created', 'invite.email_sent', 'invite.accepted']);
    const joinedUser = inviteEvents.find((event) => event.type === 'invite.accepted')?.data.user_id as string;
    const [joined] = await eventsOf(o, joinedUser, ['member.joined']);
    expect(joined).toMatchObject({ actor: { kind: 'user', id: joinedUser }, data: { user_id: joinedUser, role: 'member' } });

    // An administrator's tools (the CLI's seed) change the role, then remove the member: the service is the actor.
    await ensureMembership(db, { orgId: o.org, userId: joinedUser, role: 'admin', status: 'active' }, new Date());
    await ensureMembership(db, { orgId: o.org, userId: joinedUser, role: 'admin', status: 'removed' }, new Date());
    const memberEvents = await eventsOf(o, joinedUser, ['member.joined', 'member.updated', 'member.removed']);
    expect(memberEvents.find((event) => event.type === 'member.updated')).toMatchObject({
      actor: null,
      data: { role: 'admin', changes: ['role'] },
    });
  });

  it('invites: created, emailed, resent, revoked, and expired by the TTL (with a clock of its own)', async () => {
    const o = await org();
    const first = await api('POST', orgPath(o, '/invites'), o.keys.full, { email: o.address(`resent-${unique()}`), role: 'viewer' });
    await eventsOf(o, first.body.id, ['invite.created', 'invite.email_sent']);
    await api('POST', orgPath(o, `/invites/${first.body.id}/resend`), o.keys.full);
    await api('DELETE', orgPath(o, `/invites/${first.body.id}`), o.keys.full);
    const events = await eventsOf(o, first.body.id, ['invite.created', 'invite.resent', 'invite.revoked']);
    for (const event of events) expect(JSON.stringify(event.data)).not.toMatch(/token|hash/i);

    const second = await api('POST', orgPath(o, '/invites'), o.keys.full, { email: o.address(`expiring-${unique()}`), role: 'viewer' });
    await eventsOf(o, second.body.id, ['invite.created']);
    // DynamoDB removes the expired invite (emulated, a day after it expired); the removal is invite.expired.
    const removed = await expireItems(db, { orgId: o.org, now: new Date(Date.parse(second.body.expires_at) + 86_400_000) });
    expect(removed).toBeGreaterThan(0);
    const [expired] = await eventsOf(o, second.body.id, ['invite.expired']);
    expect(expired).toMatchObject({ actor: null, occurred_at: second.body.expires_at });
  });

  it('the stream is read once: no event id appears twice on the bus', async () => {
    const o = await org();
    await eventsInclude(o.org, ['template.created', 'recording.deleted']);
    const ids = publishedEvents(o.org).map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
