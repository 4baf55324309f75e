import type { Template } from 'aws-cdk-lib/assertions';
import { INTERNAL_EVENT_TYPES } from '../../shared/schemas/event-catalog';
import { EVENT_CONSUMERS } from '../../shared/events/event-functions';
import { listFunctions } from '../../infra/function-list';
import { ROUTES } from '../../shared/routes/manifest';
import { actionsOf, functionLogicalId, functionStatements, onlyLogicalId, synth, type Json } from './template';

/**
 * What VoiceOrgStack gives webhook delivery, checked against the manifest: the
 * signing secrets are wrapped by the stack's key under their own encryption context, granted
 * only where the manifest asks; the dispatcher may delay its own queue's messages (its retry
 * schedule) and nothing else in SQS, runs long enough to wait on slow endpoints, and its queue
 * keeps a message through a delivery's whole schedule.
 */

const dispatcher = EVENT_CONSUMERS.dispatchWebhookDelivery;
const fanOut = EVENT_CONSUMERS.fanOutWebhookDeliveries;

/** What the SQS event source itself grants a consumer on its queue, to read and delete the batches it hands over. */
const EVENT_SOURCE_ACTIONS = [
  'sqs:ChangeMessageVisibility',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
  'sqs:GetQueueUrl',
  'sqs:ReceiveMessage',
];

const WEBHOOK_SECRET_CONDITION = {
  StringEquals: { 'kms:EncryptionContext:purpose': 'webhook-secret' },
  Null: { 'kms:EncryptionContext:org_id': 'false', 'kms:EncryptionContext:webhook_id': 'false' },
};

const getAtt = (id: string, attribute = 'Arn') => ({ 'Fn::GetAtt': [id, attribute] });
const targetOf = (value: Json): string | undefined => value?.Ref ?? value?.['Fn::GetAtt']?.[0];

