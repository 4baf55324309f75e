import type { Template } from 'aws-cdk-lib/assertions';
import { Duration } from 'aws-cdk-lib';
import { SELF_DELAYING_QUEUE_RETENTION, visibilityTimeoutFor } from '../../infra/constructs/events';
import { EVENT_SOURCE } from '../../shared/schemas/event-catalog';
import {
  EVENT_CONSUMERS,
  EVENT_PROCESSOR,
  type EventConsumerDefinition,
  type EventConsumerName,
} from '../../shared/events/event-functions';
import { listFunctions } from '../../infra/function-list';
import {
  actionsOf,
  functionLogicalId,
  functionStatements,
  isDynamoStatement,
  onlyLogicalId,
  STREAM_READ_ACTIONS,
  synth,
  tableLogicalId,
  type Json,
} from './template';

/**
 * The event pipeline of VoiceOrgStack (infra/constructs/events.ts), checked against the
 * manifest's EVENT_PROCESSOR and EVENT_CONSUMERS: the table's stream feeds the processor,
 * which may put events on the stack's bus and nothing else; each consumer has its rule (its
 * event types exactly), its queue with a dead-letter queue after maxAttempts, its function
 * reading the queue, and an alarm on its dead-letter queue.
 */
const consumers = Object.entries(EVENT_CONSUMERS) as [EventConsumerName, EventConsumerDefinition][];

const getAtt = (id: string, attribute = 'Arn') => ({ 'Fn::GetAtt': [id, attribute] });
/** The logical id an intrinsic ({Ref} or {Fn::GetAtt}) points at. */
const targetOf = (value: Json): string | undefined => value?.Ref ?? value?.['Fn::GetAtt']?.[0];

