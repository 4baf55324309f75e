import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayAuthorizerResult, APIGatewayProxyResult, DynamoDBBatchResponse, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { localBedrockModelMap } from '../../infra/local/bedrock-emulator';
import { lambdaContext } from '../../infra/local/lambda-events';
import { readDemoCredentials, type DemoCredentials } from '../../infra/local/demo';
import { JWKS_PATH } from '../../infra/local/identity-provider';
import { LOCAL } from '../../infra/local/local-config';
import { sampleDomainEvents } from '../../infra/sam/pipeline-events';
import { EVENTS_DIR, sampleEvents } from '../../infra/sam/function-events';
import { PLACEHOLDER_INVITE_TOKEN, PLACEHOLDER_ORG_KEY, placeholderSetup, SAMPLE_IDS } from '../../infra/sam/sample-setup';
import { parseModelCatalog } from '../../shared/config';
import { busEntry } from '../../shared/events/event-bus';
import { EVENT_CONSUMERS, type EventConsumerDefinition } from '../../shared/events/event-functions';
import { createTableContext, type TableContext } from '../../shared/storage/dynamo';
import { keys } from '../../shared/storage/keys';
import { sentEmails } from '../support/api';
import { EVENTUAL_MS, eventually } from '../support/eventually';
import { tokenIn } from '../support/invite-mail';
import { stagesSettled } from '../support/stages';
import { repoRoot, startLocalDeployment, stopLocalDeployment, type StartedDeployment } from '../support/local-deployment';

/**
 * The committed sample events (events/*.json, what `sam local invoke -e` sends) replayed as a
 * user replays them (docs/deploy.md): on a fresh `npm start` with its demo (a deployment of its
 * own, started as users start it), in the order the generator lists them, each through its
 * handler with the authorizer context the file carries. The only edits are the user's: the
 * authorizer's bearer becomes the printed ORG_KEY, and Accept invite's token the one emailed
 * to the invitee. Every event must be answered as the sample expects (2xx for each request).
 * The event processor publishes to EventBridge, which has no emulator: its client is mocked
 * here and the entries it puts are checked. test/unit/sample-events.test.ts checks the files
 * match the manifest.
 */
const setup = placeholderSetup();
const events = sampleEvents(setup);
const SAMPLE_BUS = 'voice-org-sample-bus';
const eventBridge = mockClient(EventBridgeClient);

let demo: StartedDeployment;
let credentials: DemoCredentials;
let db: TableContext;

type Handler = (event: unknown, context: unknown) => Promise<unknown>;

beforeAll(async () => {
  demo = await startLocalDeployment({ env: { LOCAL_SEED: 'demo', LOCAL_TTL_SWEEP_SECONDS: '0' } });
  credentials = readDemoCredentials(demo.dataDir)!;
  const { runtime } = demo;
  db = createTableContext({ tableName: runtime.tableName, region: runtime.region, endpoint: runtime.dynamoDbEndpoint });
  eventBridge.on(PutEventsCommand).callsFake((input: { Entries?: unknown[] }) => ({
    FailedEntryCount: 0,
    Entries: (input.Entries ?? []).map((_, i) => ({ EventId: `sample-${i}` })),
  }));
  // The functions' configuration, as npm start gives it (their config is parsed on first use).
  Object.assign(process.env, {
    TABLE_NAME: runtime.tableName,
    AWS_REGION: runtime.region,
    DYNAMODB_ENDPOINT: runtime.dynamoDbEndpoint,
    BUCKET_NAME: runtime.bucketName,
    S3_ENDPOINT: runtime.s3Endpoint,
    SES_ENDPOINT: runtime.sesEndpoint,
    // The Transcribe stand-in of the demo deployment (its jobs: the transcription's sample events find none of theirs).
    TRANSCRIBE_ENDPOINT: runtime.transcribeEndpoint,
    TRANSLATE_ENDPOINT: runtime.translateEndpoint,
    SEARCH_ENDPOINT: runtime.searchEndpoint,
    SEARCH_SIGNING: 'none',
    // The Bedrock stand-in and its local engine, as under npm start (Ask answers with it).
    BEDROCK_ENDPOINT: runtime.bedrockEndpoint,
    BEDROCK_MODEL_MAP: localBedrockModelMap(parseModelCatalog({}).active.map((model) => model.id)),
    IDEMPOTENCY_TABLE_NAME: LOCAL.idempotencyTableName,
    RATE_LIMIT_TABLE_NAME: LOCAL.rateLimitTableName,
    PROFILE_LOCAL_KEY_FILE: path.join(demo.dataDir, 'profile-key.bin'),
    ID_TOKEN_ISSUER: runtime.issuer,
    ID_TOKEN_AUDIENCE: runtime.audience,
    ID_TOKEN_JWKS_URL: `${runtime.apiUrl}${JWKS_PATH}`,
    WEBHOOK_ALLOW_LOCAL_URLS: 'true',
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    // The processor's bus (its PutEvents calls go to the EventBridge mock).
    EVENT_BUS_NAME: SAMPLE_BUS,
  });
}, 90_000);

