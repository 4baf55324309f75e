import { consumerDeployedName, functionNameOf } from '../deployed-names';
import { Duration, type Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sources from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { EVENT_SOURCE } from '../../shared/schemas/event-catalog';
import {
  EVENT_CONSUMERS,
  EVENT_PROCESSOR,
  type EventConsumerDefinition,
  type EventConsumerName,
} from '../../shared/events/event-functions';
import { TRANSCRIPTION_SWEEPER, RETENTION_SWEEPER } from '../../shared/events/scheduled-functions';
import type { EventsAction } from '../../shared/function-permissions';
import { acknowledge } from './acknowledge';
import { rootValue } from './route-stack';

/**
 * How the event processor reads the table's stream. One shard's records stay in order
 * (parallelization factor 1), so the changes of one item are turned into events in the order
 * they were committed. A failing batch is split in two until the failing record is alone
 * (bisect), and the processor reports the first record it could not publish (partial batch
 * failures), so the records before it are not published again. A record that still fails
 * after the retries, or is older than maxRecordAge, is reported to the processor's failure
 * queue: its shard and sequence numbers, while the stream still holds the record (24 hours).
 */
const STREAM_SOURCE = {
  startingPosition: lambda.StartingPosition.TRIM_HORIZON,
  batchSize: 100,
  bisectBatchOnError: true,
  reportBatchItemFailures: true,
  retryAttempts: 10,
  // The stream keeps records 24 hours: a record given up on after 6 leaves 18 hours to replay it from its sequence number.
  maxRecordAge: Duration.hours(6),
  parallelizationFactor: 1,
} as const;

/** How each consumer's function reads its queue: batches of up to 10 messages, each message failed or done on its own. */
const QUEUE_SOURCE = { batchSize: 10, reportBatchItemFailures: true } as const;

/** How long a dead-letter queue (and the processor's failure queue) keeps a message: SQS's maximum. */
const DEAD_LETTER_RETENTION = Duration.days(14);

/**
 * How long the queue of a consumer that delays its own messages (one with `queue` permissions:
 * ChangeMessageVisibility) keeps a message, at least. A message's age counts from when it was
 * first sent, not from its last delay: the webhook dispatcher keeps one message through a
 * delivery's whole retry schedule (about 30 hours, each delay at most SQS's 12 hours), so its
 * queue must keep it well beyond that. SQS's default is also 4 days; it is set explicitly so the
 * template shows it and a change of default cannot shorten it. Other consumers keep the default:
 * their messages come back after their visibility timeout, and go to the dead-letter queue after
 * maxAttempts.
 */
export const SELF_DELAYING_QUEUE_RETENTION = Duration.days(4);

/**
 * A consumer queue's visibility timeout: the consumer's retry delay, but at least six times its
 * function's timeout, as AWS recommends for a queue that is a Lambda event source (the poller
 * may retry a throttled invocation while the messages stay invisible).
 */
export function visibilityTimeoutFor(consumer: Pick<EventConsumerDefinition, 'retryAfterSeconds'>, functionTimeout: Duration): Duration {
  return Duration.seconds(Math.max(consumer.retryAfterSeconds, 6 * functionTimeout.toSeconds()));
}

/** The EventBridge pattern of a consumer's rule: the service's events of exactly the types the consumer names. */
function consumerEventPattern(consumer: Pick<EventConsumerDefinition, 'eventTypes'>): { source: string[]; detailType: string[] } {
  return { source: [EVENT_SOURCE], detailType: [...consumer.eventTypes] };
}

/** The stack's event bus, and what a function that publishes to it is given. */
export interface EventBusAccess {
  readonly bus: events.EventBus;
  /** The variable the event publisher reads (shared/config.ts). */
  readonly environment: { EVENT_BUS_NAME: string };
  /** Grants exactly these EventBridge actions on this bus, nothing else. */
  grantPublish(role: iam.IRole, actions: readonly EventsAction[]): void;
}

/** Adds the custom event bus the event processor puts domain events on (and outputs its name). */
export function addEventBus(stack: Stack): EventBusAccess {
  const bus = new events.EventBus(stack, 'EventBus', { description: 'Voice Org API: domain events of committed changes' });
  return {
    bus,
    environment: { EVENT_BUS_NAME: bus.eventBusName },
    grantPublish(role, actions) {
      // A role in a route stack (infra/constructs/route-stack.ts) reads the bus's ARN as a parameter of its stack.
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: actions.map((action) => `events:${action}`),
          resources: [rootValue(role, 'EventBusArn', bus.eventBusArn)],
        }),
      );
    },
  };
}

