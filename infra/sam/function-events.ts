import path from 'node:path';
import type {
  APIGatewayProxyEvent,
  APIGatewayTokenAuthorizerEvent,
  DynamoDBStreamEvent,
  S3Event,
  ScheduledEvent,
  SQSEvent,
} from 'aws-lambda';
import { AUTHORIZER } from '../../shared/auth/authorizer-function';
import { EVENT_CONSUMERS, EVENT_HANDLERS, EVENT_PROCESSOR, type EventConsumerName } from '../../shared/events/event-functions';
import { TRANSCRIPTION_SWEEPER, RETENTION_SWEEPER } from '../../shared/events/scheduled-functions';
import { SAMPLE_REQUESTS, type RouteName } from '../../shared/routes/manifest';
import { listHandlers } from '../function-list';
import { sampleConsumerEvent, sampleStreamEvent } from './pipeline-events';
import { sampleAuthorizerEvent, sampleProxyEvent, sampleUploadEvent } from './request-events';
import type { SampleSetup } from './sample-setup';

/**
 * One sample event per Lambda function of the stack, from the route manifest: REST proxy
 * events of each route's sample request (infra/sam/request-events.ts), the TOKEN authorizer
 * event, the S3 ObjectCreated event of the upload completion function, and the event
 * pipeline's: a table stream batch for the event processor and each consumer's queued events
 * (infra/sam/pipeline-events.ts). `npx tsx infra/sam/generate-events.ts` writes them to
 * events/<function>.json for `sam local invoke -e`; the tests run each through its handler.
 */

/** One function's sample event. */
export interface SampleEvent {
  /** File name under events/: the handler module's base name. */
  file: string;
  /** Handler module (functions/..., exports `handler`). */
  handler: string;
  kind: 'authorizer' | 'http' | 's3' | 'stream' | 'consumer' | 'scheduled';
  routeName?: RouteName;
  /** HTTP events: the status the handler answers on the sample data. */
  expectedStatus?: number;
  /** Consumer events: the consumer (EVENT_CONSUMERS) whose queue delivers them. */
  consumer?: EventConsumerName;
  event: APIGatewayTokenAuthorizerEvent | APIGatewayProxyEvent | S3Event | DynamoDBStreamEvent | SQSEvent | ScheduledEvent;
}

export const EVENTS_DIR = 'events';

/** events/<file> of a handler module. */
export function eventFileOf(handlerModule: string): string {
  return `${path.posix.basename(handlerModule)}.json`;
}

/**
 * Every function's sample event, in the order they run on one set of data: the authorizer,
 * the HTTP functions in manifest order, the upload completion, the event processor, then the
 * consumers in manifest order, and the transcription sweeper's schedule.
 */
export function sampleEvents(setup: SampleSetup): SampleEvent[] {
  const events: SampleEvent[] = [
    { file: eventFileOf(AUTHORIZER.handler), handler: AUTHORIZER.handler, kind: 'authorizer', event: sampleAuthorizerEvent(setup) },
    ...listHandlers().map(({ handler, routes }): SampleEvent => {
      const routeName = routes[0];
      const request = SAMPLE_REQUESTS[routeName](setup.ids);
      return {
        file: eventFileOf(handler),
        handler,
        kind: 'http',
        routeName,
        expectedStatus: request.status,
        event: sampleProxyEvent(setup, routeName, request),
      };
    }),
    {
      file: eventFileOf(EVENT_HANDLERS.completeUpload.handler),
      handler: EVENT_HANDLERS.completeUpload.handler,
      kind: 's3',
      event: sampleUploadEvent(setup),
    },
    { file: eventFileOf(EVENT_PROCESSOR.handler), handler: EVENT_PROCESSOR.handler, kind: 'stream', event: sampleStreamEvent(setup) },
    ...(Object.keys(EVENT_CONSUMERS) as EventConsumerName[]).map((consumer): SampleEvent => {
      const { handler } = EVENT_CONSUMERS[consumer];
      return { file: eventFileOf(handler), handler, kind: 'consumer', consumer, event: sampleConsumerEvent(setup, consumer) };
    }),
    ...[TRANSCRIPTION_SWEEPER, RETENTION_SWEEPER].map((sweeper) => ({
      file: eventFileOf(sweeper.handler),
      handler: sweeper.handler,
      kind: 'scheduled' as const,
      event: sampleScheduledEvent(setup),
    })),
  ];
  const files = events.map((e) => e.file);
  const repeated = files.filter((file, i) => files.indexOf(file) !== i);
  if (repeated.length) throw new Error(`two functions would share the sample event file ${repeated.join(', ')}`);
  return events;
}

/** The EventBridge schedule's event that starts the transcription sweeper (it reads only the time: the sweeper reads its own clock). */
function sampleScheduledEvent(setup: SampleSetup): ScheduledEvent {
  return {
    version: '0',
    id: '7d3e9c1a-2b4f-4c6d-8e0a-1f2b3c4d5e6f',
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '123456789012',
    time: '2026-11-16T09:35:00Z',
    region: setup.region,
    resources: [`arn:aws:events:${setup.region}:123456789012:rule/VoiceOrgApi-${setup.stage}-TranscriptionSweeperSchedule-EXAMPLE`],
    detail: {},
  };
}

/** A sample event file's text: pretty JSON with a final newline. */
export function eventFileText(event: SampleEvent['event']): string {
  return `${JSON.stringify(event, null, 2)}\n`;
}
