import { fork, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Context,
  DynamoDBBatchResponse,
  SQSBatchResponse,
} from 'aws-lambda';
import { App } from 'aws-cdk-lib';
import { lambdaContext } from '../../infra/local/lambda-events';
import { JWKS_PATH } from '../../infra/local/identity-provider';
import { LOCAL } from '../../infra/local/local-config';
import { localBedrockModelMap } from '../../infra/local/bedrock-emulator';
import { parseModelCatalog } from '../../shared/config';
import { RouteStack } from '../../infra/constructs/route-stack';
import { listRouteAreas } from '../../infra/route-areas';
import { bundledFunctions, bundleSources, type BundledFunction } from '../../infra/sam/assembly';
import { sampleDomainEvents } from '../../infra/sam/pipeline-events';
import { PERSONAL_KEY_SCOPES, type SampleSetup } from '../../infra/sam/sample-setup';
import { sampleAuthorizerEvent, sampleProxyEvent } from '../../infra/sam/request-events';
import { sampleEvents, type SampleEvent } from '../../infra/sam/function-events';
import type { CredentialName } from '../../shared/routes/sample-request';
import { VoiceOrgStack } from '../../infra/stack';
import { SCOPES } from '../../shared/core/access';
import { openApiDocument } from '../../shared/openapi/document';
import { REFERENCE_FILES, SCALAR_BUNDLE_SOURCE } from '../../shared/openapi/reference-files';
import { REFERENCE_ASSETS } from '../../shared/routes/docs/reference-paths';
import { generateApiKey } from '../../shared/auth/api-key-secrets';
import { AUTHENTICATION_FAILURE_MESSAGES } from '../../shared/auth/bearer-credentials';
import { EVENT_SOURCE } from '../../shared/schemas/event-catalog';
import { AUTHORIZER } from '../../shared/auth/authorizer-function';
import { EVENT_CONSUMERS, EVENT_HANDLERS, EVENT_PROCESSOR } from '../../shared/events/event-functions';
import { listFunctions, listHandlers } from '../../infra/function-list';
import { ROUTES, type RouteName } from '../../shared/routes/manifest';
import { takesIdempotencyKey } from '../../shared/routes/route-definition';
import type { FunctionPermissions } from '../../shared/function-permissions';
import { keys } from '../../shared/storage/keys';
import { idTokenFor, localDeployment } from '../support/api';
import { emailsTo } from '../support/invite-mail';
import { routeTexts, verbatimFragment } from '../support/route-texts';
import { sampleEmailDomain, sampleIds, seedSampleData } from '../support/sample-data';

/**
 * The built artefacts work: the app is synthesized with bundling (local esbuild, as
 * `npx cdk synth` does), and each Lambda function's bundle is loaded from the cloud assembly
 * (asset.<hash>/index.mjs, an ES module, not the TypeScript source) in a node process of its
 * own, with the environment its template declares, pointed at the shared local deployment's emulators. Each is invoked with a
 * realistic event (the sample events of infra/sam, on data of its own, with the authorizer
 * context the real authorizer bundle gives real credentials) and must answer correctly.
 * Bundle sizes are printed; a bundle must carry no AWS client its function does not use, no
 * tracing SDK, and the idempotency utility only when its route takes Idempotency-Key. Each runs
 * in the default tracing mode (`lambda`) with a sampled trace header and a UDP socket standing
 * for the X-Ray daemon, which receives the subsegment of each invocation.
 */
const STACK_NAME = 'VoiceOrgApi-artefacts';
const repoRoot = path.resolve(__dirname, '../..');
const { runtime, dataDir, db } = localDeployment();

/** What a function's role may do, from the function list (infra/function-list.ts: routes, the authorizer, event functions). */
const permissionsOf = (handler: string): FunctionPermissions => {
  const definition = listFunctions().find((f) => f.handler === handler);
  if (!definition) throw new Error(`${handler} is not a function of the manifest`);
  return definition.permissions;
};

/** The AWS clients a bundle may carry, each only when its function has the permission that uses it. */
const CLIENTS = [
  {
    name: 'DynamoDB',
    permissions: ['table', 'idempotency', 'rateLimit'],
    pkg: '@aws-sdk/client-dynamodb',
    markers: ['DynamoDBClient', 'DynamoDB_20120810'],
  },
  { name: 'KMS', permissions: ['profileKey', 'webhookSecretKey'], pkg: '@aws-sdk/client-kms', markers: ['KMSClient', 'TrentService'] },
  { name: 'SES', permissions: ['mail'], pkg: '@aws-sdk/client-sesv2', markers: ['SESv2Client', 'SimpleEmailService_v2'] },
  { name: 'S3', permissions: ['bucket', 'exportObjects', 'vocabularyFiles'], pkg: '@aws-sdk/client-s3', markers: ['S3Client', 'AmazonS3'] },
  { name: 'EventBridge', permissions: ['events'], pkg: '@aws-sdk/client-eventbridge', markers: ['EventBridgeClient', 'AWSEvents'] },
  { name: 'SQS', permissions: ['queue'], pkg: '@aws-sdk/client-sqs', markers: ['SQSClient', 'AmazonSQS'] },
] as const satisfies readonly {
  name: string;
  permissions: readonly (keyof FunctionPermissions)[];
  pkg: string;
  markers: readonly string[];
}[];

/** A bundle's size budget: the largest today (KMS encryption SDK) is about 1 MB minified. */
const MAX_BUNDLE_BYTES = 2 * 1024 * 1024;

let outdir: string;
let synthSeconds: number;
let functions: BundledFunction[];

beforeAll(() => {
  outdir = mkdtempSync(path.join(os.tmpdir(), 'voice-org-cdk-out-'));
  const started = Date.now();
  // As `npx cdk synth` does: asset metadata in the template (what sam local reads), bundling on.
  const app = new App({ outdir, context: { 'aws:cdk:enable-asset-metadata': true, 'aws:cdk:enable-path-metadata': true } });
  new VoiceOrgStack(app, STACK_NAME, { stage: 'test' });
  app.synth();
  synthSeconds = (Date.now() - started) / 1000;
  functions = bundledFunctions(outdir, STACK_NAME);
}, 300_000);

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

