import * as logs from 'aws-cdk-lib/aws-logs';
import { searchContext } from './search-context';
import type { Node } from 'constructs';
import type { CustomDomainSettings } from './constructs/custom-domain';
import { DEPLOYMENT_LOGICAL_ID } from './constructs/upgrade';
import { STACK_DEFAULTS, type VoiceOrgStackProps } from './stack';
import { parseConfig, TRACING_MODES, type TracingMode } from '../shared/config';
import type { TracingSettings } from './constructs/functions';
import { RATE_LIMIT_BOUNDS } from '../shared/core/rate-limits';

/** The limits the functions use when the context sets none (shared/config.ts). */
const CONFIG_DEFAULT_LIMITS = parseConfig({ TABLE_NAME: 'defaults' }).rateLimits.defaults;

/**
 * The CDK context the app reads (cdk.json or `-c name=value`), documented in docs/deploy.md.
 * Values given with -c arrive as strings, values in cdk.json as JSON: both are accepted, and a
 * malformed one stops the synth with a message naming it.
 */
export const CONTEXT_KEYS = [
  'stage',
  'idTokenIssuer',
  'idTokenAudience',
  'idTokenJwksUrl',
  'authorizerCacheSeconds',
  'sesIdentity',
  'sesFromAddress',
  'appUrl',
  'throttleRateLimit',
  'throttleBurstLimit',
  'tenantRateLimit',
  'tenantBurstLimit',
  'tenantDailyQuota',
  'logRetentionDays',
  'trashRetentionDays',
  'auditRetentionDays',
  'alarmTopicArn',
  'alarmEmail',
  'alarmLatencyP99Ms',
  'alarm5xxRatePercent',
  'cognitoPasswordAuth',
  'domainName',
  'certificateArn',
  'basePath',
  'detachRoutesKeepingDeployment',
  'tracing',
  'adotLayerArn',
  'bedrockModelMap',
  'search',
  'searchEmbeddings',
  'searchAdminPrincipals',
] as const;

export type ContextKey = (typeof CONTEXT_KEYS)[number];

/** The retention periods CloudWatch Logs accepts, in days (RetentionDays without INFINITE). */
const RETENTION_DAYS = Object.values(logs.RetentionDays).filter(
  (days): days is number => typeof days === 'number' && days !== logs.RetentionDays.INFINITE,
);

