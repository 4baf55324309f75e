import type { SQSEvent } from 'aws-lambda';
import { randomBytes } from 'node:crypto';
import { EVENT_SOURCE, type DomainEvent } from '../../shared/events/event-catalog';

/** A domain event with test defaults; `overrides` names what the test cares about. */
export function domainEvent(overrides: Partial<DomainEvent> & Pick<DomainEvent, 'type' | 'org_id' | 'resource'>): DomainEvent {
  return {
    id: `evt_${randomBytes(16).toString('hex')}`,
    occurred_at: new Date().toISOString(),
    actor: null,
    correlation_id: null,
    data: {},
    ...overrides,
  };
}

/** The SQS event a consumer's queue delivers for these domain events (as EventBridge puts them on it), at this delivery attempt. */
export function queuedEvents(events: DomainEvent[], attempt = 1): SQSEvent {
  return {
    Records: events.map((event, index) => ({
      messageId: `msg-${index}-${event.id}`,
      receiptHandle: 'test',
      body: JSON.stringify({ version: '0', id: randomBytes(8).toString('hex'), source: EVENT_SOURCE, 'detail-type': event.type, detail: event }),
      attributes: { ApproximateReceiveCount: String(attempt), SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:test',
      awsRegion: 'us-east-1',
    })),
  };
}