describe('the event pipeline of VoiceOrgStack', () => {
  let template: Template;
  let resources: Record<string, Json>;
  let tableId: string;
  let busId: string;
  let processorId: string;

  beforeAll(() => {
    template = synth();
    resources = template.toJSON().Resources;
    tableId = tableLogicalId(template);
    busId = onlyLogicalId(template, 'AWS::Events::EventBus');
    processorId = functionLogicalId(template, EVENT_PROCESSOR.handler);
  });

  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
  const mappingsOf = (functionId: string) =>
    ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) => m.Properties.FunctionName?.Ref === functionId);
  /** A consumer's queue and dead-letter queue, found from the event source mapping of its function. */
  const queuesOf = (consumer: EventConsumerDefinition) => {
    const mappings = mappingsOf(functionLogicalId(template, consumer.handler));
    expect(mappings).toHaveLength(1);
    const queueId = targetOf(mappings[0][1].Properties.EventSourceArn)!;
    expect(resources[queueId]?.Type).toBe('AWS::SQS::Queue');
    const deadLettersId = targetOf(resources[queueId].Properties.RedrivePolicy?.deadLetterTargetArn)!;
    return { queueId, deadLettersId, mapping: mappings[0][1].Properties };
  };
  const rulesTo = (queueId: string) =>
    ofType('AWS::Events::Rule').filter(([, rule]) => rule.Properties.Targets.some((t: Json) => targetOf(t.Arn) === queueId));

  describe('stream and bus', () => {
    it("streams the table's changes with the item before and after each", () => {
      expect(resources[tableId].Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
    });

    it('creates one custom event bus and outputs its name', () => {
      expect(resources[busId].Properties.Name).toEqual(expect.any(String));
      expect(template.toJSON().Outputs.EventBusName).toEqual({ Value: { Ref: busId } });
    });
  });

  describe('event processor', () => {
    it("reads the table's stream in order, splits a failing batch, reports partial failures and gives up into its failure queue", () => {
      const mappings = mappingsOf(processorId);
      expect(mappings).toHaveLength(1);
      const mapping = mappings[0][1].Properties;
      expect(mapping).toEqual({
        FunctionName: { Ref: processorId },
        EventSourceArn: getAtt(tableId, 'StreamArn'),
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: 100,
        BisectBatchOnFunctionError: true,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        MaximumRetryAttempts: 10,
        MaximumRecordAgeInSeconds: 6 * 3600,
        ParallelizationFactor: 1,
        DestinationConfig: { OnFailure: { Destination: expect.anything() } },
      });
      const failuresId = targetOf(mapping.DestinationConfig.OnFailure.Destination)!;
      expect(resources[failuresId].Properties).toMatchObject({ MessageRetentionPeriod: 14 * 86_400, SqsManagedSseEnabled: true });
    });

    it('may put events on this bus only, read the stream, and report to its failure queue: no table access', () => {
      // Its logs and its X-Ray segments (every function's, test/infra/observability.test.ts) aside.
      const statements = functionStatements(template, processorId).filter(
        (st: Json) => !actionsOf(st).every((a) => a.startsWith('logs:') || a.startsWith('xray:')),
      );
      const failuresId = targetOf(mappingsOf(processorId)[0][1].Properties.DestinationConfig.OnFailure.Destination)!;
      const granted = statements.map((st: Json) => ({ actions: actionsOf(st).sort(), resource: st.Resource, condition: st.Condition }));
      expect(granted).toEqual(
        expect.arrayContaining([
          { actions: ['events:PutEvents'], resource: getAtt(busId), condition: undefined },
          {
            actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
            resource: getAtt(tableId, 'StreamArn'),
            condition: undefined,
          },
          // ListStreams has no resource-level permissions.
          { actions: ['dynamodb:ListStreams'], resource: '*', condition: undefined },
          { actions: ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'], resource: getAtt(failuresId), condition: undefined },
        ]),
      );
      expect(granted).toHaveLength(4);
      expect(EVENT_PROCESSOR.permissions).toEqual({ events: ['PutEvents'] });
    });

    it('is told the bus name; no other function is, and no other function may put events', () => {
      for (const { handler, permissions } of listFunctions()) {
        const fnId = functionLogicalId(template, handler);
        const publishes = functionStatements(template, fnId).filter((st: Json) => actionsOf(st).some((a) => a.startsWith('events:')));
        const busName = resources[fnId].Properties.Environment.Variables.EVENT_BUS_NAME;
        const expected = permissions.events?.length ? { publishes: 1, busName: { Ref: busId } } : { publishes: 0, busName: undefined };
        expect({ handler, publishes: publishes.length, busName }).toEqual({ handler, ...expected });
      }
      expect(
        listFunctions()
          .filter((f) => f.permissions.events?.length)
          .map((f) => f.handler),
      ).toEqual([EVENT_PROCESSOR.handler]);
    });

    it('is the only function that reads the stream', () => {
      for (const { handler } of listFunctions()) {
        const reads = functionStatements(template, functionLogicalId(template, handler)).filter(
          (st: Json) => isDynamoStatement(st) && actionsOf(st).some((a) => STREAM_READ_ACTIONS.includes(a)),
        );
        expect({ handler, reads: reads.length > 0 }).toEqual({ handler, reads: handler === EVENT_PROCESSOR.handler });
      }
    });
  });

  describe.each(consumers)('consumer %s', (_name, consumer) => {
    it('has one rule on the bus matching exactly its event types from this service (and one on the default bus per AWS service event it names), targeting its queue', () => {
      const { queueId, deadLettersId } = queuesOf(consumer);
      const rules = rulesTo(queueId);
      const serviceEvents = consumer.serviceEvents ?? [];
      expect(rules).toHaveLength((consumer.eventTypes.length ? 1 : 0) + serviceEvents.length);
      for (const [index, service] of serviceEvents.entries()) {
        const onDefaultBus = rules.filter(([, r]) => r.Properties.EventBusName === undefined)[index][1].Properties;
        expect(onDefaultBus.EventPattern).toEqual({ source: [service.source], 'detail-type': [service.detailType] });
        expect(onDefaultBus.Targets).toEqual([
          { Id: expect.any(String), Arn: getAtt(queueId), DeadLetterConfig: { Arn: getAtt(deadLettersId) } },
        ]);
      }
      if (!consumer.eventTypes.length) return;
      const rule = rules.find(([, r]) => r.Properties.EventBusName !== undefined)![1].Properties;
      expect(rule.EventBusName).toEqual({ Ref: busId });
      expect(rule.EventPattern).toEqual({ source: [EVENT_SOURCE], 'detail-type': [...consumer.eventTypes] });
      // What EventBridge cannot deliver to the queue lands in the consumer's dead-letter queue too.
      expect(rule.Targets).toEqual([{ Id: expect.any(String), Arn: getAtt(queueId), DeadLetterConfig: { Arn: getAtt(deadLettersId) } }]);
      // EventBridge refuses a rule whose pattern is over 2,048 characters (its default quota): a consumer of every type must stay under it.
      expect(JSON.stringify(rule.EventPattern).length).toBeLessThanOrEqual(2048);
    });

    it('moves a message to its dead-letter queue after maxAttempts deliveries, retried after its visibility timeout', () => {
      const { queueId, deadLettersId } = queuesOf(consumer);
      const fn = resources[functionLogicalId(template, consumer.handler)].Properties;
      // A consumer that delays its own messages keeps them at least 4 days; the others keep SQS's default (not set).
      const delaysOwnMessages = (consumer.permissions.queue?.length ?? 0) > 0;
      expect(resources[queueId].Properties).toEqual({
        RedrivePolicy: { deadLetterTargetArn: getAtt(deadLettersId), maxReceiveCount: consumer.maxAttempts },
        VisibilityTimeout: visibilityTimeoutFor(consumer, Duration.seconds(fn.Timeout)).toSeconds(),
        SqsManagedSseEnabled: true,
        ...(delaysOwnMessages ? { MessageRetentionPeriod: SELF_DELAYING_QUEUE_RETENTION.toSeconds() } : {}),
      });
      expect(resources[queueId].Properties.VisibilityTimeout).toBeGreaterThanOrEqual(Math.max(consumer.retryAfterSeconds, 6 * fn.Timeout));
      expect(resources[deadLettersId].Properties).toEqual({ MessageRetentionPeriod: 14 * 86_400, SqsManagedSseEnabled: true });
    });

    it('lets EventBridge send to its queue (and dead-letter queue) for its rule only', () => {
      const { queueId, deadLettersId } = queuesOf(consumer);
      const ruleId = rulesTo(queueId)[0][0];
      for (const id of [queueId, deadLettersId]) {
        const policies = ofType('AWS::SQS::QueuePolicy').filter(([, p]) => p.Properties.Queues.some((q: Json) => q.Ref === id));
        expect(policies).toHaveLength(1);
        const allows = policies[0][1].Properties.PolicyDocument.Statement.filter((st: Json) => st.Effect === 'Allow');
        expect(allows).toEqual([
          expect.objectContaining({
            Principal: { Service: 'events.amazonaws.com' },
            Resource: getAtt(id),
            Condition: { ArnEquals: { 'aws:SourceArn': getAtt(ruleId) } },
          }),
        ]);
        expect([allows[0].Action].flat()).toContain('sqs:SendMessage');
      }
    });

    it('feeds its function in batches of up to 10, reporting failed messages one by one', () => {
      const { queueId, mapping } = queuesOf(consumer);
      expect(mapping).toEqual({
        FunctionName: { Ref: functionLogicalId(template, consumer.handler) },
        EventSourceArn: getAtt(queueId),
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    });

    it('may consume from its own queue only, plus the queue actions of its manifest permissions on that queue', () => {
      const { queueId } = queuesOf(consumer);
      const sqsStatements = functionStatements(template, functionLogicalId(template, consumer.handler)).filter((st: Json) =>
        actionsOf(st).some((a) => a.startsWith('sqs:')),
      );
      const manifestActions = (consumer.permissions.queue ?? []).map((action) => `sqs:${action}`);
      const granted = sqsStatements.map((st: Json) => ({ resource: st.Resource, actions: actionsOf(st).sort() }));
      expect(granted).toHaveLength(manifestActions.length ? 2 : 1);
      expect(granted).toEqual(
        expect.arrayContaining([
          // The event source's own grant, to read and delete the batches it hands the function.
          {
            resource: getAtt(queueId),
            actions: [
              'sqs:ChangeMessageVisibility',
              'sqs:DeleteMessage',
              'sqs:GetQueueAttributes',
              'sqs:GetQueueUrl',
              'sqs:ReceiveMessage',
            ],
          },
          ...(manifestActions.length ? [{ resource: getAtt(queueId), actions: [...manifestActions].sort() }] : []),
        ]),
      );
    });
  });

  describe('queues and alarms', () => {
    it('has exactly the queues of the pipeline: per consumer a queue and a dead-letter queue, and the processor failure queue', () => {
      expect(ofType('AWS::SQS::Queue')).toHaveLength(2 * consumers.length + 1);
      expect(ofType('AWS::Lambda::EventSourceMapping')).toHaveLength(consumers.length + 1);
      // One rule per consumer on the bus or the default bus, and the transcription and retention sweepers' schedules.
      const serviceRules = consumers.reduce((sum, [, c]) => sum + (c.serviceEvents?.length ?? 0) + (c.eventTypes.length ? 1 : 0), 0);
      expect(ofType('AWS::Events::Rule')).toHaveLength(serviceRules + 2);
    });

    it('runs the retention sweep once a day, retried twice', () => {
      const schedules = ofType('AWS::Events::Rule').filter(([id]) => id.startsWith('RetentionSweeperSchedule'));
      expect(schedules).toHaveLength(1);
      const [, rule] = schedules[0];
      expect(rule.Properties.ScheduleExpression).toBe('rate(1 day)');
      expect(rule.Properties.Targets).toEqual([expect.objectContaining({ RetryPolicy: { MaximumRetryAttempts: 2 } })]);
    });

    it('encrypts every queue and refuses requests without TLS', () => {
      for (const [id, queue] of ofType('AWS::SQS::Queue')) {
        expect({ id, sse: queue.Properties.SqsManagedSseEnabled }).toEqual({ id, sse: true });
        const policy = ofType('AWS::SQS::QueuePolicy').find(([, p]) => p.Properties.Queues.some((q: Json) => q.Ref === id));
        expect({ id, denies: policy?.[1].Properties.PolicyDocument.Statement.find((st: Json) => st.Effect === 'Deny')?.Condition }).toEqual(
          {
            id,
            denies: { Bool: { 'aws:SecureTransport': 'false' } },
          },
        );
      }
    });

    it("alarms on the first message in every dead-letter queue and in the processor failure queue, and on no other queue, notifying the stack's alarm topic", () => {
      const failuresId = targetOf(mappingsOf(processorId)[0][1].Properties.DestinationConfig.OnFailure.Destination)!;
      const deadLetterQueues = [...consumers.map(([, consumer]) => queuesOf(consumer).deadLettersId), failuresId].sort();
      const topicId = onlyLogicalId(template, 'AWS::SNS::Topic');
      // The stack's other alarms (infra/constructs/observability.ts) read other namespaces: test/infra/observability.test.ts.
      const queueAlarms = ofType('AWS::CloudWatch::Alarm').filter(([, alarm]) => alarm.Properties.Namespace === 'AWS/SQS');
      const alarmed = queueAlarms.map(([, alarm]) => {
        const props = alarm.Properties;
        expect(props).toMatchObject({
          Namespace: 'AWS/SQS',
          MetricName: 'ApproximateNumberOfMessagesVisible',
          Statistic: 'Maximum',
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          Threshold: 1,
          EvaluationPeriods: 1,
          TreatMissingData: 'notBreaching',
        });
        expect(props.AlarmActions).toEqual([{ Ref: topicId }]);
        expect(props.Dimensions).toEqual([{ Name: 'QueueName', Value: { 'Fn::GetAtt': [expect.any(String), 'QueueName'] } }]);
        return props.Dimensions[0].Value['Fn::GetAtt'][0];
      });
      expect(alarmed.sort()).toEqual(deadLetterQueues);
    });
  });
});

describe('the event pipeline with its optional settings', () => {
  const alarmTopicArn = 'arn:aws:sns:eu-west-1:123456789012:ops-alarms';
  let template: Template;

  beforeAll(() => {
    template = synth({ trashRetentionDays: 7, auditRetentionDays: 90, alarmTopicArn });
  });

  it('notifies the alarm topic from every dead-letter alarm', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).filter(
      (alarm) => alarm.Properties.Namespace === 'AWS/SQS',
    );
    expect(alarms).toHaveLength(Object.keys(EVENT_CONSUMERS).length + 1);
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([alarmTopicArn]);
  });

  it('gives every function the retention periods, like the table name', () => {
    for (const { handler } of listFunctions()) {
      const env = template.toJSON().Resources[functionLogicalId(template, handler)].Properties.Environment.Variables;
      expect({ handler, trash: env.TRASH_RETENTION_DAYS, audit: env.AUDIT_RETENTION_DAYS }).toEqual({ handler, trash: '7', audit: '90' });
    }
  });

  it('leaves them to the config defaults when not given', () => {
    const defaults = synth();
    for (const fn of Object.values(defaults.findResources('AWS::Lambda::Function'))) {
      const env = fn.Properties.Environment?.Variables ?? {};
      expect([env.TRASH_RETENTION_DAYS, env.AUDIT_RETENTION_DAYS]).toEqual([undefined, undefined]);
    }
  });
});