const functionOf = (handler: string) => {
  const fn = functions.find((f) => f.handlerModule === handler);
  if (!fn) throw new Error(`no bundled function for ${handler}`);
  return fn;
};

describe('the cloud assembly', () => {
  it('has one bundled function per function of the manifest (listFunctions)', () => {
    const expected = listFunctions().map((f) => f.handler);
    expect(functions.map((f) => f.handlerModule).sort()).toEqual(expected.sort());
    for (const fn of functions) expect(fn.handler).toBe('index.handler');
  });

  it("finds each route area's functions in its route stack's template, addressed for sam local invoke as <route stack>/<function>", () => {
    const nested = listRouteAreas().filter((area) => !area.inRoot);
    for (const fn of functions) {
      const area = nested.find((a) => a.functions.some((f) => f.handler === fn.handlerModule));
      const construct = fn.constructPath.split('/').at(-1);
      expect({
        handler: fn.handlerModule,
        nestedStack: fn.nestedStack,
        samFunctionId: fn.samFunctionId,
        nestedTemplate: fn.templateFile.endsWith('.nested.template.json'),
      }).toEqual({
        handler: fn.handlerModule,
        nestedStack: area ? RouteStack.idOf(area.area) : undefined,
        samFunctionId: area ? `${RouteStack.idOf(area.area)}/${construct}` : fn.logicalId,
        nestedTemplate: Boolean(area),
      });
      // A route stack's parameters are given as the root stack's values: no function reads a parameter of its own stack.
      for (const value of Object.values(fn.environment)) expect(JSON.stringify(value)).not.toMatch(/"Ref":"[A-Z][A-Za-z]*(Name|Arn)"/);
    }
  });

  it('bundles every function as an ES module (index.mjs), which the Lambda runtime and sam local load as one', () => {
    expect(functions.filter((fn) => path.basename(fn.bundleFile) !== 'index.mjs').map((fn) => fn.handlerModule)).toEqual([]);
  });

  it('keeps every bundle within its size budget, with a source map (sizes printed)', () => {
    const rows = functions
      .map((fn) => ({
        fn,
        mapBytes: readFileSync(`${fn.bundleFile}.map`).length,
        clients: bundleSources(fn.bundleFile).packages.filter((p) => p.startsWith('@aws-sdk/client-')),
      }))
      .sort((a, b) => b.fn.bundleBytes - a.fn.bundleBytes);
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`.padStart(10);
    console.log(
      [
        `Synthesized ${STACK_NAME} with ${functions.length} bundled functions in ${synthSeconds.toFixed(1)} s`,
        `${'function'.padEnd(40)} ${'bundle'.padStart(10)} ${'map'.padStart(10)}  AWS clients`,
        ...rows.map(
          ({ fn, mapBytes, clients }) =>
            `${fn.handlerModule.replace(/^functions\//, '').padEnd(40)} ${kb(fn.bundleBytes)} ${kb(mapBytes)}  ${clients.map((c) => c.replace('@aws-sdk/client-', '')).join(', ')}`,
        ),
        `${'total'.padEnd(40)} ${kb(functions.reduce((sum, fn) => sum + fn.bundleBytes, 0))}`,
      ].join('\n'),
    );
    for (const { fn, mapBytes } of rows) {
      expect({ handler: fn.handlerModule, small: fn.bundleBytes <= MAX_BUNDLE_BYTES }).toEqual({ handler: fn.handlerModule, small: true });
      expect(fn.bundleBytes).toBeGreaterThan(1024);
      expect(mapBytes).toBeGreaterThan(0);
    }
  });

  /** A module of shared/routes that defines no route and is none of the manifest's machinery: plain data (the docs' paths), which a handler may carry. */
  const isRouteData = (file: string) =>
    !/\/(manifest|route-docs|sample-request|demo-examples|[\w-]+-routes)\.ts$/.test(file) &&
    !readFileSync(path.join(repoRoot, file), 'utf8').includes('defineRoute(');

  it("carries in each route's bundle its own route's definition alone: no other route module nor the manifest, no route's docs or examples, no other route's summary or request schemas", () => {
    const texts = routeTexts();
    const sourceText = new Map<string, string>();
    const found = listHandlers().map(({ handler, routes: [routeName] }) => {
      const fn = functionOf(handler);
      const text = readFileSync(fn.bundleFile, 'utf8');
      const { own } = bundleSources(fn.bundleFile);
      // A text that a module the function runs holds itself (an event type, a model name, a description a schema helper shares) is no route's.
      const runs = own
        .filter((file) => !file.startsWith('shared/routes/'))
        .map((file) => sourceText.get(file) ?? sourceText.set(file, readFileSync(path.join(repoRoot, file), 'utf8')).get(file)!);
      const holds = (fragment: string | undefined) =>
        fragment !== undefined && text.includes(fragment) && !runs.some((source) => source.includes(fragment));
      const others = texts.filter((t) => t.routeName !== routeName);
      const mine = texts.find((t) => t.routeName === routeName)!;
      return {
        handler,
        // Its route module (and the helpers that define routes) only: not the manifest, an area's list, another route's
        // module, the document's generator or a response schema.
        modules: own.filter(
          (file) =>
            (file.startsWith('shared/routes/') && file !== 'shared/routes/route-definition.ts' && !isRouteData(file)) ||
            /^shared\/openapi\/(document|refusals|components)\.ts$/.test(file) ||
            /^shared\/schemas\/(.+-responses|envelopes)\.ts$/.test(file),
        ),
        ownSummary: text.includes(verbatimFragment(mine.summary, 12) ?? mine.summary),
        otherSummaries: others.filter((t) => holds(verbatimFragment(t.summary, 12))).map((t) => t.routeName),
        docs: texts.flatMap((t) => t.docs.filter(holds).map((fragment) => `${t.routeName}: ${fragment}`)),
        // A schema module the function needs (for its own route, or its domain) comes whole, its other schemas with it (esbuild
        // keeps every top-level valibot call of a module it bundles): those are exempt above. No other request schema may be here.
        otherRequestSchemas: others.flatMap((t) =>
          t.requestSchemas.flatMap((s) => s.descriptions.filter(holds).map((fragment) => `${t.routeName}: ${fragment}`)),
        ),
        ownRequestSchemas: mine.requestSchemas.every(
          (s) => s.descriptions.length === 0 || s.descriptions.some((fragment) => text.includes(fragment)),
        ),
      };
    });
    expect(found).toEqual(
      found.map(({ handler }) => ({
        handler,
        modules: [expect.stringMatching(new RegExp(`^shared/routes/[a-z-]+/${path.basename(handler)}\\.ts$`))],
        ownSummary: true,
        otherSummaries: [],
        docs: [],
        otherRequestSchemas: [],
        ownRequestSchemas: true,
      })),
    );
  });

  it('bundles no KMS, SES or S3 client into List users', () => {
    const text = readFileSync(functionOf('functions/users/list-users').bundleFile, 'utf8');
    for (const marker of ['KMSClient', 'TrentService', 'SESv2Client', 'SimpleEmailService_v2', 'S3Client', 'AmazonS3'])
      expect(text).not.toContain(marker);
    expect(text).toContain('DynamoDBClient');
  });

  it("bundles into each function exactly the AWS clients its role's permissions use", () => {
    const found = functions.map((fn) => {
      const text = readFileSync(fn.bundleFile, 'utf8');
      const { packages } = bundleSources(fn.bundleFile);
      return {
        handler: fn.handlerModule,
        clients: CLIENTS.filter((c) => packages.includes(c.pkg) || c.markers.some((m) => text.includes(m))).map((c) => c.name),
      };
    });
    const expected = functions.map((fn) => {
      const permissions = permissionsOf(fn.handlerModule);
      return {
        handler: fn.handlerModule,
        clients: CLIENTS.filter((c) => c.permissions.some((permission) => (permissions[permission]?.length ?? 0) > 0)).map((c) => c.name),
      };
    });
    expect(found).toEqual(expected);
  });
});

