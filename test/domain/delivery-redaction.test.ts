import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { redactDeliveryPayloads } from '../../shared/storage/delivery-redaction';
import { keys } from '../../shared/storage/keys';
import { deliveryItem, webhookItem } from '../../shared/storage/webhook-items';
import { localDeployment, unique } from '../support/api';

/**
 * An erasure's redaction of the member's email in stored webhook deliveries (the invitation
 * events quote it): every delivery of every endpoint that holds it, and nothing else.
 */
const { db } = localDeployment();
const T = '2026-11-01T10:00:00.000Z';

it("replaces the email in every endpoint's deliveries that hold it, leaves the others, and is idempotent", async () => {
  const id = unique();
  const orgId = `org_redact_${id}`;
  const email = `zed.${id}@example.com`;
  const webhook = (webhookId: string) =>
    webhookItem({
      id: webhookId,
      org_id: orgId,
      url: 'https://receiver.example.invalid/hooks',
      description: '',
      events: ['invite.created'],
      // Disabled: the dispatcher leaves its deliveries alone while the test reads them.
      enabled: false,
      disabled_reason: 'manual',
      created_at: T,
      updated_at: T,
      secrets: [],
      failing_since: null,
    } as never);
  const delivery = (webhookId: string, deliveryId: string, data: Record<string, unknown>) =>
    deliveryItem(
      {
        id: deliveryId,
        org_id: orgId,
        webhook_id: webhookId,
        event_id: `evt_${deliveryId}`,
        event_type: 'invite.created',
        payload: JSON.stringify({ type: 'invite.created', org_id: orgId, data }),
        status: 'failed',
        attempts: 1,
        created_at: T,
        last_attempt_at: T,
        next_attempt_at: null,
        response_status: 500,
        response_ms: 10,
        error: null,
        dispatch_id: `dsp_${deliveryId}`,
      },
      Math.floor(Date.now() / 1000) + 3600,
    );
  const items = [
    webhook('wh_a'),
    webhook('wh_b'),
    delivery('wh_a', 'dlv_1', { email, role: 'admin' }),
    delivery('wh_b', 'dlv_2', { email, role: 'member' }),
    delivery('wh_b', 'dlv_3', { email: `someone.${id}@example.com`, role: 'member' }),
  ];
  for (const Item of items) await db.client.send(new PutCommand({ TableName: db.tableName, Item }));
  const payloadOf = async (webhookId: string, deliveryId: string) =>
    String(
      (
        await db.client.send(
          new GetCommand({ TableName: db.tableName, Key: keys.delivery(orgId, webhookId, deliveryId), ConsistentRead: true }),
        )
      ).Item?.payload,
    );

  expect(await redactDeliveryPayloads(db, orgId, email, 'erased@erased.invalid')).toBe(2);
  for (const [webhookId, deliveryId] of [
    ['wh_a', 'dlv_1'],
    ['wh_b', 'dlv_2'],
  ]) {
    const payload = await payloadOf(webhookId, deliveryId);
    expect(payload).not.toContain(email);
    expect(JSON.parse(payload).data.email).toBe('erased@erased.invalid');
  }
  expect(await payloadOf('wh_b', 'dlv_3')).toContain(`someone.${id}@example.com`);
  expect(await redactDeliveryPayloads(db, orgId, email, 'erased@erased.invalid')).toBe(0);
});