export interface EventPipelineProps {
  table: dynamodb.ITable;
  bus: events.IEventBus;
  /** The function that runs a handler module of the manifest. */
  functionFor: (handlerModule: string) => lambda.Function;
  /** What the dead-letter alarms do when they fire (notify the stack's alarm topic, infra/constructs/observability.ts); without it they only change state. */
  alarmAction?: cloudwatch.IAlarmAction;
}

/** A queue where what the pipeline could not handle ends up, with the alarm on its first message. */
export interface DeadLetterQueue {
  /** The construct id's stem: EventProcessorFailures, or the consumer's (InvitationMailDeadLetters…). */
  id: string;
  queue: sqs.IQueue;
  alarm: cloudwatch.Alarm;
  /** What a message in it means. */
  what: string;
}

/** What the pipeline gives the dashboard: its dead-letter queues (and the processor's failure queue). */
export interface EventPipeline {
  deadLetterQueues: DeadLetterQueue[];
}

/**
 * The event pipeline, from shared/events/event-functions.ts: the table's stream feeds the
 * event processor (EVENT_PROCESSOR), which puts domain events on the bus; for each consumer
 * of EVENT_CONSUMERS, a rule sends the types it names to its queue, its function reads the
 * queue, and a message that failed maxAttempts times moves to the consumer's dead-letter
 * queue. Every dead-letter queue has an alarm that fires on its first message.
 */
