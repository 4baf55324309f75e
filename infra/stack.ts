import { CfnOutput, Stack, Token, type StackProps } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { GATEWAY } from '../shared/http/gateway';
import { AUTHORIZER } from '../shared/auth/authorizer-function';
import { EVENT_HANDLERS } from '../shared/events/event-functions';
import { addAlarmTopic } from './constructs/alarm-topic';
import { addApi } from './constructs/api';
import { addTablesAndKey } from './constructs/tables-and-key';
import { addCustomDomain, type CustomDomainSettings } from './constructs/custom-domain';
import { addEventBus, addEventPipeline } from './constructs/events';
import { addFunctions, type FunctionsProps, type TracingSettings } from './constructs/functions';
import { addIdentity, addTokenAuthorizer, type IdTokenIssuer } from './constructs/identity';
import { mailSender, type MailSettings } from './constructs/mail';
import type { AlarmThresholds } from './constructs/alarm-rules';
import { addMonitoring } from './constructs/observability';
import { addRouteArea } from './constructs/route-area';
import type { RouteStack } from './constructs/route-stack';
import { addRecordingsBucket } from './constructs/recordings-bucket';
import { addSearchCollection } from './constructs/search-collection';
import { summaryModels } from './constructs/summary-models';
import { keepServingDeployedRoutes, SINGLE_STACK_ROUTE_FUNCTIONS } from './constructs/upgrade';
import { assertPipelineServicesIn } from './aws-regions';
import { listFunctions, type FunctionDefinition } from './function-list';
import { listRouteAreas, placePaths } from './route-areas';

export interface VoiceOrgStackProps extends StackProps {
  stage: string;
  /** An external OpenID Connect issuer; without it the stack creates a Cognito user pool. */
  idTokenIssuer?: IdTokenIssuer;
  authorizerCacheSeconds?: number;
  /** Invitation emails: a verified SES identity (domain or address), the sender address, and the web app's URL. */
  mail?: MailSettings;
  /** How long CloudWatch keeps each function's logs and the API's access logs. */
  logRetention?: logs.RetentionDays;
  /** The stage's steady request rate (requests per second) and burst, shared by all clients. */
  throttle?: { rateLimit: number; burstLimit: number };
  /**
   * The limits of an organization without its own (docs/rate-limits.md): requests per second, at
   * once, and per UTC day (default: the config's, 25 per second, 50 at once, no daily quota).
   */
  tenantLimits?: { rate?: number; burst?: number; dailyQuota?: number };
  /**
   * The Bedrock models that write summaries, as BEDROCK_MODEL_MAP (`selected_model=model-id,…`,
   * docs/summaries.md): the summary consumer's map and its only grant. Default: each default model's
   * inference profile in the stack's Region (infra/bedrock-profiles.ts).
   */
  bedrockModelMap?: string;
  /**
   * Search and Ask (docs/search.md): `opensearch` deploys an OpenSearch Serverless collection for
   * them; `off` (the default: a collection bills at least its minimum OCUs every hour) leaves them
   * answering 501 SEARCH_NOT_ENABLED.
   */
  search?: 'opensearch' | 'off';
  /**
   * With search: `titan` (the default) embeds passages with Amazon Titan Text Embeddings V2 for
   * semantic and hybrid search; `off` keeps keyword search only (semantic answers 409).
   */
  searchEmbeddings?: 'titan' | 'off';
  /** IAM role or user ARNs that may run `search reindex` and `search rebuild` against the collection (its data access policy). */
  searchAdminPrincipals?: string[];
  /** Days a recording stays in the trash before it is deleted for good (default: the config's, 30). */
  trashRetentionDays?: number;
  /** Days an audit log entry is kept (default: the config's, 365). */
  auditRetentionDays?: number;
  /** An existing SNS topic (ARN) every alarm notifies; without it the stack creates one. */
  alarmTopicArn?: string;
  /** An email address subscribed to the alarm topic (SNS asks it to confirm first). */
  alarmEmail?: string;
  /** Alarm thresholds other than the defaults (infra/constructs/observability.ts, ALARM_DEFAULTS). */
  alarmThresholds?: Partial<AlarmThresholds>;
  /** Lets the stack's Cognito app client sign in with USER_PASSWORD_AUTH too (a first ID token from the AWS CLI), besides SRP. */
  cognitoPasswordAuth?: boolean;
  /** Serves the API on a custom domain too, at an optional base path. */
  customDomain?: CustomDomainSettings;
  /**
   * The first deploy of the upgrade of a stack deployed before the route stacks (docs/deploy.md):
   * the logical id of its RestApi Deployment (ApiDeployment…). The stack is then synthesized
   * without route stacks and without the route areas' methods and path resources, its functions
   * all in the root stack, and the stage keeps serving that deployment (infra/constructs/upgrade.ts).
   */
  detachRoutesKeepingDeployment?: string;
  /**
   * How requests are traced (docs/observability.md; default `lambda`): Lambda's active tracing
   * and one subsegment per invocation, no tracing SDK in the bundles; `opentelemetry`, the ADOT
   * Lambda layer (its ARN, `adotLayerArn`) with a span per AWS SDK call; or `off`.
   */
  tracing?: TracingSettings;
}