// ---------------------------------------------------------------------------------------
// Invoking the bundles

type Handler = (event: unknown, context: unknown) => Promise<unknown>;

/** The EMF lines (business metrics) the bundles print on stdout while they run, kept out of the test output. */
const published: {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] };
  [field: string]: unknown;
}[] = [];

/** Template values that are CloudFormation references, and what stands for them locally. */
const LOCAL_VALUES: Record<string, () => Record<string, string>> = {
  TABLE_NAME: () => ({ TABLE_NAME: runtime.tableName }),
  IDEMPOTENCY_TABLE_NAME: () => ({ IDEMPOTENCY_TABLE_NAME: LOCAL.idempotencyTableName }),
  // The shared deployment's counters, with its test limits: the sample events of many functions act on one organization at once.
  RATE_LIMIT_TABLE_NAME: () => ({
    RATE_LIMIT_TABLE_NAME: LOCAL.rateLimitTableName,
    RATE_LIMIT_DEFAULT_RATE: '10000',
    RATE_LIMIT_DEFAULT_BURST: '100000',
  }),
  BUCKET_NAME: () => ({ BUCKET_NAME: runtime.bucketName }),
  ID_TOKEN_ISSUER: () => ({ ID_TOKEN_ISSUER: runtime.issuer }),
  ID_TOKEN_AUDIENCE: () => ({ ID_TOKEN_AUDIENCE: runtime.audience }),
  ID_TOKEN_JWKS_URL: () => ({ ID_TOKEN_JWKS_URL: `${runtime.apiUrl}${JWKS_PATH}` }),
  // No KMS locally: profile and webhook secret data keys are wrapped with the deployment's local key, as under npm start;
  // and loopback webhook endpoints are allowed, as under npm start (nothing else resolves here).
  PROFILE_KMS_KEY_ARN: () => ({ PROFILE_LOCAL_KEY_FILE: path.join(dataDir, 'profile-key.bin'), WEBHOOK_ALLOW_LOCAL_URLS: 'true' }),
  // No EventBridge emulator: the SDK's service endpoint variable points the bundle's client at fakeEventBridge below.
  EVENT_BUS_NAME: () => ({
    EVENT_BUS_NAME: LOCAL_BUS,
    AWS_ENDPOINT_URL_EVENTBRIDGE: fakeEventBridge.url,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  }),
  // The environment-agnostic stack reads its summary models from a mapping by Region: locally, the Bedrock stand-in's engine, as under npm start.
  BEDROCK_MODEL_MAP: () => ({
    BEDROCK_MODEL_MAP: localBedrockModelMap(parseModelCatalog({}).active.map((model) => model.id)),
    ...(runtime.bedrockEndpoint ? { BEDROCK_ENDPOINT: runtime.bedrockEndpoint } : {}),
  }),
};

const LOCAL_BUS = 'voice-org-artefacts';

/** Answers PutEvents (the JSON protocol EventBridge speaks) and keeps the entries it was sent. */
const fakeEventBridge = {
  server: undefined as Server | undefined,
  url: '',
  entries: [] as { EventBusName: string; Source: string; DetailType: string; Detail: string }[],
  async start() {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const { Entries = [] } = JSON.parse(body || '{}') as { Entries?: typeof fakeEventBridge.entries };
        fakeEventBridge.entries.push(...Entries);
        response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
        response.end(
          JSON.stringify({
            FailedEntryCount: 0,
            Entries: Entries.map((_, i) => ({ EventId: `fake-${fakeEventBridge.entries.length}-${i}` })),
          }),
        );
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  },
  stop: () => new Promise<void>((resolve) => (fakeEventBridge.server ? fakeEventBridge.server.close(() => resolve()) : resolve())),
};