export function addEventPipeline(stack: Stack, props: EventPipelineProps): EventPipeline {
  const deadLetterQueues: DeadLetterQueue[] = [];
  const alarmOn = (id: string, queue: sqs.Queue, what: string): void => {
    const alarm = new cloudwatch.Alarm(stack, `${id}Alarm`, {
      alarmDescription: `Voice Org API: ${what}. Read the messages, fix the cause, then redrive them (docs/deploy.md).`,
      metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: cloudwatch.Stats.MAXIMUM }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    if (props.alarmAction) alarm.addAlarmAction(props.alarmAction);
    deadLetterQueues.push({ id, queue, alarm, what });
  };

  const processorFailures = encryptedQueue(stack, 'EventProcessorFailures', { retentionPeriod: DEAD_LETTER_RETENTION });
  acknowledge(
    processorFailures,
    'AwsSolutions-SQS3',
    "This queue is the on-failure destination of the table stream's event source: Lambda writes to it the shard and sequence numbers of the records the processor gave up on, and an alarm fires on its first message. It is itself the end of the line, so it has no dead-letter queue of its own.",
  );
  alarmOn(
    'EventProcessorFailures',
    processorFailures,
    'the event processor gave up on table stream records (no events for those changes yet)',
  );
  const processor = props.functionFor(EVENT_PROCESSOR.handler);
  processor.addEventSource(
    new sources.DynamoEventSource(props.table, { ...STREAM_SOURCE, onFailure: new sources.SqsDlq(processorFailures) }),
  );
  if (!processor.role) throw new Error(`${EVENT_PROCESSOR.handler} has no role to acknowledge its stream grant on`);
  acknowledge(
    processor.role,
    'AwsSolutions-IAM5[Resource::*]',
    'dynamodb:ListStreams, which the stream event source needs to find the table stream, has no resource-level permissions (it only lists stream ARNs); the record reads (DescribeStream, GetRecords, GetShardIterator) are granted on this table stream only.',
  );

  for (const [name, consumer] of Object.entries(EVENT_CONSUMERS) as [EventConsumerName, EventConsumerDefinition][]) {
    const deployedName = consumerDeployedName(name);
    const id = deployedName.charAt(0).toUpperCase() + deployedName.slice(1);
    const fn = props.functionFor(consumer.handler);
    const target = `functions/${functionNameOf(consumer.handler)}`;
    const deadLetters = encryptedQueue(stack, `${id}DeadLetters`, { retentionPeriod: DEAD_LETTER_RETENTION });
    const delaysOwnMessages = (consumer.permissions.queue?.length ?? 0) > 0;
    const queue = encryptedQueue(stack, `${id}Queue`, {
      // Lambda's default timeout when a function sets none.
      visibilityTimeout: visibilityTimeoutFor(consumer, fn.timeout ?? Duration.seconds(3)),
      deadLetterQueue: { queue: deadLetters, maxReceiveCount: consumer.maxAttempts },
      ...(delaysOwnMessages ? { retentionPeriod: SELF_DELAYING_QUEUE_RETENTION } : {}),
    });
    if (delaysOwnMessages) grantOwnQueue(fn, queue, consumer);
    if (consumer.eventTypes.length) {
      new events.Rule(stack, `${id}Rule`, {
        eventBus: props.bus,
        description: `Voice Org API: ${consumer.eventTypes.length === 1 ? consumer.eventTypes[0] : `${consumer.eventTypes.length} event types`} to ${target}`,
        eventPattern: consumerEventPattern(consumer),
        // An event EventBridge cannot deliver to the queue (after its retries, up to 24 hours) lands in the same dead-letter queue, with the same body.
        targets: [new targets.SqsQueue(queue, { deadLetterQueue: deadLetters })],
      });
    }
    // AWS services put their own events on the account's default bus (Transcribe's job state changes).
    (consumer.serviceEvents ?? []).forEach((service, index) => {
      new events.Rule(stack, `${id}ServiceRule${index > 0 ? index + 1 : ''}`, {
        description: `Voice Org API: ${service.source} ${service.detailType} to ${target}`,
        eventPattern: { source: [service.source], detailType: [service.detailType] },
        targets: [new targets.SqsQueue(queue, { deadLetterQueue: deadLetters })],
      });
    });
    fn.addEventSource(new sources.SqsEventSource(queue, QUEUE_SOURCE));
    alarmOn(`${id}DeadLetters`, deadLetters, `events ${target} could not handle in ${consumer.maxAttempts} attempts`);
  }
  // The transcription sweeper, on its schedule (Transcribe's job state change events are best-effort).
  new events.Rule(stack, 'TranscriptionSweeperSchedule', {
    description: `Voice Org API: functions/${functionNameOf(TRANSCRIPTION_SWEEPER.handler)} every ${TRANSCRIPTION_SWEEPER.scheduleMinutes} minutes`,
    schedule: events.Schedule.rate(Duration.minutes(TRANSCRIPTION_SWEEPER.scheduleMinutes)),
    targets: [new targets.LambdaFunction(props.functionFor(TRANSCRIPTION_SWEEPER.handler), { retryAttempts: 2 })],
  });
  // The retention sweep, once a day (an organization's expired recordings; docs/governance.md).
  new events.Rule(stack, 'RetentionSweeperSchedule', {
    description: `Voice Org API: functions/${functionNameOf(RETENTION_SWEEPER.handler)} once a day`,
    schedule: events.Schedule.rate(Duration.minutes(RETENTION_SWEEPER.scheduleMinutes)),
    targets: [new targets.LambdaFunction(props.functionFor(RETENTION_SWEEPER.handler), { retryAttempts: 2 })],
  });
  return { deadLetterQueues };
}

/**
 * Grants a consumer's function exactly the SQS actions of its manifest permissions (`queue`),
 * on its own queue only: the queue is created here, after the function (infra/constructs/functions.ts).
 */
function grantOwnQueue(fn: lambda.Function, queue: sqs.Queue, consumer: EventConsumerDefinition): void {
  if (!fn.role) throw new Error(`${consumer.handler} has no role to grant its queue permissions to`);
  fn.role.addToPrincipalPolicy(
    new iam.PolicyStatement({ actions: (consumer.permissions.queue ?? []).map((action) => `sqs:${action}`), resources: [queue.queueArn] }),
  );
}

/** A queue encrypted at rest (SQS-managed keys, which EventBridge can send to) that refuses requests without TLS. */
function encryptedQueue(stack: Stack, id: string, props: sqs.QueueProps): sqs.Queue {
  return new sqs.Queue(stack, id, { ...props, encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true });
}
