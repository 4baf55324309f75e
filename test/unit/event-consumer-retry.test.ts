import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../shared/config';
import { eventConsumer, type ConsumerResult, type Delivery } from '../../shared/events/event-consumer';
import { EVENT_SOURCE, type DomainEvent } from '../../shared/schemas/event-catalog';
import { delayMessage, queueUrlOf } from '../../shared/events/queue-retry';
import { logger } from '../../shared/observability/logger';
import { currentChangeContext } from '../../shared/storage/change-stamp';

// The dispatcher's queue settings without an environment: the region, and the local SQS emulator when a test sets one.
const mockConfig: { region: string; webhooks: Config['webhooks'] } = { region: 'eu-west-1', webhooks: { allowLocalUrls: false } };
jest.mock('../../shared/config', () => ({ ...jest.requireActual('../../shared/config'), config: () => mockConfig }));

const QUEUE_ARN = 'arn:aws:sqs:eu-west-1:123456789012:voice-org-webhookDispatch';

function dueEvent(correlationId: string | null = null): DomainEvent {
  return {
    id: `evt_${randomBytes(16).toString('hex')}`,
    type: 'webhook.delivery_due',
    occurred_at: '2026-11-01T10:00:00.000Z',
    org_id: 'org_a',
    actor: null,
    correlation_id: correlationId,
    resource: { type: 'webhook_delivery', id: `dlv_${'0'.repeat(32)}` },
    data: { webhook_id: 'wh_1', dispatch_id: 'dispatch_1' },
  };
}

/** The SQS record of a domain event as EventBridge puts it on a consumer's queue, at this receive. */
function queued(event: DomainEvent, receiveCount = 1, body?: string): SQSRecord {
  return {
    messageId: `msg-${event.id}`,
    receiptHandle: `receipt-${event.id}`,
    body: body ?? JSON.stringify({ version: '0', id: 'bridge-1', source: EVENT_SOURCE, 'detail-type': event.type, detail: event }),
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
      SentTimestamp: '0',
      SenderId: 'test',
      ApproximateFirstReceiveTimestamp: '0',
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: QUEUE_ARN,
    awsRegion: 'eu-west-1',
  };
}

const batch = (...records: SQSRecord[]): SQSEvent => ({ Records: records });
const failuresOf = (response: { batchItemFailures: { itemIdentifier: string }[] }) =>
  response.batchItemFailures.map((failure) => failure.itemIdentifier);