/** What the stack uses when its props (or the app's context) leave a setting out. */
export const STACK_DEFAULTS = {
  stage: 'prod',
  throttle: { rateLimit: 50, burstLimit: 100 },
  logRetention: logs.RetentionDays.ONE_MONTH,
  tracing: { mode: 'lambda' } as TracingSettings,
} as const;

/**
 * The whole Voice Org API: a REST API whose routes, handlers and access come from the route
 * manifest (shared/routes/manifest.ts), the Lambda TOKEN authorizer, the single table
 * (shared/storage/table-definition.ts), the ID token issuer, and the event pipeline (the table's
 * stream, the event bus, the consumers' queues). Each part is built, with its cdk-nag
 * acknowledgements, by its builder in infra/constructs/.
 *
 * This root stack holds everything stateful or shared; each route area (infra/route-areas.ts)
 * has a nested stack of its own (infra/constructs/route-stack.ts) with its functions, methods
 * and path resources, so that every template keeps its headroom under CloudFormation's 500
 * resources (docs/architecture.md, "Route stacks").
 */
export class VoiceOrgStack extends Stack {
  readonly api: apigateway.RestApi;
  readonly table: dynamodb.Table;
  readonly eventBus: events.EventBus;
  /** The route areas' nested stacks, in manifest order (none while detaching routes, the first deploy of the upgrade). */
  readonly routeStacks: RouteStack[] = [];

