import type { SQSEvent } from 'aws-lambda';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { EVENT_SOURCE, type DomainEvent } from '../../shared/schemas/event-catalog';
import { localDeployment } from './api';
import { eventually } from './eventually';

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
      body: JSON.stringify({
        version: '0',
        id: randomBytes(8).toString('hex'),
        source: EVENT_SOURCE,
        'detail-type': event.type,
        detail: event,
      }),
      attributes: { ApproximateReceiveCount: String(attempt), SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:test',
      awsRegion: 'us-east-1',
    })),
  };
}

/** The events the shared local deployment put on its bus so far, of one organization, in order (its events.jsonl). */
export function publishedEvents(orgId: string): DomainEvent[] {
  const file = path.join(localDeployment().dataDir, 'events.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as DomainEvent)
    .filter((event) => event.org_id === orgId);
}

/** Waits until the organization's events include every one of `types` (for `resourceId` when given), and returns them all. */
export async function eventsInclude(orgId: string, types: DomainEvent['type'][], resourceId?: string): Promise<DomainEvent[]> {
  const wanted = (events: DomainEvent[]) =>
    types.every((type) => events.some((event) => event.type === type && (!resourceId || event.resource.id === resourceId)));
  return eventually(async () => publishedEvents(orgId), wanted);
}
