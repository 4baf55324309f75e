import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { config } from '../config';
import { traced } from '../observability/tracer';
import { EVENT_SOURCE, type DomainEvent } from '../schemas/event-catalog';

/** Puts domain events on the bus; resolves only when every one was accepted. */
export type EventPublisher = (events: readonly DomainEvent[]) => Promise<void>;

/** EventBridge takes at most 10 entries per PutEvents. */
const PUT_EVENTS_LIMIT = 10;

/** The EventBridge entry of a domain event: the service's source, the event type as detail-type, the envelope as detail. */
export function busEntry(event: DomainEvent, busName: string) {
  return {
    EventBusName: busName,
    Source: EVENT_SOURCE,
    DetailType: event.type,
    Time: new Date(event.occurred_at),
    Detail: JSON.stringify(event),
  };
}

/**
 * Publishes to an EventBridge bus, 10 entries per request. Entries EventBridge refuses
 * (FailedEntryCount) make it throw, so the stream batch is retried; consumers are
 * idempotent by event id, so the entries that did go through are harmless to send again.
 */
export function eventBridgePublisher(options: { busName: string; region: string }): EventPublisher {
  const client = traced(new EventBridgeClient({ region: options.region }));
  return async (events) => {
    for (let i = 0; i < events.length; i += PUT_EVENTS_LIMIT) {
      const entries = events.slice(i, i + PUT_EVENTS_LIMIT).map((event) => busEntry(event, options.busName));
      const result = await client.send(new PutEventsCommand({ Entries: entries }));
      if (result.FailedEntryCount) {
        const codes = [...new Set((result.Entries ?? []).map((entry) => entry.ErrorCode).filter(Boolean))];
        throw new Error(`EventBridge refused ${result.FailedEntryCount} of ${entries.length} events (${codes.join(', ')})`);
      }
    }
  };
}

let shared: EventPublisher | undefined;

/** The function's publisher: the configured bus, created once per module. */
export function eventPublisher(): EventPublisher {
  if (!shared) {
    const { events, region } = config();
    if (!events.busName) throw new Error('EVENT_BUS_NAME is not set: the event processor needs the bus to publish to');
    shared = eventBridgePublisher({ busName: events.busName, region });
  }
  return shared;
}