afterAll(async () => {
  eventBridge.restore();
  db?.client.destroy();
  if (demo) {
    await stopLocalDeployment(demo.child);
    rmSync(demo.dataDir, { recursive: true, force: true });
  }
});

const handlerOf = (module: string): Handler => (require(path.join(repoRoot, module)) as { handler: Handler }).handler;
const committed = (file: string): unknown => JSON.parse(readFileSync(path.join(repoRoot, EVENTS_DIR, file), 'utf8'));

/** The token of the demo's invitation to the invitee, from the email the deployment sent (`npx voice-org mail list --to …`). */
async function emailedInviteToken(): Promise<string> {
  const emails = await eventually(
    () => sentEmails(SAMPLE_IDS.inviteeEmail, demo.runtime.sesEndpoint),
    (found) => found.length > 0,
  );
  if (!emails.length) throw new Error(`no invitation email to ${SAMPLE_IDS.inviteeEmail} within ${EVENTUAL_MS} ms`);
  return tokenIn(emails.at(-1)!);
}

/** A committed event as the user runs it: with their own ORG_KEY and the emailed invite token in place of the placeholders. */
async function asTheUserRunsIt(file: string): Promise<unknown> {
  let text = readFileSync(path.join(repoRoot, EVENTS_DIR, file), 'utf8').replaceAll(PLACEHOLDER_ORG_KEY, credentials.org_key);
  if (text.includes(PLACEHOLDER_INVITE_TOKEN)) text = text.replaceAll(PLACEHOLDER_INVITE_TOKEN, await emailedInviteToken());
  return JSON.parse(text);
}

it('the demo keys that the events name are the ones npm start printed', () => {
  expect(credentials).toMatchObject({ org_id: SAMPLE_IDS.orgId, personal_key_user_id: SAMPLE_IDS.memberId });
});

// In order: later events change what earlier ones read. Each runs once the stages earlier ones
// queued are done, as a user running them one by one would find the demo.
describe.each(events.map((e) => [`${EVENTS_DIR}/${e.file}`, e] as const))('%s', (_name, sample) => {
  it(`runs through ${sample.handler} on the demo`, async () => {
    await stagesSettled(db, SAMPLE_IDS.orgId);
    const result = await handlerOf(sample.handler)(await asTheUserRunsIt(sample.file), lambdaContext(path.basename(sample.handler)));

    if (sample.kind === 'authorizer') {
      // The demo's org key gets exactly the context every HTTP sample event carries.
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
      expect(sample.expectedStatus).toBeGreaterThanOrEqual(200);
      expect(sample.expectedStatus).toBeLessThan(300);
      expect(response.headers?.['x-correlation-id']).toBe(`sample-${sample.routeName}`);
    } else if (sample.kind === 's3') {
      expect(result).toBeUndefined();
      const { Item } = await db.client.send(
        new GetCommand({ TableName: db.tableName, Key: keys.recording(SAMPLE_IDS.orgId, SAMPLE_IDS.uploadRecordingId) }),
      );
      expect(Item).toMatchObject({ state: 'uploaded', upload: { uploaded_bytes: SAMPLE_IDS.uploadBytes } });
    } else if (sample.kind === 'stream') {
      // Every change of the batch is published, in order, on the configured bus.
      expect(result).toEqual<DynamoDBBatchResponse>({ batchItemFailures: [] });
      const entries = eventBridge.commandCalls(PutEventsCommand).flatMap((call) => call.args[0].input.Entries ?? []);
      expect(entries).toEqual(sampleDomainEvents(setup).map((event) => busEntry(event, SAMPLE_BUS)));
    } else if (sample.kind === 'scheduled') {
      // The transcription sweeper: nothing is due on the demo; it answers nothing.
      expect(result).toBeUndefined();
    } else {
      // Each queued event is handled (or recognised as nothing to do on the demo), none left to retry.
      expect(result).toEqual<SQSBatchResponse>({ batchItemFailures: [] });
      const consumer: EventConsumerDefinition = EVENT_CONSUMERS[sample.consumer!];
      // A domain event's type is its detail's; an AWS service event's (Transcribe's job state change) its detail-type.
      const types: readonly string[] = [...consumer.eventTypes, ...(consumer.serviceEvents ?? []).map((service) => service.detailType)];
      const queued = (committed(sample.file) as SQSEvent).Records.map((record) => {
        const body = JSON.parse(record.body);
        return body.source === 'voice-org-api' ? body.detail.type : body['detail-type'];
      });
      expect(queued.length).toBeGreaterThan(0);
      expect(queued.filter((type) => !types.includes(type))).toEqual([]);
    }
  });
});

it('sent the invitation emails of Send invite and Resend invite', async () => {
  const arrived = (to: string) =>
    eventually(
      () => sentEmails(to, demo.runtime.sesEndpoint),
      (found) => found.length > 0,
    );
  expect(await arrived(SAMPLE_IDS.newInviteEmail)).toHaveLength(1);
  // The demo's invitation, then the sample's resend of it.
  expect(
    (
      await eventually(
        () => sentEmails('rita.resend@demo.example', demo.runtime.sesEndpoint),
        (found) => found.length >= 2,
      )
    ).length,
  ).toBeGreaterThanOrEqual(2);
});
