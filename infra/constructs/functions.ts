import path from 'node:path';
import { Duration, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { ConfigVariable, TracingMode } from '../../shared/config';
import type { FunctionPermissions } from '../../shared/function-permissions';
import type { FunctionDefinition } from '../function-list';
import { acknowledge } from './acknowledge';
import { grantTranscribeJobs, grantTranslate } from './service-grants';
import { PACKAGES_BESIDE_BUNDLE, packagesBesideBundle } from './bundle-packages';
import { referenceFileHooks } from './reference-files';
import { rootValue } from './route-stack';
import type { SearchCollection } from './search-collection';
import type { TablesAndKey } from './tables-and-key';
import type { EventBusAccess } from './events';
import type { Identity } from './identity';
import type { MailSender } from './mail';
import type { RecordingsBucket } from './recordings-bucket';
import type { SummaryModels } from './summary-models';

const repoRoot = path.resolve(__dirname, '../..');

/**
 * How every function is bundled, beside minify, source maps and target (see createFunction):
 * ESM, so that esbuild tree-shakes the packages' ES builds (module-first resolution: the AWS
 * SDK, Powertools and middy ship one) rather than their CommonJS builds, which it cannot.
 * The banner gives the CommonJS code still bundled (and a module of ours, reference-files.ts)
 * the `require`, `__filename` and `__dirname` an ES module lacks. test/bench/bundles.bench.ts
 * builds its bare reference handler with the same settings.
 */
export const BUNDLE_SETTINGS = {
  format: 'esm',
  platform: 'node',
  target: 'node22',
  mainFields: ['module', 'main'],
  banner: [
    "import { createRequire as __bundleCreateRequire } from 'node:module';",
    "import { dirname as __bundleDirname } from 'node:path';",
    "import { fileURLToPath as __bundleFileURLToPath } from 'node:url';",
    'const require = __bundleCreateRequire(import.meta.url);',
    'const __filename = __bundleFileURLToPath(import.meta.url);',
    'const __dirname = __bundleDirname(__filename);',
  ].join(' '),
} as const;

/**
 * How the functions are traced (CDK context `tracing`, docs/observability.md):
 * - `lambda`: Lambda's active tracing (a segment per invocation, joined to API Gateway's trace)
 *   and one subsegment per invocation sent by the handler itself to the X-Ray daemon
 *   (TRACING=lambda, shared/observability/invocation-trace.ts); no tracing SDK in the bundles.
 * - `opentelemetry`: active tracing and the AWS Distro for OpenTelemetry Lambda layer
 *   (`adotLayerArn`, started by AWS_LAMBDA_EXEC_WRAPPER), which instruments the AWS SDK from
 *   outside the bundle: a span per AWS call. The functions' own subsegment is off.
 * - `off`: no tracing (Lambda passes a caller's trace header through, records nothing).
 */
export type TracingSettings = { mode: Exclude<TracingMode, 'opentelemetry'> } | { mode: 'opentelemetry'; adotLayerArn: string };

/** The ADOT Lambda layer's wrapper script, which loads OpenTelemetry before the handler (aws-otel.github.io, Lambda, JavaScript). */
export const ADOT_EXEC_WRAPPER = '/opt/otel-handler';

/** A function's timeout when its manifest entry sets none (FunctionDefinition.timeoutSeconds). */
const DEFAULT_FUNCTION_TIMEOUT = Duration.seconds(10);

/** A function's environment: variables of the config schema (shared/config.ts) only, plus the Node.js runtime's options. */
type FunctionEnvironment = Partial<Record<ConfigVariable, string>> & { NODE_OPTIONS: string; AWS_LAMBDA_EXEC_WRAPPER?: string };

export interface FunctionsProps {
  /** The Bedrock models summaries are written with: the only ones a function with Bedrock permissions may call, and its BEDROCK_MODEL_MAP. */
  summaryModels: SummaryModels;
  data: TablesAndKey;
  recordings: RecordingsBucket;
  mail: MailSender;
  eventBus: EventBusAccess;
  identity: Identity;
  logRetention: logs.RetentionDays;
  /** The stack's stage: every function's STAGE, the `stage` dimension of its business metrics. */
  stage?: string;
  /**
   * Settings every function gets, like the table name: how long the trash and the audit log
   * keep things. Left out, each function uses the config's default (shared/config.ts).
   */
  retention?: { trashRetentionDays?: number; auditRetentionDays?: number };
  /**
   * The limits of an organization without its own (docs/rate-limits.md), given to the functions
   * that count requests. Left out, each uses the config's default (shared/config.ts).
   */
  tenantLimits?: { rate?: number; burst?: number; dailyQuota?: number };
  /** How the functions are traced (default `lambda`). */
  tracing?: TracingSettings;
  /** The search collection (`-c search=opensearch`); absent, the search functions answer SEARCH_NOT_ENABLED. */
  search?: SearchCollection;
}

/** Functions built from handler modules, by module. */
export type FunctionsByHandler = ReadonlyMap<string, NodejsFunction>;

/**
 * Adds one function per definition (infra/function-list.ts: the routes' handler modules, the
 * authorizer, the event functions) to a stack, the root or a route stack, each with the
 * environment and the IAM grants its declared permissions ask for, and nothing more; the
 * authorizer alone also gets the ID token settings. In a route stack, the environment's values
 * of the root stack (the table's name, …) are parameters named after their variable
 * (TABLE_NAME → TableName; infra/constructs/route-stack.ts).
 */
export function addFunctions(stack: Stack, props: FunctionsProps, definitions: readonly FunctionDefinition[]): FunctionsByHandler {
  const {
    data,
    recordings,
    mail,
    eventBus,
    identity,
    logRetention,
    stage,
    retention = {},
    tenantLimits = {},
    tracing = { mode: 'lambda' },
  } = props;
  // Stack-wide settings, set on every function: one that reads them without them would silently use the default.
  const settings: Partial<Record<ConfigVariable, string>> = {
    ...(stage === undefined ? {} : { STAGE: stage }),
    ...(retention.trashRetentionDays === undefined ? {} : { TRASH_RETENTION_DAYS: String(retention.trashRetentionDays) }),
    ...(retention.auditRetentionDays === undefined ? {} : { AUDIT_RETENTION_DAYS: String(retention.auditRetentionDays) }),
    TRACING: tracing.mode,
  };
  const limitSettings: Partial<Record<ConfigVariable, string>> = {
    ...(tenantLimits.rate === undefined ? {} : { RATE_LIMIT_DEFAULT_RATE: String(tenantLimits.rate) }),
    ...(tenantLimits.burst === undefined ? {} : { RATE_LIMIT_DEFAULT_BURST: String(tenantLimits.burst) }),
    ...(tenantLimits.dailyQuota === undefined ? {} : { RATE_LIMIT_DEFAULT_DAILY_QUOTA: String(tenantLimits.dailyQuota) }),
  };
  const environmentFor = (permissions: FunctionPermissions): FunctionEnvironment => ({
    TABLE_NAME: data.table.tableName,
    NODE_OPTIONS: '--enable-source-maps',
    ...settings,
    // The profile key also wraps webhook signing secrets (under another encryption context): the same variable names it.
    ...(permissions.profileKey?.length || permissions.webhookSecretKey?.length ? { PROFILE_KMS_KEY_ARN: data.profileKey.keyArn } : {}),
    ...(permissions.bucket?.length || permissions.exportObjects?.length || permissions.vocabularyFiles?.length
      ? { BUCKET_NAME: recordings.bucket.bucketName }
      : {}),
    ...(permissions.mail?.length ? mail.environment : {}),
    ...(permissions.events?.length ? eventBus.environment : {}),
    ...(permissions.idempotency?.length ? { IDEMPOTENCY_TABLE_NAME: data.idempotencyTable.tableName } : {}),
    ...(permissions.rateLimit?.length ? { RATE_LIMIT_TABLE_NAME: data.rateLimitTable.tableName, ...limitSettings } : {}),
    ...(permissions.bedrock?.length ? props.summaryModels.environment : {}),
    ...(permissions.search?.length && props.search ? props.search.environment : {}),
  });
  const grant = (role: iam.IRole, permissions: FunctionPermissions) => {
    if (permissions.table?.length) data.grantTable(role, permissions.table);
    if (permissions.idempotency?.length) data.grantIdempotencyTable(role, permissions.idempotency);
    if (permissions.rateLimit?.length) data.grantRateLimitTable(role, permissions.rateLimit);
    if (permissions.profileKey?.length) data.grantProfileKey(role, permissions.profileKey);
    if (permissions.webhookSecretKey?.length) data.grantWebhookSecretKey(role, permissions.webhookSecretKey);
    if (permissions.bucket?.length) recordings.grantRecordings(role, permissions.bucket);
    if (permissions.exportObjects?.length) recordings.grantExports(role, permissions.exportObjects);
    if (permissions.vocabularyFiles?.length) recordings.grantVocabularyFiles(role, permissions.vocabularyFiles);
    if (permissions.mail?.length) mail.grantSend(role, permissions.mail);
    if (permissions.events?.length) eventBus.grantPublish(role, permissions.events);
    if (permissions.transcribe?.length) grantTranscribeJobs(stack, role, permissions.transcribe);
    if (permissions.bedrock?.length) props.summaryModels.grantInvoke(role, permissions.bedrock);
    if (permissions.translate?.length) grantTranslate(role, permissions.translate);
    if (permissions.search?.length && props.search) props.search.grantData(role, permissions.search);
  };
  const build = ({ handler, name, kind, permissions, timeoutSeconds }: FunctionDefinition) => {
    // The queue a consumer reads is created with the event pipeline, which grants these actions on it (infra/constructs/events.ts).
    if (permissions.queue?.length && kind !== 'consumer')
      throw new Error(`${handler} asks for queue permissions, which only an event consumer (on its own queue) can have.`);
    const environment = inStack(stack, {
      ...environmentFor(permissions),
      ...(kind === 'authorizer' ? identity.authorizerEnvironment : {}),
    });
    const timeout = timeoutSeconds === undefined ? DEFAULT_FUNCTION_TIMEOUT : Duration.seconds(timeoutSeconds);
    const { fn, role } = createFunction(stack, handler, name, { logRetention, environment, timeout, tracing });
    grant(role, permissions);
    return fn;
  };

  // One function per handler module: a route's public alias shares its route's function.
  return new Map(definitions.map((definition) => [definition.handler, build(definition)] as const));
}

/** An environment as a stack reads it: the root stack's values of a route stack's function are parameters named after their variable. */
function inStack(stack: Stack, environment: FunctionEnvironment): FunctionEnvironment {
  const parameterName = (variable: string) => variable.toLowerCase().replace(/(^|_)(\w)/g, (_m, _sep, c: string) => c.toUpperCase());
  return Object.fromEntries(
    Object.entries(environment).map(([variable, value]) => [variable, rootValue(stack, parameterName(variable), value)]),
  ) as FunctionEnvironment;
}

/**
 * A handler module bundled alone as an ES module (BUNDLE_SETTINGS): minified, tree-shaken, with source maps. It logs to a log
 * group of its own, and its role may write to that log group only (no AWS managed policy).
 * X-Ray active tracing samples its invocations unless tracing is off (TracingSettings); with
 * `opentelemetry`, the ADOT layer wraps the handler.
 * The ids (UsersListUsersFunction, …Role, …Logs) come from its deployed name (users/list-users,
 * infra/deployed-names.ts), at the stack's scope: they make the logical ids that deployed stacks
 * and `sam local invoke` know, wherever the handler's code moves.
 */
function createFunction(
  stack: Stack,
  handlerModule: string,
  name: string,
  {
    logRetention,
    environment,
    timeout,
    tracing,
  }: { logRetention: logs.RetentionDays; environment: FunctionEnvironment; timeout: Duration; tracing: TracingSettings },
): { fn: NodejsFunction; role: iam.Role } {
  const id = name.replace(/(^|[/-])(\w)/g, (_m, _sep, c: string) => c.toUpperCase());
  const logGroup = new logs.LogGroup(stack, `${id}Logs`, { retention: logRetention, removalPolicy: RemovalPolicy.DESTROY });
  const role = new iam.Role(stack, `${id}Role`, {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    description: `Voice Org API: functions/${name}`,
  });
  logGroup.grantWrite(role);
  const fn = new NodejsFunction(stack, `${id}Function`, {
    entry: path.join(repoRoot, `${handlerModule}.ts`),
    handler: 'handler',
    runtime: lambda.Runtime.NODEJS_22_X,
    architecture: lambda.Architecture.ARM_64,
    memorySize: 512,
    timeout,
    tracing: tracing.mode === 'off' ? lambda.Tracing.DISABLED : lambda.Tracing.ACTIVE,
    environment: tracing.mode === 'opentelemetry' ? { ...environment, AWS_LAMBDA_EXEC_WRAPPER: ADOT_EXEC_WRAPPER } : environment,
    layers:
      tracing.mode === 'opentelemetry'
        ? [lambda.LayerVersion.fromLayerVersionArn(stack, `${id}AdotLayer`, tracing.adotLayerArn)]
        : undefined,
    role,
    projectRoot: repoRoot,
    depsLockFilePath: path.join(repoRoot, 'package-lock.json'),
    logGroup,
    bundling: {
      minify: true,
      sourceMap: true,
      target: BUNDLE_SETTINGS.target,
      format: OutputFormat.ESM,
      mainFields: [...BUNDLE_SETTINGS.mainFields],
      banner: BUNDLE_SETTINGS.banner,
      // The redactor's English model (3.6 MB) stays out of the bundle: copied beside it, loaded only when names are redacted.
      externalModules: [...(PACKAGES_BESIDE_BUNDLE[handlerModule] ?? [])],
      forceDockerBundling: false,
      // The API reference's functions carry Scalar's bundle or the OpenAPI document beside their own.
      commandHooks: referenceFileHooks(handlerModule) ?? packagesBesideBundle(handlerModule, repoRoot),
    },
  });
  // Active tracing grants xray:PutTraceSegments and xray:PutTelemetryRecords, which IAM only grants on *.
  if (tracing.mode !== 'off') {
    acknowledge(
      role,
      'AwsSolutions-IAM5[Resource::*]',
      'Active tracing lets the function send its trace segments: xray:PutTraceSegments and xray:PutTelemetryRecords have no resource-level permissions in IAM, so CDK grants them on * (and nothing else on *).',
    );
  }
  acknowledge(
    fn,
    'AwsSolutions-L1',
    'Node.js 22 is a supported Lambda runtime. The bundles target node22 and the artefact tests run them on the Node.js 20/22 this project is developed and tested on; nodejs24.x has not been run here. Move to NODEJS_24_X (and target node24) once the tests run on Node.js 24.',
  );
  return { fn, role };
}
