/**
 * The first invocation of a bundle, as a cold start pays it: a fresh node process
 * (with --enable-source-maps, as the functions' NODE_OPTIONS has it) imports the bundle, then
 * invokes its handler once with a realistic event against the local deployment's emulators
 * (DynamoDB Local, s3rver, the SES emulator), started as the integration tests' global setup
 * starts it. process.cpuUsage() gives the CPU of the import and of import + invocation.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { lambdaContext } from '../../../infra/local/lambda-events';
import { JWKS_PATH } from '../../../infra/local/identity-provider';
import { LOCAL } from '../../../infra/local/local-config';
import type { BundledFunction } from '../../../infra/sam/assembly';
import { sampleEvents, type SampleEvent } from '../../../infra/sam/function-events';
import { sampleAuthorizerEvent } from '../../../infra/sam/request-events';
import type { SampleSetup } from '../../../infra/sam/sample-setup';
import { generateApiKey } from '../../../shared/auth/api-key-secrets';
import type { CredentialName } from '../../../shared/routes/sample-request';
import { startLocalDeployment, stopLocalDeployment, type StartedDeployment } from '../../support/local-deployment';
import { sampleIds, seedSampleData } from '../../support/sample-data';

/** Runs in a fresh node: import, then one invocation; prints the CPU (ms) of each step and the answer's status. */
const RUNNER = `
import { pathToFileURL } from 'node:url';
const { file, event, context } = JSON.parse(process.env.BENCH_INVOCATION);
const started = process.cpuUsage();
const { handler } = await import(pathToFileURL(file).href);
const loaded = process.cpuUsage(started);
const deadline = Date.now() + 30_000;
let result, error;
try {
  result = await handler(event, { ...context, getRemainingTimeInMillis: () => deadline - Date.now(), done() {}, fail() {}, succeed() {} });
} catch (e) {
  error = String(e?.message ?? e);
}
const used = process.cpuUsage(started);
const ms = (u) => (u.user + u.system) / 1000;
const report = { load_cpu_ms: ms(loaded), first_cpu_ms: ms(used), status: result?.statusCode, error };
if (process.env.BENCH_KEEP_RESULT) report.result = result;
process.stdout.write('\\n' + JSON.stringify(report), () => process.exit(0));
`;

/** Longer than any sample invocation takes on a busy machine. */
const INVOCATION_TIMEOUT_MS = 60_000;

export interface FirstInvocation {
  load_cpu_ms: number;
  first_cpu_ms: number;
  status?: number;
  error?: string;
  result?: unknown;
}

/** A local deployment with sample data, and what a function's bundle needs to run against it. */
export interface InvocationBench {
  /** One fresh-process import + invocation of a bundle with an event. */
  invoke(
    file: string,
    environment: Record<string, unknown>,
    event: unknown,
    functionName: string,
    keepResult?: boolean,
  ): Promise<FirstInvocation>;
  /** The sample event of a function (infra/sam's, on this deployment's data). */
  sampleOf(handlerModule: string): SampleEvent;
  /** The environment a bare handler gets (its table, DynamoDB Local). */
  bareEnvironment(): Record<string, string>;
  stop(): Promise<void>;
}