  constructor(scope: Construct, id: string, props: VoiceOrgStackProps) {
    super(scope, id, props);
    const logRetention = props.logRetention ?? STACK_DEFAULTS.logRetention;
    const detaching = props.detachRoutesKeepingDeployment !== undefined;
    // The CLI always resolves a Region; a stack that knows it refuses one the pipeline's services are not offered in.
    if (!Token.isUnresolved(this.region)) assertPipelineServicesIn(this.region);

    const data = addTablesAndKey(this);
    const recordings = addRecordingsBucket(this);
    const identity = addIdentity(this, props.idTokenIssuer, { passwordAuth: props.cognitoPasswordAuth ?? false });
    const eventBus = addEventBus(this);
    const functionProps: FunctionsProps = {
      data,
      recordings,
      identity,
      eventBus,
      mail: mailSender(props.mail),
      logRetention,
      stage: props.stage,
      retention: { trashRetentionDays: props.trashRetentionDays, auditRetentionDays: props.auditRetentionDays },
      tenantLimits: props.tenantLimits,
      tracing: props.tracing ?? STACK_DEFAULTS.tracing,
      summaryModels: summaryModels(this, props.bedrockModelMap),
      search:
        props.search === 'opensearch'
          ? addSearchCollection(this, {
              stage: props.stage ?? STACK_DEFAULTS.stage,
              embeddings: props.searchEmbeddings !== 'off',
              adminPrincipals: props.searchAdminPrincipals,
            })
          : undefined,
    };
    const areas = listRouteAreas();
    const placement = placePaths(areas);
    const nestedAreas = areas.filter((area) => !area.inRoot);
    const inNestedArea = new Set(nestedAreas.flatMap((area) => area.functions.map((f) => f.handler)));
    // The root stack's functions: the authorizer, the root areas' routes, the event functions (and, while detaching, the single stack's route functions).
    const inRoot = (f: FunctionDefinition) => !inNestedArea.has(f.handler) || (detaching && SINGLE_STACK_ROUTE_FUNCTIONS.has(f.name));
    const functions = new Map(addFunctions(this, functionProps, listFunctions().filter(inRoot)));
    const functionFor = (handlerModule: string) => {
      const fn = functions.get(handlerModule);
      if (!fn) throw new Error(`No function for ${handlerModule}: the function list (infra/function-list.ts) does not name it.`);
      return fn;
    };

    recordings.sendObjectCreatedTo(functionFor(EVENT_HANDLERS.completeUpload.handler));
    const notifications = addAlarmTopic(this, { alarmTopicArn: props.alarmTopicArn, alarmEmail: props.alarmEmail });
    const pipeline = addEventPipeline(this, { table: data.table, bus: eventBus.bus, functionFor, alarmAction: notifications.action });
    this.table = data.table;
    this.eventBus = eventBus.bus;
    const authorizer = addTokenAuthorizer(
      this,
      functionFor(AUTHORIZER.handler),
      props.authorizerCacheSeconds ?? GATEWAY.authorizerCacheSeconds,
    );
    this.api = addApi(this, {
      stage: props.stage,
      throttle: props.throttle ?? STACK_DEFAULTS.throttle,
      logRetention,
      tracing: (props.tracing ?? STACK_DEFAULTS.tracing).mode !== 'off',
      routes: { endpoints: areas.filter((area) => area.inRoot).flatMap((area) => area.endpoints), authorizer, functionFor },
      rootPaths: placement.rootPaths,
    });

    if (detaching) {
      keepServingDeployedRoutes(
        this.api,
        props.detachRoutesKeepingDeployment!,
        listFunctions()
          .filter((f) => inNestedArea.has(f.handler) && SINGLE_STACK_ROUTE_FUNCTIONS.has(f.name))
          .map((f) => functionFor(f.handler)),
      );
    } else {
      for (const area of nestedAreas) {
        const routes = addRouteArea(this, area, { api: this.api, stage: props.stage, authorizer, placement, functions: functionProps });
        this.routeStacks.push(routes.stack);
        for (const [handler, fn] of routes.functions) functions.set(handler, fn);
        // The stage's next deployment must see the area's methods (CloudFormation creates the nested stack first), and
        // any change to them makes a new deployment: CDK hashes only the root stack's methods into its logical id.
        this.api.latestDeployment!.node.addDependency(routes.stack);
        this.api.latestDeployment!.addToLogicalId({ routeStack: area.area, digest: routes.stack.apiDigest() });
      }
    }

    if (props.customDomain) addCustomDomain(this, this.api, props.customDomain);
    const monitoring = addMonitoring(this, {
      stage: props.stage,
      api: this.api,
      functionFor,
      functions: listFunctions().filter((f) => !detaching || inRoot(f)),
      deadLetterQueues: pipeline.deadLetterQueues,
      notifications,
      thresholds: props.alarmThresholds,
    });
    new CfnOutput(this, 'ApiUrl', { value: this.api.url });
    new CfnOutput(this, 'RecordingsBucketName', { value: recordings.bucket.bucketName });
    new CfnOutput(this, 'TableName', { value: data.table.tableName });
    new CfnOutput(this, 'IdempotencyTableName', { value: data.idempotencyTable.tableName });
    new CfnOutput(this, 'RateLimitTableName', { value: data.rateLimitTable.tableName });
    new CfnOutput(this, 'EventBusName', { value: eventBus.bus.eventBusName });
    new CfnOutput(this, 'ProfileKeyArn', { value: data.profileKey.keyArn });
    new CfnOutput(this, 'IdTokenIssuer', { value: identity.issuer.issuer });
    new CfnOutput(this, 'IdTokenAudience', { value: identity.issuer.audience });
    new CfnOutput(this, 'DashboardName', { value: monitoring.dashboard.dashboardName });
    new CfnOutput(this, 'AlarmTopicArn', { value: notifications.topic.topicArn });
  }
}