describe('webhooks in VoiceOrgStack', () => {
  let template: Template;
  let resources: Record<string, Json>;
  let keyId: string;

  beforeAll(() => {
    template = synth();
    resources = template.toJSON().Resources;
    keyId = onlyLogicalId(template, 'AWS::KMS::Key');
  });

  const statementsOf = (handler: string, prefix: string): Json[] =>
    functionStatements(template, functionLogicalId(template, handler)).filter((st: Json) =>
      actionsOf(st).some((a) => a.startsWith(prefix)),
    );
  const webhookSecretStatements = (handler: string) =>
    statementsOf(handler, 'kms:').filter((st: Json) => st.Condition?.StringEquals?.['kms:EncryptionContext:purpose'] === 'webhook-secret');
  /** The queue a consumer's function reads: the event source of its function. */
  const queueOf = (handler: string): string => {
    const fnId = functionLogicalId(template, handler);
    const mappings = Object.values(resources).filter(
      (r) => r.Type === 'AWS::Lambda::EventSourceMapping' && r.Properties.FunctionName?.Ref === fnId,
    );
    expect(mappings).toHaveLength(1);
    const queueId = targetOf(mappings[0].Properties.EventSourceArn)!;
    expect(resources[queueId]?.Type).toBe('AWS::SQS::Queue');
    return queueId;
  };

  describe('signing secret key', () => {
    it("grants the key for webhook secrets only to the functions whose manifest asks for it, with exactly those actions, bound to a webhook's context", () => {
      for (const { handler, permissions } of listFunctions()) {
        const statements = webhookSecretStatements(handler);
        const expected = (permissions.webhookSecretKey ?? []).map((action) => `kms:${action}`).sort();
        expect({ handler, actions: statements.flatMap(actionsOf).sort() }).toEqual({ handler, actions: expected });
        for (const statement of statements) {
          expect({ handler, resource: statement.Resource, condition: statement.Condition }).toEqual({
            handler,
            resource: getAtt(keyId),
            condition: WEBHOOK_SECRET_CONDITION,
          });
        }
      }
    });

    it('lets creating and rotating an endpoint wrap a new secret but not unwrap one', () => {
      for (const route of [ROUTES.createWebhook, ROUTES.rotateWebhookSecret]) {
        const actions = statementsOf(route.handler, 'kms:').flatMap(actionsOf);
        expect({ handler: route.handler, actions }).toEqual({ handler: route.handler, actions: ['kms:GenerateDataKey'] });
        expect(webhookSecretStatements(route.handler)).toHaveLength(1);
      }
    });

    it('lets the dispatcher unwrap secrets to sign with, and wrap none', () => {
      const actions = statementsOf(dispatcher.handler, 'kms:').flatMap(actionsOf);
      expect(actions).toEqual(['kms:Decrypt']);
      expect(webhookSecretStatements(dispatcher.handler)).toHaveLength(1);
    });

    it('tells the key to exactly the functions that use it (PROFILE_KMS_KEY_ARN), the webhook secret users among them', () => {
      const users = listFunctions().filter(({ permissions }) => permissions.profileKey?.length || permissions.webhookSecretKey?.length);
      for (const { handler } of listFunctions()) {
        const env = resources[functionLogicalId(template, handler)].Properties.Environment.Variables;
        const expected = users.some((f) => f.handler === handler) ? getAtt(keyId) : undefined;
        expect({ handler, keyArn: env.PROFILE_KMS_KEY_ARN }).toEqual({ handler, keyArn: expected });
      }
      expect(users.map((f) => f.handler)).toEqual(
        expect.arrayContaining([ROUTES.createWebhook.handler, ROUTES.rotateWebhookSecret.handler, dispatcher.handler]),
      );
    });
  });

  describe('dispatcher', () => {
    it('may change the visibility of messages on its own queue, and no other SQS write anywhere', () => {
      const queueId = queueOf(dispatcher.handler);
      const statements = statementsOf(dispatcher.handler, 'sqs:');
      for (const statement of statements) expect(statement.Resource).toEqual(getAtt(queueId));
      // Its manifest's grant stands on its own, not only as part of what the event source grants.
      expect(statements.map((st: Json) => actionsOf(st).sort())).toContainEqual(['sqs:ChangeMessageVisibility']);
      const actions = [...new Set(statements.flatMap(actionsOf))].sort();
      expect(actions).toEqual(EVENT_SOURCE_ACTIONS);
    });

    it('is the only function granted anything on its queue', () => {
      const queueId = queueOf(dispatcher.handler);
      for (const { handler } of listFunctions()) {
        const onDispatcherQueue = statementsOf(handler, 'sqs:').filter((st: Json) => targetOf(st.Resource) === queueId);
        expect({ handler, granted: onDispatcherQueue.length > 0 }).toEqual({ handler, granted: handler === dispatcher.handler });
      }
    });

    it('runs up to 30 seconds, and its queue hides a message in flight for at least six times that', () => {
      const fn = resources[functionLogicalId(template, dispatcher.handler)].Properties;
      expect(fn.Timeout).toBe(30);
      expect(resources[queueOf(dispatcher.handler)].Properties.VisibilityTimeout).toBeGreaterThanOrEqual(180);
    });

    it("keeps a message at least 4 days: through a delivery's whole retry schedule (about 30 hours)", () => {
      expect(resources[queueOf(dispatcher.handler)].Properties.MessageRetentionPeriod).toBeGreaterThanOrEqual(4 * 86_400);
    });

    it('reaches endpoints on the internet directly: no VPC', () => {
      expect(resources[functionLogicalId(template, dispatcher.handler)].Properties.VpcConfig).toBeUndefined();
    });
  });

  describe('fan-out', () => {
    it('is not fed its own deliveries: its rule matches no internal event type (webhook.delivery_due)', () => {
      const rule = Object.values(resources).find(
        (r) => r.Type === 'AWS::Events::Rule' && r.Properties.Targets.some((t: Json) => targetOf(t.Arn) === queueOf(fanOut.handler)),
      );
      const detailTypes: string[] = rule.Properties.EventPattern['detail-type'];
      expect(detailTypes.length).toBeGreaterThan(0);
      expect(detailTypes.filter((type) => (INTERNAL_EVENT_TYPES as readonly string[]).includes(type))).toEqual([]);
    });
  });
});