/** Lets every pending callback run, a bounded number of event-loop turns: a wait that needs no clock. */
async function turns(count: number, until: () => boolean): Promise<void> {
  for (let turn = 0; turn < count && !until(); turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

let loggedErrors: jest.SpyInstance;
beforeEach(() => {
  loggedErrors = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

describe('eventConsumer: a handler that asks for its message back later', () => {
  it('has the message delayed by retryLater for the seconds it asked, and reported as a batch item failure; the others are done', async () => {
    const retryLater = jest.fn(async (_record: SQSRecord, _seconds: number) => undefined);
    const retried = queued(dueEvent());
    const done = queued(dueEvent());
    const handler = eventConsumer(
      'webhookDispatch',
      async (event): Promise<ConsumerResult> => (event.id === JSON.parse(retried.body).detail.id ? { retryAfterSeconds: 42 } : undefined),
      { retryLater },
    );

    const response = await handler(batch(retried, done));

    expect(retryLater).toHaveBeenCalledTimes(1);
    expect(retryLater).toHaveBeenCalledWith(retried, 42);
    expect(failuresOf(response)).toEqual([retried.messageId]);
    // A scheduled retry is not an error.
    expect(loggedErrors).not.toHaveBeenCalled();
  });

  it('without retryLater, a message whose handler asks for a retry is reported as failed, and logged', async () => {
    const record = queued(dueEvent());
    const handler = eventConsumer('webhookDispatch', async () => ({ retryAfterSeconds: 42 }));

    expect(failuresOf(await handler(batch(record)))).toEqual([record.messageId]);
    expect(loggedErrors).toHaveBeenCalledWith(
      'event consumer failed',
      expect.objectContaining({
        consumer: 'webhookDispatch',
        message_id: record.messageId,
        attempt: 1,
        error: expect.stringContaining('no way to delay'),
      }),
    );
  });

  it('a retryLater that fails (SQS unavailable) still reports the message, so the queue retries it after its own timeout', async () => {
    const record = queued(dueEvent());
    const retryLater = jest.fn(async () => {
      throw new Error('SQS unavailable');
    });
    const handler = eventConsumer('webhookDispatch', async () => ({ retryAfterSeconds: 5 }), { retryLater });

    expect(failuresOf(await handler(batch(record)))).toEqual([record.messageId]);
    expect(loggedErrors).toHaveBeenCalledWith('event consumer failed', expect.objectContaining({ error: 'Error: SQS unavailable' }));
  });

  it('a handler that throws, or a message that is not a domain event, is reported and logged; retryLater is not asked', async () => {
    const retryLater = jest.fn(async () => undefined);
    const throwing = queued(dueEvent());
    const garbage = queued(dueEvent(), 1, '{"detail":{"id":"nope"}}');
    const handler = eventConsumer(
      'webhookDispatch',
      async () => {
        throw new Error('DynamoDB unavailable');
      },
      { retryLater },
    );

    expect(failuresOf(await handler(batch(throwing, garbage)))).toEqual([throwing.messageId, garbage.messageId]);
    expect(retryLater).not.toHaveBeenCalled();
    expect(loggedErrors).toHaveBeenCalledTimes(2);
  });

  it('tells the handler which receive this is, and whether it is the last before the dead-letter queue (webhookDispatch: 15)', async () => {
    const seen: Delivery[] = [];
    const handler = eventConsumer('webhookDispatch', async (_event, delivery) => {
      seen.push(delivery);
    });
    await handler(batch(queued(dueEvent(), 1), queued(dueEvent(), 14), queued(dueEvent(), 15)));
    expect(seen).toEqual([
      { attempt: 1, last: false },
      { attempt: 14, last: false },
      { attempt: 15, last: true },
    ]);
  });

  it('handles each message in a change context naming no actor and its event’s correlation id, in parallel too', async () => {
    const contexts: unknown[] = [];
    const handler = eventConsumer(
      'webhookDispatch',
      async () => {
        contexts.push(currentChangeContext());
      },
      { parallel: true },
    );
    await handler(batch(queued(dueEvent('corr-1')), queued(dueEvent('corr-2'))));
    expect(contexts).toEqual(
      expect.arrayContaining([
        { actor: null, correlationId: 'corr-1' },
        { actor: null, correlationId: 'corr-2' },
      ]),
    );
  });
});

describe('eventConsumer: parallel', () => {
  /** Two handlers that each wait for the other to have started: only a consumer running them at once lets both finish. */
  function waitingOnEachOther() {
    const started = new Set<string>();
    const order: string[] = [];
    const handle = async (event: DomainEvent): Promise<ConsumerResult> => {
      started.add(event.id);
      order.push(`start ${event.id}`);
      await turns(1000, () => started.size === 2);
      if (started.size !== 2) throw new Error('the other message was not being handled at the same time');
      order.push(`end ${event.id}`);
      return undefined;
    };
    return { handle, order };
  }

  it('with parallel: true, handles the batch’s messages at once', async () => {
    const { handle, order } = waitingOnEachOther();
    const [first, second] = [dueEvent(), dueEvent()];
    const response = await eventConsumer('webhookDispatch', handle, { parallel: true })(batch(queued(first), queued(second)));
    expect(failuresOf(response)).toEqual([]);
    expect(order.slice(0, 2)).toEqual([`start ${first.id}`, `start ${second.id}`]);
  });

  it('without it, one after another (the same handlers cannot both finish)', async () => {
    const { handle, order } = waitingOnEachOther();
    const [first, second] = [dueEvent(), dueEvent()];
    const response = await eventConsumer('webhookDispatch', handle)(batch(queued(first), queued(second)));
    expect(order).toEqual([`start ${first.id}`, `start ${second.id}`, `end ${second.id}`]);
    expect(failuresOf(response)).toEqual([`msg-${first.id}`]);
  });

  it('in parallel, each message still fails or is retried alone', async () => {
    const retryLater = jest.fn(async () => undefined);
    const [ok, failing, retrying] = [dueEvent(), dueEvent(), dueEvent()];
    const handler = eventConsumer(
      'webhookDispatch',
      async (event): Promise<ConsumerResult> => {
        if (event.id === failing.id) throw new Error('boom');
        return event.id === retrying.id ? { retryAfterSeconds: 300 } : undefined;
      },
      { parallel: true, retryLater },
    );
    const records = [queued(ok), queued(failing), queued(retrying)];
    expect(failuresOf(await handler(batch(...records)))).toEqual([records[1].messageId, records[2].messageId]);
    expect(retryLater).toHaveBeenCalledWith(records[2], 300);
  });
});

describe('queueUrlOf', () => {
  it('maps a queue ARN to its URL in its region', () => {
    expect(queueUrlOf('arn:aws:sqs:eu-west-1:123456789012:name')).toBe('https://sqs.eu-west-1.amazonaws.com/123456789012/name');
  });

  it('with an endpoint (the local SQS emulator), to the same path there', () => {
    expect(queueUrlOf('arn:aws:sqs:eu-west-1:123456789012:name', 'http://127.0.0.1:9324')).toBe('http://127.0.0.1:9324/123456789012/name');
  });

  it.each(['', 'not-an-arn', 'arn:aws:sqs:eu-west-1:123456789012', 'arn:aws:sqs::123456789012:name'])('refuses %j', (arn) => {
    expect(() => queueUrlOf(arn)).toThrow('Not an SQS queue ARN');
  });
});

describe('delayMessage', () => {
  const sqs = mockClient(SQSClient);
  beforeEach(() => {
    sqs.reset();
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    mockConfig.webhooks = { allowLocalUrls: false };
  });
  afterAll(() => sqs.restore());

  const visibilityOf = async (seconds: number) => {
    await delayMessage(queued(dueEvent()), seconds);
    return sqs.commandCalls(ChangeMessageVisibilityCommand).at(-1)?.args[0].input.VisibilityTimeout;
  };

  it('keeps the received message out of sight on its own queue for the seconds asked', async () => {
    const record = queued(dueEvent());
    await delayMessage(record, 42);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input)).toEqual([
      {
        QueueUrl: 'https://sqs.eu-west-1.amazonaws.com/123456789012/voice-org-webhookDispatch',
        ReceiptHandle: record.receiptHandle,
        VisibilityTimeout: 42,
      },
    ]);
  });

  it('never longer than 12 hours (SQS’s limit), in whole seconds, never negative', async () => {
    expect(await visibilityOf(43_200)).toBe(43_200);
    expect(await visibilityOf(47_520)).toBe(43_200);
    expect(await visibilityOf(1e9)).toBe(43_200);
    expect(await visibilityOf(4.6)).toBe(5);
    expect(await visibilityOf(-3)).toBe(0);
  });

  it('locally, on the SQS emulator’s queue URL', async () => {
    mockConfig.webhooks = { allowLocalUrls: true, sqsEndpoint: 'http://127.0.0.1:9324' };
    await delayMessage(queued(dueEvent()), 5);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)[0]?.args[0].input.QueueUrl).toBe(
      'http://127.0.0.1:9324/123456789012/voice-org-webhookDispatch',
    );
  });

  it('fails loudly when SQS refuses (the consumer then reports the message as failed)', async () => {
    sqs.on(ChangeMessageVisibilityCommand).rejects(
      Object.assign(new Error('Message does not exist or is not available for visibility timeout change'), {
        name: 'MessageNotInflight',
      }),
    );
    await expect(delayMessage(queued(dueEvent()), 5)).rejects.toThrow('visibility timeout');
  });
});