/** The stack's name and props from the app's context. */
export function stackPropsFromContext(node: Node): { stackName: string; props: VoiceOrgStackProps } {
  const text = (name: ContextKey): string | undefined => {
    const value: unknown = node.tryGetContext(name);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string' && typeof value !== 'number')
      throw new Error(`Context ${name} must be a string, not ${JSON.stringify(value)}.`);
    return String(value);
  };
  const number = (name: ContextKey, check: (n: number) => boolean, expected: string): number | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || !check(parsed)) throw new Error(`Context ${name} must be ${expected}, not ${JSON.stringify(value)}.`);
    return parsed;
  };
  const url = (name: ContextKey): string | undefined => {
    const value = text(name);
    if (value !== undefined && !/^https:\/\/[^\s/]+/.test(value))
      throw new Error(`Context ${name} must be an https:// URL, not ${JSON.stringify(value)}.`);
    return value;
  };

  const search = searchContext(text); // docs/search.md
  const stage = text('stage') ?? STACK_DEFAULTS.stage;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(stage))
    throw new Error(`Context stage must be letters, digits, - or _ (it names the stack and the API stage), not ${JSON.stringify(stage)}.`);

  const issuer = url('idTokenIssuer');
  const audience = text('idTokenAudience');
  if (issuer && !audience) throw new Error('Context idTokenIssuer needs idTokenAudience (the app client id your issuer puts in aud).');
  if (!issuer && (audience || text('idTokenJwksUrl'))) throw new Error('Context idTokenAudience and idTokenJwksUrl need idTokenIssuer.');

  const sesIdentity = text('sesIdentity');
  const fromAddress = text('sesFromAddress');
  const appUrl = url('appUrl');
  if (!sesIdentity && (fromAddress || appUrl))
    throw new Error('Context sesFromAddress and appUrl need sesIdentity (the verified SES domain or address that sends invitations).');
  if (fromAddress && !/^[^@\s]+@[^@\s]+$/.test(fromAddress))
    throw new Error(`Context sesFromAddress must be an email address, not ${JSON.stringify(fromAddress)}.`);

  const rateLimit = number('throttleRateLimit', (n) => n > 0, 'a number of requests per second above 0');
  const burstLimit = number('throttleBurstLimit', (n) => Number.isInteger(n) && n > 0, 'a whole number of requests above 0');
  // The ranges the functions' config accepts (shared/schemas/rate-limits.ts), so a deployed value never fails their start.
  const tenantRate = number(
    'tenantRateLimit',
    (n) => Number.isInteger(n) && n >= RATE_LIMIT_BOUNDS.rate.min && n <= RATE_LIMIT_BOUNDS.rate.max,
    `a whole number of requests per second from ${RATE_LIMIT_BOUNDS.rate.min} to ${RATE_LIMIT_BOUNDS.rate.max}`,
  );
  const tenantBurst = number(
    'tenantBurstLimit',
    (n) => Number.isInteger(n) && n >= RATE_LIMIT_BOUNDS.burst.min && n <= RATE_LIMIT_BOUNDS.burst.max,
    `a whole number of requests from ${RATE_LIMIT_BOUNDS.burst.min} to ${RATE_LIMIT_BOUNDS.burst.max}`,
  );
  const tenantQuota = number(
    'tenantDailyQuota',
    (n) => Number.isInteger(n) && n >= RATE_LIMIT_BOUNDS.dailyQuota.min && n <= RATE_LIMIT_BOUNDS.dailyQuota.max,
    `a whole number of requests per day from ${RATE_LIMIT_BOUNDS.dailyQuota.min} to ${RATE_LIMIT_BOUNDS.dailyQuota.max}`,
  );
  if ((tenantRate ?? CONFIG_DEFAULT_LIMITS.rate) > (tenantBurst ?? CONFIG_DEFAULT_LIMITS.burst)) {
    throw new Error('Context tenantBurstLimit must be at least tenantRateLimit (a window lasts burst / rate seconds, at least 1).');
  }
  const retentionDays = number(
    'logRetentionDays',
    (n) => RETENTION_DAYS.includes(n),
    `one of CloudWatch's retention periods in days (${RETENTION_DAYS.join(', ')})`,
  );
  // The range the functions' config accepts (shared/config.ts), so a deployed value never fails their start.
  const days = (name: ContextKey) =>
    number(name, (n) => Number.isInteger(n) && n >= 1 && n <= 3650, 'a whole number of days from 1 to 3650');
  const alarmTopicArn = text('alarmTopicArn');
  if (alarmTopicArn !== undefined && !/^arn:aws[\w-]*:sns:[\w-]+:\d{12}:[\w.-]+$/.test(alarmTopicArn)) {
    throw new Error(
      `Context alarmTopicArn must be an SNS topic ARN (arn:aws:sns:<region>:<account>:<name>), not ${JSON.stringify(alarmTopicArn)}.`,
    );
  }
  const alarmEmail = text('alarmEmail');
  if (alarmEmail !== undefined && !/^[^@\s,;]+@[^@\s,;]+\.[^@\s,;]+$/.test(alarmEmail)) {
    throw new Error(
      `Context alarmEmail must be one email address (it is subscribed to the alarm topic and must confirm the subscription), not ${JSON.stringify(alarmEmail)}.`,
    );
  }
  const latencyP99Ms = number(
    'alarmLatencyP99Ms',
    (n) => Number.isInteger(n) && n >= 100 && n <= 30_000,
    'a whole number of milliseconds from 100 to 30000 (the p99 latency the latency alarms fire above)',
  );
  const serverErrorRatePercent = number(
    'alarm5xxRatePercent',
    (n) => n > 0 && n <= 100,
    'a percentage above 0 and at most 100 (the share of 5xx answers the API 5xx alarm fires above)',
  );

  // A flag: JSON true in cdk.json, the string "true" with -c.
  const passwordAuthValue: unknown = node.tryGetContext('cognitoPasswordAuth');
  if (![undefined, null, '', true, false, 'true', 'false'].includes(passwordAuthValue as never)) {
    throw new Error(`Context cognitoPasswordAuth must be true or false, not ${JSON.stringify(passwordAuthValue)}.`);
  }
  const passwordAuth = passwordAuthValue === true || passwordAuthValue === 'true';
  if (passwordAuth && issuer)
    throw new Error('Context cognitoPasswordAuth applies to the Cognito user pool the stack creates: leave it out with idTokenIssuer.');

  // The first deploy of the upgrade to route stacks (docs/deploy.md): the deployed stack's ApiDeployment logical id.
  const keptDeployment = text('detachRoutesKeepingDeployment');
  if (keptDeployment !== undefined && !DEPLOYMENT_LOGICAL_ID.test(keptDeployment)) {
    throw new Error(
      `Context detachRoutesKeepingDeployment must be the logical id of the deployed stack's AWS::ApiGateway::Deployment (ApiDeployment followed by 40 hex digits), not ${JSON.stringify(keptDeployment)}.`,
    );
  }

  const tracing = tracingFromContext(text);
  const bedrockModelMap = bedrockModelMapFromContext(node.tryGetContext('bedrockModelMap'));

  return {
    stackName: `VoiceOrgApi-${stage}`,
    props: {
      stage,
      idTokenIssuer: issuer
        ? { issuer, audience: audience!, jwksUrl: url('idTokenJwksUrl') ?? `${issuer.replace(/\/$/, '')}/.well-known/jwks.json` }
        : undefined,
      authorizerCacheSeconds: number(
        'authorizerCacheSeconds',
        (n) => Number.isInteger(n) && n >= 0 && n <= 3600,
        'a whole number of seconds from 0 to 3600',
      ),
      mail: sesIdentity
        ? {
            identity: sesIdentity,
            fromAddress: fromAddress ?? `no-reply@${sesIdentity.replace(/^.*@/, '')}`,
            appUrl: appUrl ?? 'https://app.example.com',
          }
        : undefined,
      throttle:
        rateLimit === undefined && burstLimit === undefined
          ? undefined
          : { rateLimit: rateLimit ?? STACK_DEFAULTS.throttle.rateLimit, burstLimit: burstLimit ?? STACK_DEFAULTS.throttle.burstLimit },
      logRetention: retentionDays,
      tenantLimits:
        tenantRate === undefined && tenantBurst === undefined && tenantQuota === undefined
          ? undefined
          : { rate: tenantRate, burst: tenantBurst, dailyQuota: tenantQuota },
      trashRetentionDays: days('trashRetentionDays'),
      auditRetentionDays: days('auditRetentionDays'),
      alarmTopicArn,
      alarmEmail,
      alarmThresholds:
        latencyP99Ms === undefined && serverErrorRatePercent === undefined ? undefined : { latencyP99Ms, serverErrorRatePercent },
      cognitoPasswordAuth: passwordAuth || undefined,
      customDomain: customDomainFromContext(text),
      detachRoutesKeepingDeployment: keptDeployment,
      tracing,
      bedrockModelMap,
      ...search,
    },
  };
}

