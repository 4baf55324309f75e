import { readFileSync } from 'node:fs';
import { promises as dns } from 'node:dns';
import path from 'node:path';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayAuthorizerResult, APIGatewayProxyResult, DynamoDBBatchResponse, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { lambdaContext } from '../../infra/local/api-gateway';
import { JWKS_PATH } from '../../infra/local/identity-provider';
import { sampleDomainEvents } from '../../infra/sam/pipeline-events';
import { EVENTS_DIR, PLACEHOLDER_ORG_KEY, PLACEHOLDER_PERSONAL_KEY, placeholderSetup, sampleEvents, SAMPLE_IDS } from '../../infra/sam/sample-events';
import { busEntry } from '../../shared/events/event-bus';
import { EVENT_CONSUMERS } from '../../shared/routes';
import { keys } from '../../shared/storage/keys';
import { localDeployment, sentEmails } from '../support/api';
import { repoRoot } from '../support/local-deployment';
import { seedSampleData } from '../support/sample-data';

/**
 * The committed sample events (events/*.json, what `sam local invoke -e` sends) run through
 * their handlers against the shared local deployment's emulators, on the demo organization's
 * ids with the sample data loaded (the placeholder keys are real keys there). Every event
 * must be accepted and answered as the sample request expects, so the files stay valid.
 * The event processor publishes to EventBridge, which has no emulator: its client is mocked
 * here and the entries it puts are checked. test/unit/sample-events.test.ts checks the files
 * match the manifest.
 */
const { runtime, dataDir, db } = localDeployment();
const setup = placeholderSetup();
const events = sampleEvents(setup);
const SAMPLE_BUS = 'voice-org-sample-bus';
const eventBridge = mockClient(EventBridgeClient);

afterAll(() => eventBridge.restore());

type Handler = (event: unknown, context: unknown) => Promise<unknown>;

beforeAll(async () => {
  // Nothing resolves here: the sample endpoint's host (hooks.example.com) gets a public address, as it would in AWS.
  const resolve = dns.lookup.bind(dns);
  jest.spyOn(dns, 'lookup').mockImplementation(((hostname: string, options: unknown) =>
    hostname === new URL(SAMPLE_IDS.webhookUrl).hostname ? Promise.resolve([{ address: '93.184.215.14', family: 4 }]) : resolve(hostname, options as never)) as typeof dns.lookup);
  eventBridge.on(PutEventsCommand).callsFake((input: { Entries?: unknown[] }) => ({ FailedEntryCount: 0, Entries: (input.Entries ?? []).map((_, i) => ({ EventId: `sample-${i}` })) }));
  // The functions' configuration, as npm start gives it (their config is parsed on first use).
  Object.assign(process.env, {
    TABLE_NAME: runtime.tableName,
    AWS_REGION: runtime.region,
    DYNAMODB_ENDPOINT: runtime.dynamoDbEndpoint,
    BUCKET_NAME: runtime.bucketName,
    S3_ENDPOINT: runtime.s3Endpoint,
    SES_ENDPOINT: runtime.sesEndpoint,
    PROFILE_LOCAL_KEY_FILE: path.join(dataDir, 'profile-key.bin'),
    ID_TOKEN_ISSUER: runtime.issuer,
    ID_TOKEN_AUDIENCE: runtime.audience,
    ID_TOKEN_JWKS_URL: `${runtime.apiUrl}${JWKS_PATH}`,
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    // The processor's bus (its PutEvents calls go to the EventBridge mock).
    EVENT_BUS_NAME: SAMPLE_BUS,
  });
  await seedSampleData(db, SAMPLE_IDS, { orgKey: PLACEHOLDER_ORG_KEY, personalKey: PLACEHOLDER_PERSONAL_KEY });
});

const handlerOf = (module: string): Handler => (require(path.join(repoRoot, module)) as { handler: Handler }).handler;
const committed = (file: string): unknown => JSON.parse(readFileSync(path.join(repoRoot, EVENTS_DIR, file), 'utf8'));

// In order: later events change what earlier ones read.
describe.each(events.map((e) => [`${EVENTS_DIR}/${e.file}`, e] as const))('%s', (_name, sample) => {
  it(`runs through ${sample.handler}`, async () => {
    const result = await handlerOf(sample.handler)(committed(sample.file), lambdaContext(path.basename(sample.handler)));

    if (sample.kind === 'authorizer') {
      // The placeholder org key's context is the one every HTTP sample event carries.
      const { orgKey } = setup.credentials;
      expect(result).toEqual<APIGatewayAuthorizerResult>({
        principalId: orgKey.principalId,
        policyDocument: { Version: '2012-10-17', Statement: [expect.objectContaining({ Effect: 'Allow', Action: 'execute-api:Invoke' })] },
        context: orgKey.context,
      });
    } else if (sample.kind === 'http') {
      const response = result as APIGatewayProxyResult;
      // The reference routes answer HTML and JavaScript; every other route answers JSON.
      const body = /json/.test(String(response.headers?.['content-type'] ?? '')) ? JSON.parse(response.body) : {};
      // A failure's envelope is {success: false, error, message} (a webhook delivery has an `error` field of its own).
      const failure = body.success === false ? { error: body.error, message: body.message } : {};
      expect({ status: response.statusCode, ...failure }).toEqual({ status: sample.expectedStatus });
      expect(response.headers?.['x-correlation-id']).toBe(`sample-${sample.routeName}`);
    } else if (sample.kind === 's3') {
      expect(result).toBeUndefined();
      const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.recording(SAMPLE_IDS.orgId, SAMPLE_IDS.uploadRecordingId) }));
      expect(Item).toMatchObject({ state: 'uploaded', upload: { uploaded_bytes: SAMPLE_IDS.uploadBytes } });
    } else if (sample.kind === 'stream') {
      // Every change of the batch is published, in order, on the configured bus.
      expect(result).toEqual<DynamoDBBatchResponse>({ batchItemFailures: [] });
      const entries = eventBridge.commandCalls(PutEventsCommand).flatMap((call) => call.args[0].input.Entries ?? []);
      expect(entries).toEqual(sampleDomainEvents(setup).map((event) => busEntry(event, SAMPLE_BUS)));
    } else {
      // Each queued event is handled (or recognised as nothing to do on the sample data), none left to retry.
      expect(result).toEqual<SQSBatchResponse>({ batchItemFailures: [] });
      const types: readonly string[] = EVENT_CONSUMERS[sample.consumer!].eventTypes;
      const queued = (committed(sample.file) as SQSEvent).Records.map((record) => JSON.parse(record.body).detail.type);
      expect(queued.length).toBeGreaterThan(0);
      expect(queued.filter((type) => !types.includes(type))).toEqual([]);
    }
  });
});

it('sent the invitation emails of Send invite and Resend invite', async () => {
  expect(await sentEmails(SAMPLE_IDS.newInviteEmail)).toHaveLength(1);
  expect(await sentEmails('rita.resend@demo.example')).toHaveLength(1);
});
