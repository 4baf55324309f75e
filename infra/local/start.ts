import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { S3Event } from 'aws-lambda';
import { parseConfig, parseModelCatalog } from '../../shared/config';
import { AUTHORIZER } from '../../shared/auth/authorizer-function';
import { EVENT_HANDLERS } from '../../shared/events/event-functions';
import { createTableContext } from '../../shared/storage/dynamo';
import { createApiGateway, rawResponse } from './api-gateway';
import { DEMO_USERS, readDemoCredentials, seedDemo, type DemoCredentials } from './demo';
import {
  ensureIdempotencyTable,
  ensureRateLimitTable,
  ensureTable,
  startDynamoDbLocal,
  startS3,
  startSes,
  type Emulator,
} from './emulators';
import { ISSUER_PATH, JWKS_PATH, loadIdentityProvider, type LocalIdentityProvider } from './identity-provider';
import { INVITE_ACCEPT_PATH, inviteAcceptPage } from './invite-accept-page';
import { startEventPipeline, type EventPipeline } from './event-pipeline';
import { isLocalTranscriptionAvailable, LOCAL_ENGINE_NAME, LOCAL_ENGINE_PACKAGES } from './local-speech-engine';
import { startTranscribeEmulator } from './transcribe-emulator';
import { jobStoreIn } from './transcribe-job-store';
import { apertiumModes, isLocalTranslationAvailable, LOCAL_TRANSLATION_PACKAGES } from './apertium';
import { startSearchEmulator } from './search-emulator';
import { startTranslateEmulator } from './translate-emulator';
import { localBedrockModelMap, startBedrockEmulator } from './bedrock-emulator';
import { localSummaryLanguages } from './local-summarizer';
import { startQueueEmulator } from './queue-emulator';
import { ensureProfileKey, localProfileCipher, localWebhookSecretCipher } from './profile-key';
import { startRetentionSweeps, startTranscriptionSweeps, startTtlSweeps } from './scheduled-tasks';
import { LOCAL, loadLocalConfig } from './local-config';
import { readRuntimeFile, removeRuntimeFile, writeRuntimeFile } from './runtime-file';
import { stopLeftChildren } from './process-guard';
import type { ServiceEvent } from './service-event';

const repoRoot = path.resolve(__dirname, '../..');

/**
 * `npm start`: the whole API on this machine, with no AWS account. DynamoDB Local, an S3
 * emulator, an SES emulator and a local identity provider run under this one process;
 * the API Gateway emulator runs the real authorizer and handlers in front of them.
 */