/**
 * The summary models (docs/deploy.md, "Summaries in every Region"): BEDROCK_MODEL_MAP's text with
 * -c, or an object in cdk.json. Checked as the functions' config checks it at cold start (the
 * fallback model's entry included), so a deployed map never fails their start.
 */
function bedrockModelMapFromContext(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const isMap = (v: unknown): v is Record<string, string> =>
    typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((id) => typeof id === 'string');
  if (typeof value !== 'string' && !isMap(value))
    throw new Error(
      `Context bedrockModelMap must be selected_model=model-id,… or an object of model ids by selected_model, not ${JSON.stringify(value)}.`,
    );
  const map =
    typeof value === 'string'
      ? value.trim()
      : Object.entries(value)
          .map(([selected, modelId]) => `${selected}=${modelId}`)
          .join(',');
  try {
    parseConfig({ TABLE_NAME: 'context', BEDROCK_MODEL_MAP: map });
  } catch (error) {
    throw new Error(
      `Context bedrockModelMap must be selected_model=model-id,… with an entry for the fallback model, not ${JSON.stringify(value)}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return map;
}

/** The tracing context keys: a mode (default `lambda`), and the ADOT layer's ARN, which `opentelemetry` needs and no other mode takes. */
function tracingFromContext(text: (name: ContextKey) => string | undefined): TracingSettings | undefined {
  const mode = text('tracing');
  const adotLayerArn = text('adotLayerArn');
  if (mode !== undefined && !TRACING_MODES.includes(mode as TracingMode)) {
    throw new Error(`Context tracing must be one of ${TRACING_MODES.join(', ')} (docs/observability.md), not ${JSON.stringify(mode)}.`);
  }
  if (mode === 'opentelemetry') {
    if (!adotLayerArn)
      throw new Error(
        "Context tracing=opentelemetry needs adotLayerArn: the ARN of the AWS Distro for OpenTelemetry Lambda layer for Node.js (arm64) in the stack's region.",
      );
    if (!/^arn:aws[\w-]*:lambda:[\w-]+:\d{12}:layer:[\w-]+:\d+$/.test(adotLayerArn)) {
      throw new Error(
        `Context adotLayerArn must be a Lambda layer version ARN (arn:aws:lambda:<region>:<account>:layer:<name>:<version>), not ${JSON.stringify(adotLayerArn)}.`,
      );
    }
    return { mode, adotLayerArn };
  }
  if (adotLayerArn !== undefined)
    throw new Error('Context adotLayerArn is the layer of tracing=opentelemetry: leave it out with another tracing mode.');
  return mode === undefined ? undefined : { mode: mode as Exclude<TracingMode, 'opentelemetry'> };
}

/** The custom domain context keys: a domain name and its ACM certificate go together; a base path needs both. */
function customDomainFromContext(text: (name: ContextKey) => string | undefined): CustomDomainSettings | undefined {
  const domainName = text('domainName');
  const certificateArn = text('certificateArn');
  const basePath = text('basePath');
  if (!domainName && !certificateArn) {
    if (basePath !== undefined)
      throw new Error('Context basePath needs domainName and certificateArn (it is the path of the API on the custom domain).');
    return undefined;
  }
  if (!domainName || !certificateArn)
    throw new Error(
      "Context domainName and certificateArn go together (the custom domain and its ACM certificate, in the stack's region).",
    );
  if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(domainName)) {
    throw new Error(`Context domainName must be a lower-case DNS name such as api.example.com, not ${JSON.stringify(domainName)}.`);
  }
  if (!/^arn:aws[\w-]*:acm:[\w-]+:\d{12}:certificate\/[\w-]+$/.test(certificateArn)) {
    throw new Error(
      `Context certificateArn must be an ACM certificate ARN (arn:aws:acm:<region>:<account>:certificate/<id>), not ${JSON.stringify(certificateArn)}.`,
    );
  }
  // API Gateway base paths: letters, digits and $-_.+!*'() ; '/' separates levels. A leading slash is tolerated.
  const path = basePath?.replace(/^\/+|\/+$/g, '');
  if (path !== undefined && path !== '' && !/^[A-Za-z0-9$\-_.+!*'()]+(\/[A-Za-z0-9$\-_.+!*'()]+)*$/.test(path)) {
    throw new Error(`Context basePath must be letters, digits or $-_.+!*'() separated by /, not ${JSON.stringify(basePath)}.`);
  }
  return { domainName, certificateArn, basePath: path || undefined };
}