/** A function's environment: what its template declares, references resolved locally, plus the emulator endpoints. */
function localEnvironment(fn: BundledFunction): Record<string, string> {
  // Metrics on, as in Lambda (the test setup turns them off elsewhere): the bundles' EMF lines are read below.
  const env: Record<string, string> = {
    AWS_REGION: runtime.region,
    DYNAMODB_ENDPOINT: runtime.dynamoDbEndpoint,
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    POWERTOOLS_METRICS_DISABLED: 'false',
  };
  for (const [name, value] of Object.entries(fn.environment)) {
    if (name === 'NODE_OPTIONS') continue; // options of the Lambda runtime's node process
    if (typeof value === 'string') env[name] = value;
    else if (LOCAL_VALUES[name]) Object.assign(env, LOCAL_VALUES[name]());
    else throw new Error(`${fn.logicalId}: no local value for ${name} = ${JSON.stringify(value)}`);
  }
  if (env.BUCKET_NAME) env.S3_ENDPOINT = runtime.s3Endpoint;
  // The Transcribe stand-in, for the functions that start or read jobs (the bucket's, all of them).
  if (env.BUCKET_NAME && runtime.transcribeEndpoint) env.TRANSCRIBE_ENDPOINT = runtime.transcribeEndpoint;
  // The Translate stand-in, for every function (only the translation consumer calls it).
  if (runtime.translateEndpoint) env.TRANSLATE_ENDPOINT = runtime.translateEndpoint;
  // The OpenSearch stand-in, unsigned, for every function (only the search, ask and indexer functions read it): the
  // environment-agnostic stack deploys search off, where they would answer SEARCH_NOT_ENABLED.
  if (runtime.searchEndpoint) Object.assign(env, { SEARCH_ENDPOINT: runtime.searchEndpoint, SEARCH_SIGNING: 'none' });
  if (env.SES_FROM_ADDRESS) env.SES_ENDPOINT = runtime.sesEndpoint;
  // As Lambda sets them for a function with active tracing, on an invocation it sampled.
  env.AWS_XRAY_DAEMON_ADDRESS = `127.0.0.1:${xrayDaemon.port}`;
  env._X_AMZN_TRACE_ID = `Root=${TRACE_ROOT};Parent=${TRACE_PARENT};Sampled=1`;
  return env;
}

const TRACE_ROOT = '1-67a1b2c3-a0b1c2d3e4f5a6b7c8d9e0f1';
const TRACE_PARENT = '7f3e2d1c0b0a0908';

/** A UDP socket standing for the X-Ray daemon Lambda runs beside a traced function: keeps the datagrams it receives. */
const xrayDaemon = {
  socket: createSocket('udp4'),
  port: 0,
  received: [] as string[],
  async start() {
    this.socket.on('message', (message) => xrayDaemon.received.push(message.toString('utf8')));
    await new Promise<void>((resolve) => this.socket.bind(0, '127.0.0.1', resolve));
    this.port = this.socket.address().port;
  },
  /** The documents received so far: each bundle awaits its datagram's send before answering, so a datagram sent now comes after them. */
  async documents(): Promise<Record<string, any>[]> {
    const sentinel = `sentinel ${Date.now()}`;
    const arrived = new Promise<void>((resolve) =>
      this.socket.on('message', (message) => message.toString('utf8') === sentinel && resolve()),
    );
    const sender = createSocket('udp4');
    await new Promise<void>((resolve) => sender.send(sentinel, this.port, '127.0.0.1', () => resolve()));
    sender.close();
    await arrived;
    return this.received
      .filter((text) => text !== sentinel)
      .map((text) => {
        const [header, document] = text.split('\n');
        expect(JSON.parse(header)).toEqual({ format: 'json', version: 1 });
        return JSON.parse(document);
      });
  },
};

/**
 * What runs a bundle in its own node process: it imports the bundle as the Lambda runtime
 * does (an ES module, loaded by node itself: jest's module system runs CommonJS only), then
 * invokes its handler with each event the test sends. The EMF lines the bundle prints are sent
 * back (before the answer of the invocation that printed them) instead of going to stdout.
 */
const BUNDLE_RUNNER = `
import { pathToFileURL } from 'node:url';
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  const text = String(chunk);
  if (!text.includes('"_aws"')) return write(chunk, ...rest);
  process.send({ type: 'stdout', text });
  return true;
};
const failure = (error) => ({ name: error?.name, message: error?.message ?? String(error), stack: error?.stack });
let handler;
try {
  ({ handler } = await import(pathToFileURL(process.argv[2]).href));
  if (typeof handler !== 'function') throw new Error(process.argv[2] + ' exports no handler function');
  process.send({ type: 'ready' });
} catch (error) {
  process.send({ type: 'ready', error: failure(error) });
}
process.on('message', async ({ id, event, context }) => {
  const deadline = Date.now() + context.remainingMillis;
  const lambdaContext = { ...context.fields, getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()), done() {}, fail() {}, succeed() {} };
  try {
    process.send({ type: 'result', id, result: await handler(event, lambdaContext) });
  } catch (error) {
    process.send({ type: 'result', id, error: failure(error) });
  }
});
`;

type RunnerMessage =
  | { type: 'stdout'; text: string }
  | { type: 'ready'; error?: { name?: string; message: string; stack?: string } }
  | { type: 'result'; id: number; result?: unknown; error?: { name?: string; message: string; stack?: string } };

/** A bundle running in its own process, and the invocations waiting for its answer. */
interface RunningBundle {
  child: ChildProcess;
  ready: Promise<void>;
  pending: Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>;
}

const running = new Map<string, RunningBundle>();
let nextInvocation = 0;

const errorFrom = ({ name, message, stack }: { name?: string; message: string; stack?: string }) =>
  Object.assign(new Error(message), { name: name ?? 'Error', stack: stack ?? message });

