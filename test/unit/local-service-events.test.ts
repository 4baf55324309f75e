import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { ConsumerQueue } from '../../infra/local/consumer-queue';
import type { QueueEmulator } from '../../infra/local/queue-emulator';
import { serviceEvent } from '../../infra/local/service-event';
import type { EventConsumerDefinition, EventConsumerName } from '../../shared/events/event-functions';
import { eventually } from '../support/eventually';

/**
 * AWS service events on the local bus (event-pipeline.ts putServiceEvent): a consumer's queue
 * takes the ones its definition names (serviceEvents) and delivers each as the SQS body the
 * stack's rule on the default bus would: the service's EventBridge event itself.
 */
let dir: string;
const delivered: SQSEvent[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'service-events-'));
  writeFileSync(
    path.join(dir, 'capture.js'),
    'exports.handler = async (event) => { globalThis.__serviceEvents.push(event); return { batchItemFailures: [] }; };',
  );
  (globalThis as unknown as { __serviceEvents: SQSEvent[] }).__serviceEvents = delivered;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const definition = (serviceEvents?: EventConsumerDefinition['serviceEvents']): EventConsumerDefinition => ({
  handler: 'capture.js',
  summary: 'test',
  eventTypes: [],
  serviceEvents,
  maxAttempts: 1,
  retryAfterSeconds: 1,
  permissions: {},
});
const queueOf = (serviceEvents?: EventConsumerDefinition['serviceEvents']) =>
  new ConsumerQueue('test' as EventConsumerName, definition(serviceEvents), {
    repoRoot: dir,
    dataDir: dir,
    retryDelayMs: 10,
    queues: { takeVisibility: () => undefined } as unknown as QueueEmulator,
    queueDelayScale: 1,
  });

it('delivers a matching service event as its EventBridge envelope, and ignores the others', async () => {
  const matching = queueOf([{ source: 'aws.transcribe', detailType: 'Transcribe Job State Change' }]);
  const other = queueOf();
  const event = serviceEvent(
    'aws.transcribe',
    'Transcribe Job State Change',
    { TranscriptionJobName: 'voice-org-rec_1-1', TranscriptionJobStatus: 'COMPLETED' },
    { region: 'us-east-1' },
  );
  matching.offerServiceEvent(event);
  matching.offerServiceEvent({ ...event, source: 'aws.s3' });
  other.offerServiceEvent(event);
  matching.start();
  other.start();
  await eventually(
    async () => delivered.length,
    (count) => count > 0,
  );
  await Promise.all([matching.stop(), other.stop()]);
  expect(delivered).toHaveLength(1);
  expect(delivered[0].Records).toHaveLength(1);
  expect(JSON.parse(delivered[0].Records[0].body)).toEqual(event);
  expect(event).toMatchObject({
    version: '0',
    account: '111122223333',
    region: 'us-east-1',
    resources: [],
    time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
  });
});