async function main(): Promise<void> {
  const startedAt = Date.now();
  const settings = loadLocalConfig();
  mkdirSync(settings.dataDir, { recursive: true });
  const running = readRuntimeFile(settings.dataDir);
  if (running) throw new Error(`A local deployment already runs on this data directory (pid ${running.pid}, ${running.apiUrl}).`);
  const fresh = !existsSync(path.join(settings.dataDir, 'dynamodb'));
  // A run killed with its watchdog (kill -9 of both) may have left DynamoDB Local holding the database.
  await stopLeftChildren(settings.dataDir);

  const emulators: Emulator[] = [];
  let stopping = false;
  const stop = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    removeRuntimeFile(settings.dataDir);
    await Promise.allSettled(emulators.map((emulator) => emulator.stop()));
    process.exit(exitCode);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));

  try {
    const [dynamo, s3, ses, queues] = await Promise.all([
      startDynamoDbLocal(path.join(settings.dataDir, 'dynamodb'), settings.host, settings.dataDir),
      startS3(path.join(settings.dataDir, 's3'), settings.host, LOCAL.bucketName, (event) => void onObjectEvent(event)),
      startSes(settings.host),
      startQueueEmulator(settings.host),
    ]);
    emulators.push(dynamo, s3, ses, queues);
    // Transcribe's stand-in puts its job state changes on the local bus once the pipeline runs (below); earlier ones wait.
    // eslint-disable-next-line prefer-const -- read by the callback below before it is assigned: a const would throw there.
    let pipeline: EventPipeline | undefined;
    const early: ServiceEvent[] = [];
    const transcribe = await startTranscribeEmulator({
      host: settings.host,
      region: LOCAL.region,
      s3Endpoint: s3.endpoint,
      onJobStateChange: (event) => (pipeline ? pipeline.putServiceEvent(event) : early.push(event)),
      store: jobStoreIn(path.join(settings.dataDir, 'transcribe', 'jobs')),
    });
    emulators.push(transcribe);
    const translate = await startTranslateEmulator({ host: settings.host });
    emulators.push(translate);
    // Bedrock's stand-in: the functions' summaries go to the local extractive engine (docs/summaries.md).
    const bedrock = await startBedrockEmulator({ host: settings.host });
    emulators.push(bedrock);
    // OpenSearch's stand-in: the search index (docs/search.md), kept in the data directory.
    const search = await startSearchEmulator({
      host: settings.host,
      dataDir: path.join(settings.dataDir, 'search'),
      serverlessVectorCollection: true,
    });
    emulators.push(search);
    await ensureTable(dynamo.endpoint, LOCAL.tableName, LOCAL.region);
    await ensureIdempotencyTable(dynamo.endpoint, LOCAL.idempotencyTableName, LOCAL.region);
    await ensureRateLimitTable(dynamo.endpoint, LOCAL.rateLimitTableName, LOCAL.region);

    // The functions read their configuration from the environment, as in Lambda.
    Object.assign(process.env, {
      PROFILE_LOCAL_KEY_FILE: ensureProfileKey(settings.dataDir),
      TABLE_NAME: LOCAL.tableName,
      IDEMPOTENCY_TABLE_NAME: LOCAL.idempotencyTableName,
      // The same per-organization limits as in AWS (docs/rate-limits.md); RATE_LIMIT_DEFAULT_* and RATE_LIMIT_CACHE_SECONDS pass through.
      RATE_LIMIT_TABLE_NAME: LOCAL.rateLimitTableName,
      AWS_REGION: LOCAL.region,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      SES_ENDPOINT: ses.endpoint,
      BUCKET_NAME: LOCAL.bucketName,
      S3_ENDPOINT: s3.endpoint,
      SQS_ENDPOINT: queues.endpoint,
      TRANSCRIBE_ENDPOINT: transcribe.endpoint,
      TRANSLATE_ENDPOINT: translate.endpoint,
      BEDROCK_ENDPOINT: bedrock.endpoint,
      SEARCH_ENDPOINT: search.endpoint,
      SEARCH_SIGNING: 'none',
      // Every active model writes with the local engine: the stand-in knows no other.
      BEDROCK_MODEL_MAP: localBedrockModelMap(parseModelCatalog(process.env).active.map((model) => model.id)),
      // Developers receive deliveries on their own machine (`npx voice-org webhooks listen`).
      WEBHOOK_ALLOW_LOCAL_URLS: 'true',
      POWERTOOLS_LOG_LEVEL: settings.logLevel,
      POWERTOOLS_DEV: 'true',
    });

    // eslint-disable-next-line prefer-const -- the routes below read it once requests come, after it is assigned.
    let identityProvider: LocalIdentityProvider | undefined;
    // The accept page reads the invite its link names (APP_URL defaults to this server).
    const pageDb = createTableContext({ tableName: LOCAL.tableName, region: LOCAL.region, endpoint: dynamo.endpoint });
    const gateway = createApiGateway({
      repoRoot,
      authorizerModule: AUTHORIZER.handler,
      authorizerCacheSeconds: settings.authorizerCacheSeconds,
      extraRoutes: {
        [JWKS_PATH]: () => identityProvider!.jwks,
        [`${ISSUER_PATH}/.well-known/openid-configuration`]: () => ({
          issuer: identityProvider!.issuer,
          jwks_uri: `${identityProvider!.issuer}/.well-known/jwks.json`,
          id_token_signing_alg_values_supported: ['RS256'],
        }),
        [INVITE_ACCEPT_PATH]: async (url) => {
          const apiUrl = `http://${settings.host}:${(gateway.address() as AddressInfo).port}`;
          const page = await inviteAcceptPage({ db: pageDb, apiUrl, now: () => new Date() }, url.searchParams);
          return rawResponse(page.headers['content-type'], page.body, page);
        },
      },
    });
    emulators.push({
      endpoint: '',
      stop: () =>
        new Promise<void>((resolve) => (gateway.closeAllConnections(), gateway.close(() => (pageDb.client.destroy(), resolve())))),
    });
    await new Promise<void>((resolve, reject) => gateway.once('error', reject).listen(settings.port, settings.host, resolve));
    const apiUrl = `http://${settings.host}:${(gateway.address() as AddressInfo).port}`;
    identityProvider = await loadIdentityProvider(settings.dataDir, `${apiUrl}${ISSUER_PATH}`, LOCAL.audience);
    Object.assign(process.env, {
      APP_URL: process.env.APP_URL ?? apiUrl,
      ID_TOKEN_ISSUER: identityProvider.issuer,
      ID_TOKEN_AUDIENCE: identityProvider.audience,
      ID_TOKEN_JWKS_URL: `${apiUrl}${JWKS_PATH}`,
    });

    const db = createTableContext({ tableName: LOCAL.tableName, region: LOCAL.region, endpoint: dynamo.endpoint });
    let demo = readDemoCredentials(settings.dataDir);
    if (fresh && settings.seed === 'demo')
      demo = await seedDemo(
        {
          db,
          cipher: localProfileCipher(settings.dataDir),
          webhookCipher: localWebhookSecretCipher(settings.dataDir),
          trashRetentionDays: parseConfig(process.env).events.trashRetentionDays,
        },
        settings.dataDir,
        new Date(),
      );
    db.client.destroy();

    // The stack's event pipeline: the table's stream → the processor → the consumers, with retries and a dead-letter store.
    pipeline = await startEventPipeline({
      repoRoot,
      dataDir: settings.dataDir,
      dynamoDbEndpoint: dynamo.endpoint,
      tableName: LOCAL.tableName,
      region: LOCAL.region,
      retryDelayMs: settings.eventRetryMs,
      queues,
      queueDelayScale: settings.queueDelayScale,
    });
    const started = pipeline;
    for (const event of early.splice(0)) started.putServiceEvent(event);
    emulators.unshift({ endpoint: '', stop: () => started.stop() });
    if (settings.ttlSweepSeconds > 0) emulators.unshift(startTtlSweeps(dynamo.endpoint, settings.ttlSweepSeconds));
    if (settings.transcriptionSweepSeconds > 0) emulators.unshift(startTranscriptionSweeps(settings.transcriptionSweepSeconds));
    if (settings.retentionSweepSeconds > 0) emulators.unshift(startRetentionSweeps(settings.retentionSweepSeconds));

    writeRuntimeFile(settings.dataDir, {
      pid: process.pid,
      apiUrl,
      dynamoDbEndpoint: dynamo.endpoint,
      s3Endpoint: s3.endpoint,
      sesEndpoint: ses.endpoint,
      transcribeEndpoint: transcribe.endpoint,
      translateEndpoint: translate.endpoint,
      bedrockEndpoint: bedrock.endpoint,
      searchEndpoint: search.endpoint,
      tableName: LOCAL.tableName,
      bucketName: LOCAL.bucketName,
      region: LOCAL.region,
      issuer: identityProvider.issuer,
      audience: identityProvider.audience,
      rateLimitDefaults: parseConfig(process.env).rateLimits.defaults,
      trashRetentionDays: parseConfig(process.env).events.trashRetentionDays,
    });
    console.log(await banner(apiUrl, settings.dataDir, Date.now() - startedAt, demo, identityProvider));
  } catch (error) {
    console.error(`Local deployment failed to start: ${(error as Error).message}`);
    await stop(1);
  }
}