/** Starts a function's bundle in a node process of its own, under the function's own environment. */
function startBundle(fn: BundledFunction): RunningBundle {
  const runner = path.join(outdir, 'run-bundle.mjs');
  if (!existsSync(runner)) writeFileSync(runner, BUNDLE_RUNNER);
  const child = fork(runner, [fn.bundleFile], {
    env: { ...process.env, ...localEnvironment(fn) },
    execArgv: [],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending: RunningBundle['pending'] = new Map();
  let markReady: { resolve: () => void; reject: (error: Error) => void };
  const ready = new Promise<void>((resolve, reject) => (markReady = { resolve, reject }));
  child.on('message', (message: RunnerMessage) => {
    if (message.type === 'stdout')
      published.push(
        ...message.text
          .split('\n')
          .filter((line) => line.includes('"_aws"'))
          .map((line) => JSON.parse(line)),
      );
    else if (message.type === 'ready' && message.error) markReady.reject(errorFrom(message.error));
    else if (message.type === 'ready') markReady.resolve();
    else {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiting?.reject(errorFrom(message.error));
      else waiting?.resolve(message.result);
    }
  });
  child.on('exit', (code, signal) => {
    const error = new Error(`${fn.handlerModule}: its bundle's process ended (${signal ?? code})`);
    markReady.reject(error);
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  });
  return { child, ready, pending };
}

/**
 * A function's bundle as Lambda runs it: loaded once (a process of its own, nothing shared
 * with another bundle) under the function's own environment, then invoked once per call.
 * Events, context fields and answers cross the process boundary by structured clone.
 */
function bundleHandler(handlerModule: string): Handler {
  return async (event, context) => {
    const fn = functionOf(handlerModule);
    if (!running.has(handlerModule)) running.set(handlerModule, startBundle(fn));
    const bundle = running.get(handlerModule)!;
    await bundle.ready;
    const { getRemainingTimeInMillis, done, fail, succeed, ...fields } = context as Context;
    const id = (nextInvocation += 1);
    return new Promise((resolve, reject) => {
      bundle.pending.set(id, { resolve, reject });
      bundle.child.send({ id, event, context: { fields, remainingMillis: getRemainingTimeInMillis() } });
    });
  };
}

afterAll(async () => {
  await Promise.all(
    [...running.values()].map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill();
        }),
    ),
  );
});

const ids = sampleIds('art');
const orgKey = generateApiKey('org_key');
const personalKey = generateApiKey('user_key');
let setup: SampleSetup;
let authorizerResults: Record<CredentialName, APIGatewayAuthorizerResult>;

