import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { GATEWAY } from '../shared/http/gateway';
import { EVENT_HANDLERS } from '../shared/events/event-functions';
import { addAlarmTopic } from './constructs/alarm-topic';
import { addApi } from './constructs/api';
import { addDataStore } from './constructs/data';
import { addCustomDomain, type CustomDomainSettings } from './constructs/custom-domain';
import { addEventBus, addEventPipeline } from './constructs/events';
import { addFunctions } from './constructs/functions';
import { addIdentity, addTokenAuthorizer, type IdTokenIssuer } from './constructs/identity';
import { mailSender, type MailSettings } from './constructs/mail';
import { addMonitoring, type AlarmThresholds } from './constructs/observability';
import { addRecordingsStorage } from './constructs/storage';

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
}

/** What the stack uses when its props (or the app's context) leave a setting out. */
export const STACK_DEFAULTS = {
  stage: 'prod',
  throttle: { rateLimit: 50, burstLimit: 100 },
  logRetention: logs.RetentionDays.ONE_MONTH,
} as const;

/**
 * The whole Voice Org API in one stack: a REST API whose routes, handlers and access come
 * from the route manifest (shared/routes/manifest.ts), the Lambda TOKEN authorizer, the single
 * table (shared/storage/table-definition.ts), the ID token issuer, and the event pipeline
 * (the table's stream, the event bus, the consumers' queues). Each part is built, with its
 * cdk-nag acknowledgements, by its builder in infra/constructs/.
 */
export class VoiceOrgStack extends Stack {
  readonly api: apigateway.RestApi;
  readonly table: dynamodb.Table;
  readonly eventBus: events.EventBus;

  constructor(scope: Construct, id: string, props: VoiceOrgStackProps) {
    super(scope, id, props);
    const logRetention = props.logRetention ?? STACK_DEFAULTS.logRetention;

    const data = addDataStore(this);
    const recordings = addRecordingsStorage(this);
    const identity = addIdentity(this, props.idTokenIssuer, { passwordAuth: props.cognitoPasswordAuth ?? false });
    const eventBus = addEventBus(this);
    const functions = addFunctions(this, {
      data,
      recordings,
      identity,
      eventBus,
      mail: mailSender(this, props.mail),
      logRetention,
      stage: props.stage,
      retention: { trashRetentionDays: props.trashRetentionDays, auditRetentionDays: props.auditRetentionDays },
      tenantLimits: props.tenantLimits,
    });
    recordings.sendObjectCreatedTo(functions.forHandler(EVENT_HANDLERS.completeUpload.handler));
    const notifications = addAlarmTopic(this, { alarmTopicArn: props.alarmTopicArn, alarmEmail: props.alarmEmail });
    const pipeline = addEventPipeline(this, { table: data.table, bus: eventBus.bus, functionFor: functions.forHandler, alarmAction: notifications.action });
    this.table = data.table;
    this.eventBus = eventBus.bus;
    this.api = addApi(this, {
      stage: props.stage,
      throttle: props.throttle ?? STACK_DEFAULTS.throttle,
      logRetention,
      authorizer: addTokenAuthorizer(this, functions.authorizer, props.authorizerCacheSeconds ?? GATEWAY.authorizerCacheSeconds),
      functionFor: functions.forHandler,
    });

    if (props.customDomain) addCustomDomain(this, this.api, props.customDomain);
    const monitoring = addMonitoring(this, {
      stage: props.stage,
      api: this.api,
      functionFor: functions.forHandler,
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