/** Object-created events of the S3 emulator go to the upload completion function, as in AWS. */
async function onObjectEvent(event: S3Event): Promise<void> {
  if (!event.Records?.some((record) => record.eventName.startsWith('ObjectCreated'))) return;
  try {
    const { handler } = (await import(path.join(repoRoot, EVENT_HANDLERS.completeUpload.handler))) as {
      handler: (event: S3Event) => Promise<void>;
    };
    await handler(event);
  } catch (error) {
    console.error('local S3 event: completion function failed', error);
  }
}

async function banner(apiUrl: string, dataDir: string, elapsedMs: number, demo: DemoCredentials | undefined, idp: LocalIdentityProvider) {
  const lines = [
    `Voice Org API is running at ${apiUrl} (ready in ${(elapsedMs / 1000).toFixed(1)} s, data in ${dataDir})`,
    '',
    `  curl -s ${apiUrl}/health`,
    '',
    isLocalTranscriptionAvailable()
      ? `Local transcription: available (${LOCAL_ENGINE_NAME}, English only, speakers told apart; docs/transcription.md).`
      : `Local transcription: NOT available, transcriptions fail with ENGINE_UNAVAILABLE (the npm packages ${LOCAL_ENGINE_PACKAGES.join(', ')} are missing: run npm ci).`,
    (await isLocalTranslationAvailable())
      ? `Local translation: available (Apertium: ${[...(await apertiumModes())].join(', ')}; other pairs fail as unsupported; docs/translations.md).`
      : `Local translation: NOT available, translations fail as an unsupported pair (install the Debian packages ${LOCAL_TRANSLATION_PACKAGES.join(' ')}).`,
    `Local summaries: model local-extractive (wink-nlp, extractive), written in ${(await localSummaryLanguages()).join(', ')}; other languages get English (docs/summaries.md).`,
    '',
    `API reference: ${apiUrl}/docs (sign in with a key or token below, then try any request; the OpenAPI document is ${apiUrl}/api/v1/openapi.json)`,
  ];
  if (demo) {
    const ownerToken = await idp.issueIdToken(
      { sub: `local|${DEMO_USERS.owner.id}`, email: DEMO_USERS.owner.email, name: DEMO_USERS.owner.display_name },
      12 * 3600,
    );
    lines.push(
      '',
      'Demo organization credentials (the owner ID token is valid for 12 hours; mint more with `npx voice-org token --user <id>`, or `--email <email>` for someone you invite):',
      `  export ORG_KEY=${demo.org_key}`,
      `  export PERSONAL_KEY=${demo.personal_key}`,
      `  export OWNER_TOKEN=${ownerToken}`,
      '',
      `  curl -s -H "Authorization: Bearer $ORG_KEY" ${apiUrl}/api/v1/organization/${demo.org_id}/users`,
      `  curl -s -H "Authorization: Bearer $OWNER_TOKEN" "${apiUrl}/api/v1/organization/${demo.org_id}/users?q=demo&limit=2&page=2"`,
      `  curl -s -H "Authorization: Bearer $ORG_KEY" ${apiUrl}/api/v1/public/users`,
      `  curl -s -H "Authorization: Bearer $PERSONAL_KEY" ${apiUrl}/api/v1/public/users   # 403 USER_KEY_NOT_ALLOWED`,
      `  curl -s -H "Authorization: Bearer $ORG_KEY" "${apiUrl}/api/v1/organization/${demo.org_id}/users/usr_demo_member/settings?include=profile,preferences,tags"`,
      `  curl -s -H "Authorization: Bearer $ORG_KEY" "${apiUrl}/api/v1/organization/${demo.org_id}/recordings?startDate=2026-11-01&limit=10"`,
      `  curl -s -H "Authorization: Bearer $ORG_KEY" "${apiUrl}/api/v1/organization/${demo.org_id}/recordings/rec_demo_standup?include=transcript,summary,action_items"`,
      `  curl -s -H "Authorization: Bearer $PERSONAL_KEY" ${apiUrl}/api/v1/public/recordings`,
      `  curl -s -X POST -H "Authorization: Bearer $PERSONAL_KEY" -H "Content-Type: application/json" ${apiUrl}/api/v1/public/recordings/upload-url -d '{"filename":"notes.m4a","content_type":"audio/mp4","size_bytes":12345}'`,
    );
  } else {
    lines.push(
      '',
      'No demo data (LOCAL_SEED=none or an existing data directory without it): build some with `npx voice-org seed --file fixtures/sample-org.json` (or fixtures/demo.json).',
    );
  }
  lines.push('', 'Admin CLI: npx voice-org --help lists its commands (docs/cli.md). Stop with Ctrl-C.');
  return lines.join('\n');
}

void main();