/** Answers PutEvents (the event processor's) and keeps nothing: no EventBridge emulator runs locally. */
async function startFakeEventBridge(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const { Entries = [] } = JSON.parse(body || '{}') as { Entries?: unknown[] };
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
      response.end(JSON.stringify({ FailedEntryCount: 0, Entries: Entries.map((_, i) => ({ EventId: `bench-${i}` })) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Starts a local deployment, seeds the sample data and resolves the sample credentials with the authorizer bundle. */
export async function startInvocationBench(authorizer: BundledFunction): Promise<InvocationBench> {
  const deployment: StartedDeployment = await startLocalDeployment({
    env: { LOCAL_AUTHORIZER_CACHE_SECONDS: '0', RATE_LIMIT_DEFAULT_RATE: '10000', RATE_LIMIT_DEFAULT_BURST: '100000' },
  });
  const { runtime, dataDir } = deployment;
  process.env.TEST_LOCAL_DATA_DIR = dataDir;
  const bridge = await startFakeEventBridge();
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'voice-org-first-invocation-'));
  const runner = path.join(scratch, 'run-once.mjs');
  writeFileSync(runner, RUNNER);
  const credentialsEnv = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' };

  /** A function's environment: its template's, references resolved to the deployment (as test/integration/artefacts.test.ts does). */
  const localEnvironment = (environment: Record<string, unknown>): Record<string, string> => {
    const env: Record<string, string> = {
      AWS_REGION: runtime.region,
      DYNAMODB_ENDPOINT: runtime.dynamoDbEndpoint,
      POWERTOOLS_LOG_LEVEL: 'ERROR',
      ...credentialsEnv,
    };
    const references: Record<string, () => Record<string, string>> = {
      TABLE_NAME: () => ({ TABLE_NAME: runtime.tableName }),
      IDEMPOTENCY_TABLE_NAME: () => ({ IDEMPOTENCY_TABLE_NAME: LOCAL.idempotencyTableName }),
      RATE_LIMIT_TABLE_NAME: () => ({
        RATE_LIMIT_TABLE_NAME: LOCAL.rateLimitTableName,
        RATE_LIMIT_DEFAULT_RATE: '10000',
        RATE_LIMIT_DEFAULT_BURST: '100000',
      }),
      BUCKET_NAME: () => ({
        BUCKET_NAME: runtime.bucketName,
        S3_ENDPOINT: runtime.s3Endpoint,
        ...(runtime.transcribeEndpoint ? { TRANSCRIBE_ENDPOINT: runtime.transcribeEndpoint } : {}),
      }),
      ID_TOKEN_ISSUER: () => ({ ID_TOKEN_ISSUER: runtime.issuer }),
      ID_TOKEN_AUDIENCE: () => ({ ID_TOKEN_AUDIENCE: runtime.audience }),
      ID_TOKEN_JWKS_URL: () => ({ ID_TOKEN_JWKS_URL: `${runtime.apiUrl}${JWKS_PATH}` }),
      PROFILE_KMS_KEY_ARN: () => ({ PROFILE_LOCAL_KEY_FILE: path.join(dataDir, 'profile-key.bin'), WEBHOOK_ALLOW_LOCAL_URLS: 'true' }),
      EVENT_BUS_NAME: () => ({ EVENT_BUS_NAME: 'voice-org-bench', AWS_ENDPOINT_URL_EVENTBRIDGE: bridge.url }),
    };
    for (const [name, value] of Object.entries(environment)) {
      if (name === 'NODE_OPTIONS') continue;
      if (typeof value === 'string') env[name] = value;
      else if (references[name]) Object.assign(env, references[name]());
    }
    if (env.SES_FROM_ADDRESS) env.SES_ENDPOINT = runtime.sesEndpoint;
    return env;
  };

  // Asynchronous, so that this process keeps answering the bundle's calls to the fake EventBridge meanwhile.
  const run = promisify(execFile);
  const invoke: InvocationBench['invoke'] = async (file, environment, event, functionName, keepResult = false) => {
    const { getRemainingTimeInMillis, done, fail, succeed, ...context } = lambdaContext(functionName);
    let out: string;
    try {
      ({ stdout: out } = await run(process.execPath, ['--enable-source-maps', runner], {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: os.tmpdir(),
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          POWERTOOLS_METRICS_DISABLED: 'false',
          ...localEnvironment(environment),
          BENCH_INVOCATION: JSON.stringify({ file, event, context }),
          ...(keepResult ? { BENCH_KEEP_RESULT: 'true' } : {}),
        },
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        // A handler that never settles (it would keep a cold start waiting in Lambda too) is reported, not waited on.
        timeout: INVOCATION_TIMEOUT_MS,
      }));
    } catch (error) {
      return { load_cpu_ms: Number.NaN, first_cpu_ms: Number.NaN, error: `no answer: ${(error as Error).message.split('\n')[0]}` };
    }
    return JSON.parse(out.trim().split('\n').pop()!) as FirstInvocation;
  };

  // The sample data, and each sample credential resolved by the real authorizer bundle.
  const ids = sampleIds('bench');
  const orgKey = generateApiKey('org_key');
  const personalKey = generateApiKey('user_key');
  const { localDeployment, idTokenFor } = await import('../../support/api');
  await seedSampleData(localDeployment().db, ids, { orgKey, personalKey });
  const bearer: Record<CredentialName, string> = {
    orgKey: `Bearer ${orgKey}`,
    personalKey: `Bearer ${personalKey}`,
    idToken: `Bearer ${await idTokenFor({ id: `${ids.orgId}_invitee`, email: ids.inviteeEmail })}`,
    ownerToken: `Bearer ${await idTokenFor({ id: `${ids.orgId}_owner_subject`, email: ids.ownerEmail })}`,
  };
  const pending = { stage: 'bench', region: runtime.region, bucketName: runtime.bucketName, ids };
  const credentials = {} as SampleSetup['credentials'];
  for (const name of Object.keys(bearer) as CredentialName[]) {
    const event = sampleAuthorizerEvent(
      { ...pending, credentials: { [name]: { authorization: bearer[name], principalId: '', context: {} } } as SampleSetup['credentials'] },
      name,
    );
    const { result } = await invoke(authorizer.bundleFile, authorizer.environment, event, 'authorizer', true);
    const answer = result as APIGatewayAuthorizerResult;
    credentials[name] = {
      authorization: bearer[name],
      principalId: answer.principalId,
      context: answer.context as SampleSetup['credentials'][CredentialName]['context'],
    };
  }
  const samples = sampleEvents({ ...pending, credentials });

  return {
    invoke,
    sampleOf: (handlerModule) => {
      const sample = samples.find((s) => s.handler === handlerModule);
      if (!sample) throw new Error(`no sample event for ${handlerModule}`);
      return sample;
    },
    bareEnvironment: () => ({ TABLE_NAME: runtime.tableName, AWS_ENDPOINT_URL_DYNAMODB: runtime.dynamoDbEndpoint }),
    stop: async () => {
      await new Promise<void>((resolve) => bridge.server.close(() => resolve()));
      await stopLocalDeployment(deployment.child);
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