describe('each bundle, invoked with a realistic event against the emulators', () => {
  afterAll(async () => {
    xrayDaemon.socket.close();
    await fakeEventBridge.stop();
  });

  beforeAll(async () => {
    await fakeEventBridge.start();
    await xrayDaemon.start();
    await seedSampleData(db, ids, { orgKey, personalKey });
    const idToken = await idTokenFor({ id: `${ids.orgId}_invitee`, email: ids.inviteeEmail });
    const ownerToken = await idTokenFor({ id: `${ids.orgId}_owner_subject`, email: ids.ownerEmail });
    const bearer: Record<CredentialName, string> = {
      orgKey: `Bearer ${orgKey}`,
      personalKey: `Bearer ${personalKey}`,
      idToken: `Bearer ${idToken}`,
      ownerToken: `Bearer ${ownerToken}`,
    };
    // The real authorizer bundle resolves each real credential; its answers become the requests' authorizer context.
    const pending = { stage: 'test', region: runtime.region, bucketName: runtime.bucketName, ids };
    const tokenEvent = (name: CredentialName) =>
      sampleAuthorizerEvent(
        {
          ...pending,
          credentials: { [name]: { authorization: bearer[name], principalId: '', context: {} } } as SampleSetup['credentials'],
        },
        name,
      );
    const results = {} as Record<CredentialName, APIGatewayAuthorizerResult>;
    for (const name of Object.keys(bearer) as CredentialName[]) {
      results[name] = (await bundleHandler(AUTHORIZER.handler)(
        tokenEvent(name),
        lambdaContext('authorizer'),
      )) as APIGatewayAuthorizerResult;
    }
    authorizerResults = results;
    const credential = (name: CredentialName) => ({
      authorization: bearer[name],
      principalId: results[name].principalId,
      context: results[name].context as Record<string, string>,
    });
    setup = {
      ...pending,
      credentials: {
        orgKey: credential('orgKey'),
        personalKey: credential('personalKey'),
        idToken: credential('idToken'),
        ownerToken: credential('ownerToken'),
      },
    };
  }, 60_000);

  it('authorizer: Allow on the whole API, with the principal of each credential in its context', () => {
    for (const result of Object.values(authorizerResults)) {
      expect(result.policyDocument.Statement).toEqual([
        expect.objectContaining({ Effect: 'Allow', Action: 'execute-api:Invoke', Resource: expect.stringMatching(/\/test\/\*$/) }),
      ]);
    }
    expect(authorizerResults.orgKey.context).toEqual(
      expect.objectContaining({ kind: 'org_key', org_id: ids.orgId, scopes: SCOPES.join(' ') }),
    );
    expect(authorizerResults.personalKey.context).toEqual(
      expect.objectContaining({ kind: 'user_key', org_id: ids.orgId, user_id: ids.memberId, scopes: PERSONAL_KEY_SCOPES.join(' ') }),
    );
    expect(authorizerResults.idToken.context).toEqual(
      expect.objectContaining({ kind: 'id_token', email: ids.inviteeEmail, email_verified: 'true', issuer: runtime.issuer }),
    );
  });

  it('authorizer: refuses an unknown key with a Deny on the whole API whose context says why', async () => {
    const event = sampleAuthorizerEvent({
      ...setup,
      credentials: { ...setup.credentials, orgKey: { ...setup.credentials.orgKey, authorization: `Bearer ${generateApiKey('org_key')}` } },
    });
    const result = (await bundleHandler(AUTHORIZER.handler)(event, lambdaContext('authorizer'))) as APIGatewayAuthorizerResult;
    expect(result.policyDocument.Statement).toEqual([
      expect.objectContaining({ Effect: 'Deny', Action: 'execute-api:Invoke', Resource: expect.stringMatching(/\/test\/\*$/) }),
    ]);
    expect(result.context).toEqual({ reason: 'invalid', message: AUTHENTICATION_FAILURE_MESSAGES.invalid });
  });

  /**
   * What a route's answer must hold besides its status (the sample requests run in order on one
   * organization). A route without an entry is held to its sample's status alone: adding a route
   * needs no edit here, and its own tests check its answers.
   */
  const CHECKS: Partial<Record<RouteName, (body: any) => void>> = {
    health: (body) => expect(body).toEqual({ status: 'ok' }),
    getDocsPage: (html) => expect(html).toContain(`/docs/${REFERENCE_ASSETS.scalarBundle}`),
    getDocsAsset: (script) => expect(script).toContain('Scalar.createApiReference'),
    getOpenApiDocument: (document) => {
      expect(document).toMatchObject({ openapi: '3.1.0', servers: [{ url: 'http://127.0.0.1:3000/test' }] });
      expect(Object.keys(document.paths)).not.toContain('/docs');
    },
    listUsers: (body) => {
      expect(body).toMatchObject({ success: true, pagination: { total: 1 } });
      expect(body.data.map((m: { user_id: string }) => m.user_id)).toEqual([ids.memberId]);
    },
    getMemberSettings: (body) =>
      expect(body).toMatchObject({
        success: true,
        data: {
          user: { user_id: ids.memberId },
          settings: { selected_theme: 'dark' },
          profile: { profile: expect.stringContaining('APAC'), version: 1 },
        },
      }),
    updateMemberSettings: (body) => expect(body).toMatchObject({ success: true, profile_version: expect.any(Number) }),
    updateMember: (body) =>
      expect(body).toMatchObject({
        success: true,
        data: { user_id: ids.managedMemberId, role: 'member', status: 'active', is_active: true },
      }),
    removeMember: (body) =>
      expect(body).toMatchObject({
        success: true,
        data: { user_id: ids.managedMemberId, role: 'member', status: 'removed', is_active: false },
      }),
    listRecordings: (body) =>
      expect(body.recordings.map((r: { id: string }) => r.id).sort()).toEqual(
        [ids.editRecordingId, ids.recordingId, ids.uploadRecordingId].sort(),
      ),
    getRecording: (body) =>
      expect(body).toMatchObject({
        id: ids.recordingId,
        transcript: expect.any(Object),
        summary: expect.any(Object),
        action_items: [expect.any(Object)],
      }),
    getRecordingMedia: (body) =>
      expect(body).toEqual({
        url: expect.stringContaining(`${runtime.s3Endpoint}/${runtime.bucketName}/recordings/${ids.orgId}/${ids.mediaRecordingId}/`),
        expires_at: expect.any(String),
        content_type: 'audio/mp4',
        size_bytes: 1_520_000,
      }),
    updateRecording: (body) =>
      expect(body).toMatchObject({ id: ids.editRecordingId, title: 'Sales call with Kobe Trading (pilot)', tags: [ids.tagId] }),
    deleteRecording: (body) => expect(body).toEqual({ success: true }),
    restoreRecording: (body) => expect(body).toMatchObject({ id: ids.trashedRecordingId }),
    createUploadUrl: (body) =>
      expect(body).toMatchObject({
        success: true,
        data: {
          recording_id: expect.stringMatching(/^rec_/),
          method: 'PUT',
          upload_url: expect.stringContaining(`${runtime.s3Endpoint}/${runtime.bucketName}/recordings/${ids.orgId}/`),
        },
      }),
    listPublicRecordings: (body) =>
      expect(body).toMatchObject({ success: true, data: expect.arrayContaining([expect.objectContaining({ id: ids.recordingId })]) }),
    getPublicRecordingMedia: (body) =>
      expect(body).toEqual({
        success: true,
        data: {
          url: expect.stringContaining('response-content-disposition=attachment'),
          expires_at: expect.any(String),
          content_type: 'audio/mp4',
          size_bytes: 1_520_000,
        },
      }),
    listTemplates: (body) => expect(body.templates.map((t: { id: string }) => t.id)).toEqual([ids.templateId]),
    getTemplate: (body) => expect(body).toMatchObject({ id: ids.templateId, name: 'Sales call' }),
    createTemplate: (body) => expect(body).toMatchObject({ id: expect.stringMatching(/^tpl_/), name: 'Weekly standup' }),
    updateTemplate: (body) => expect(body).toMatchObject({ id: ids.templateId, description: expect.stringContaining('risks') }),
    deleteTemplate: (body) => expect(body).toEqual({ success: true }),
    sendInvite: (body) => expect(body).toMatchObject({ email: ids.newInviteEmail, role: 'member', status: 'pending' }),
    listInvites: (body) =>
      expect(body.invites.map((i: { id: string }) => i.id)).toEqual(expect.arrayContaining([ids.resendInviteId, ids.revokeInviteId])),
    revokeInvite: (body) => expect(body).toEqual({ success: true }),
    resendInvite: (body) => expect(body).toEqual({ success: true }),
    acceptInvite: (body) => expect(body).toEqual({ org_id: ids.orgId, role: 'member', status: 'active' }),
    listAuditLog: (body) => expect(body).toMatchObject({ entries: expect.any(Array), pagination: { page: 1, limit: 10 } }),
    listApiKeys: (body) => expect(body.api_keys.map((k: { id: string }) => k.id)).toContain(ids.apiKeyId),
    createApiKey: (body) =>
      expect(body).toMatchObject({
        kind: 'personal',
        user_id: ids.ownerId,
        secret: expect.stringMatching(/^pk_user_[0-9a-f]{48}$/),
        created_by: ids.ownerId,
        status: 'active',
      }),
    getApiKey: (body) => expect(body).toMatchObject({ id: ids.apiKeyId, name: 'CRM sync', status: 'active' }),
    rotateApiKey: (body) =>
      expect(body).toMatchObject({
        id: ids.apiKeyId,
        secret: expect.stringMatching(/^pk_org_/),
        rotated_at: expect.any(String),
        previous_secret_expires_at: expect.any(String),
      }),
    revokeApiKey: (body) => expect(body).toMatchObject({ id: ids.apiKeyId, status: 'revoked', revoked_at: expect.any(String) }),
    listWebhooks: (body) =>
      expect(body.webhooks.map((w: { id: string }) => w.id).sort()).toEqual([ids.webhookId, ids.deleteWebhookId].sort()),
    createWebhook: (body) =>
      expect(body).toMatchObject({
        id: expect.stringMatching(/^wh_/),
        secret: expect.stringMatching(/^whsec_/),
        events: ['recording.uploaded', 'recording.deleted'],
      }),
    getWebhook: (body) => expect(body).toMatchObject({ id: ids.webhookId, enabled: true }),
    updateWebhook: (body) => expect(body).toMatchObject({ id: ids.webhookId, events: ['recording.upload_failed', 'invite.email_failed'] }),
    deleteWebhook: (body) => expect(body).toEqual({ success: true }),
    rotateWebhookSecret: (body) =>
      expect(body).toMatchObject({
        id: ids.webhookId,
        secret: expect.stringMatching(/^whsec_/),
        previous_secret_expires_at: expect.any(String),
      }),
    testWebhook: (body) => expect(body).toMatchObject({ event_type: 'webhook.test', status: 'pending', attempts: 0 }),
    listWebhookDeliveries: (body) => expect(body.deliveries.map((d: { id: string }) => d.id)).toEqual([ids.deliveryId]),
    retryWebhookDelivery: (body) => expect(body).toMatchObject({ id: ids.deliveryId, status: 'pending', attempts: 8 }),
  };

  // The sample events' order: later requests change what earlier ones read.
  const http = listHandlers().map((h) => [h.handler, h.routes[0]] as const);

  it.each(http)('%s answers its request', async (handler, routeName) => {
    const sample = sampleEvents(setup).find((e): e is SampleEvent => e.routeName === routeName)!;
    const response = (await bundleHandler(handler)(sample.event, lambdaContext(routeName))) as APIGatewayProxyResult;
    const json = /^application\/json/.test(String(response.headers?.['content-type']));
    const body = json ? JSON.parse(response.body) : response.body;
    // A failure's envelope is {success: false, error, message} (a webhook delivery has an `error` field of its own).
    const failure = body.success === false ? { error: body.error, message: body.message } : {};
    expect({ status: response.statusCode, ...failure }).toEqual({ status: sample.expectedStatus });
    expect(response.headers?.['x-correlation-id']).toBe(`sample-${routeName}`);
    CHECKS[routeName]?.(body);
  });

  it("the API reference's functions carry Scalar's bundle and the OpenAPI document generated at synth beside their bundle, never the document's generator", async () => {
    const asset = functionOf(ROUTES.getDocsAsset.handler);
    const document = functionOf(ROUTES.getOpenApiDocument.handler);
    const scalar = readFileSync(path.join(path.dirname(asset.bundleFile), REFERENCE_FILES.scalarBundle));
    expect(scalar.equals(readFileSync(SCALAR_BUNDLE_SOURCE))).toBe(true);
    expect(JSON.parse(readFileSync(path.join(path.dirname(document.bundleFile), REFERENCE_FILES.openApiDocument), 'utf8'))).toEqual(
      openApiDocument(),
    );
    for (const fn of [asset, document, functionOf(ROUTES.getDocsPage.handler)]) {
      const { own, packages } = bundleSources(fn.bundleFile);
      // (valibot itself comes with the handler middlewares every function shares; the JSON Schema converter and the schemas do not.)
      expect({
        handler: fn.handlerModule,
        generator: own.filter((file) => /shared\/(openapi\/(document|route-docs)|schemas\/)/.test(file)),
        converter: packages.filter((p) => p === '@valibot/to-json-schema'),
      }).toEqual({
        handler: fn.handlerModule,
        generator: [],
        converter: [],
      });
    }
    console.log(
      `API reference functions: ${[asset, document, functionOf(ROUTES.getDocsPage.handler)].map((fn) => `${fn.handlerModule} ${(fn.bundleBytes / 1024).toFixed(1)} KB`).join(', ')}; ` +
        `beside them: ${REFERENCE_FILES.scalarBundle} ${(scalar.length / 1024 / 1024).toFixed(2)} MB, ${REFERENCE_FILES.openApiDocument} ${(JSON.stringify(openApiDocument()).length / 1024).toFixed(1)} KB`,
    );
    // The bundled asset function serves the copy beside it.
    const event = sampleProxyEvent(setup, 'getDocsAsset', {
      credential: null,
      path: { asset: REFERENCE_ASSETS.scalarBundle },
      status: 200,
    });
    const response = (await bundleHandler(ROUTES.getDocsAsset.handler)(event, lambdaContext('getDocsAsset'))) as APIGatewayProxyResult;
    expect({ status: response.statusCode, length: response.body.length, cache: response.headers?.['cache-control'] }).toEqual({
      status: 200,
      length: scalar.toString('utf8').length,
      cache: 'public, max-age=31536000, immutable',
    });
  });

  it(`${ROUTES.createTemplate.handler} answers a keyed request once: the bundle's Powertools idempotency replays it from the idempotency table`, async () => {
    const sample = sampleEvents(setup).find((e): e is SampleEvent => e.routeName === 'createTemplate')!;
    const event = sample.event as APIGatewayProxyEvent;
    const keyed: APIGatewayProxyEvent = { ...event, headers: { ...event.headers, 'Idempotency-Key': `artefacts-${Date.now()}` } };
    const invoke = () =>
      bundleHandler(ROUTES.createTemplate.handler)(keyed, lambdaContext('createTemplate')) as Promise<APIGatewayProxyResult>;
    const first = await invoke();
    const replay = await invoke();
    expect(first.statusCode).toBe(201);
    expect({ status: replay.statusCode, body: replay.body, replayed: replay.headers?.['idempotent-replayed'] }).toEqual({
      status: 201,
      body: first.body,
      replayed: 'true',
    });
  });

  it('the invitations the invite functions sent (and resent) are emailed through the SES emulator, by the deployment’s invitation mail consumer', async () => {
    expect(await emailsTo(ids.newInviteEmail)).toHaveLength(1);
    expect(await emailsTo(`rita.resend@${sampleEmailDomain(ids.orgId)}`)).toHaveLength(1);
  });

  it(`${EVENT_HANDLERS.completeUpload.handler}: marks the recording uploaded on its ObjectCreated event`, async () => {
    const sample = sampleEvents(setup).find((e) => e.kind === 's3')!;
    await expect(bundleHandler(sample.handler)(sample.event, lambdaContext('complete-upload'))).resolves.toBeUndefined();
    const { Item } = await db.client.send(
      new GetCommand({ TableName: db.tableName, Key: keys.recording(ids.orgId, ids.uploadRecordingId) }),
    );
    expect(Item).toMatchObject({ state: 'uploaded', upload: { uploaded_bytes: ids.uploadBytes } });
  });

  it(`${EVENT_PROCESSOR.handler}: puts the events of its stream batch on the bus, in order`, async () => {
    const sample = sampleEvents(setup).find((e) => e.kind === 'stream')!;
    const result = await bundleHandler(sample.handler)(sample.event, lambdaContext('process-table-stream'));
    expect(result).toEqual<DynamoDBBatchResponse>({ batchItemFailures: [] });
    expect(fakeEventBridge.entries.map((entry) => ({ ...entry, Detail: JSON.parse(entry.Detail) }))).toEqual(
      sampleDomainEvents(setup).map((event) =>
        expect.objectContaining({ EventBusName: LOCAL_BUS, Source: EVENT_SOURCE, DetailType: event.type, Detail: event }),
      ),
    );
  });

  it.each(Object.values(EVENT_CONSUMERS).map((c) => c.handler))(
    '%s: handles its queued events with no failure left to retry',
    async (handler) => {
      const sample = sampleEvents(setup).find((e) => e.handler === handler)!;
      await expect(bundleHandler(handler)(sample.event, lambdaContext(path.basename(handler)))).resolves.toEqual<SQSBatchResponse>({
        batchItemFailures: [],
      });
    },
  );

  it("each invocation sent its subsegment to the X-Ray daemon: under the trace header's parent, named after its route or consumer, with the correlation id and never a secret", async () => {
    const documents = await xrayDaemon.documents();
    expect(documents.length).toBeGreaterThan(listHandlers().length);
    for (const document of documents) {
      expect(document).toMatchObject({
        type: 'subsegment',
        trace_id: TRACE_ROOT,
        parent_id: TRACE_PARENT,
        id: expect.stringMatching(/^[0-9a-f]{16}$/),
        annotations: { service: 'voice-org-api', cold_start: expect.any(Boolean) },
      });
      // Only names, ids, flags and a status: no response, body, key or webhook secret, URL or email.
      expect(Object.keys(document).sort()).toEqual(
        expect.arrayContaining(['annotations', 'end_time', 'id', 'name', 'parent_id', 'start_time', 'trace_id', 'type']),
      );
      expect(JSON.stringify(document)).not.toMatch(/pk_(org|user)_[0-9a-f]|whsec_|https?:\/\/|@/);
    }
    const routes = documents.filter((d) => d.annotations.route);
    for (const [, routeName] of http) {
      expect(routes.filter((d) => d.name === routeName).map((d) => d.annotations)).toContainEqual(
        expect.objectContaining({ route: routeName, correlation_id: `sample-${routeName}` }),
      );
    }
    const consumers = new Set(documents.map((d) => d.annotations.consumer).filter(Boolean));
    expect([...consumers].sort()).toEqual(expect.arrayContaining(Object.keys(EVENT_CONSUMERS).sort()));
    expect(documents.filter((d) => d.annotations.function === 'authorizer').length).toBeGreaterThan(0);
  });

  it('no bundle carries a tracing SDK: neither Powertools Tracer nor the X-Ray SDK (aws-xray-sdk-core, cls-hooked)', () => {
    const tracing = functions.map((fn) => ({
      handler: fn.handlerModule,
      packages: bundleSources(fn.bundleFile).packages.filter((p) => /^(@aws-lambda-powertools\/tracer|aws-xray-sdk|cls-hooked)/.test(p)),
    }));
    expect(tracing.filter((fn) => fn.packages.length > 0)).toEqual([]);
    for (const fn of functions)
      expect({ handler: fn.handlerModule, xray: readFileSync(fn.bundleFile, 'utf8').includes('AWSXRay') }).toEqual({
        handler: fn.handlerModule,
        xray: false,
      });
  });

  it("carries the idempotency middleware and Powertools' idempotency utility in the bundles of the routes that take Idempotency-Key, and only there", () => {
    const found = functions.map((fn) => {
      const { own, packages } = bundleSources(fn.bundleFile);
      return {
        handler: fn.handlerModule,
        middleware: own.includes('shared/http/middlewares/idempotency.ts'),
        utility: packages.includes('@aws-lambda-powertools/idempotency'),
      };
    });
    const keyed = new Set(
      listHandlers()
        .filter(({ routes }) => routes.some((name) => takesIdempotencyKey(ROUTES[name])))
        .map(({ handler }) => handler),
    );
    expect(keyed.size).toBeGreaterThan(0);
    expect(found).toEqual(
      functions.map((fn) => ({ handler: fn.handlerModule, middleware: keyed.has(fn.handlerModule), utility: keyed.has(fn.handlerModule) })),
    );
  });

  it('the bundles publish their business metrics as EMF lines: the namespace, the service and the stage of the template', () => {
    const counted = new Set(
      published.flatMap((line) => line._aws.CloudWatchMetrics.flatMap((m) => m.Metrics.map((metric) => metric.Name))),
    );
    // The sample requests update settings, remove a member and create a key; the sample upload completes.
    expect([...counted]).toEqual(expect.arrayContaining(['MemberSettingsUpdated', 'MembersRemoved', 'ApiKeysCreated', 'UploadsCompleted']));
    for (const line of published) {
      expect(line._aws.CloudWatchMetrics.map(({ Namespace, Dimensions }) => ({ Namespace, Dimensions }))).toEqual([
        { Namespace: 'VoiceOrgApi', Dimensions: [['service', 'stage']] },
      ]);
      expect(line).toMatchObject({ service: 'voice-org-api', stage: 'test' });
    }
  });
});
