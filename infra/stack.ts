import path from 'node:path';
import { CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3n from 'aws-cdk-lib/aws-s3-notifications';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct, IConstruct } from 'constructs';
import type { ConfigVariable } from '../shared/config';
import { CORS_RESPONSE_HEADERS, GATEWAY, GATEWAY_RESPONSE_HEADERS, GATEWAY_RESPONSES, gatewayResponseTemplate, type GatewayResponseType } from '../shared/http/gateway';
import { EVENT_HANDLERS, listEndpoints, listHandlers, type HttpMethod, type ProfileKeyAction, type RoutePermissions, type TableAction } from '../shared/routes';
import { TABLE } from '../shared/storage/table-definition';

const repoRoot = path.resolve(__dirname, '..');

export interface VoiceOrgStackProps extends StackProps {
  stage: string;
  /** An external OpenID Connect issuer; without it the stack creates a Cognito user pool. */
  idTokenIssuer?: { issuer: string; audience: string; jwksUrl: string };
  authorizerCacheSeconds?: number;
  /** Invitation emails: a verified SES identity (domain or address), the sender address, and the web app's URL. */
  mail?: { identity: string; fromAddress: string; appUrl: string };
  /** How long CloudWatch keeps each function's logs and the API's access logs. */
  logRetention?: logs.RetentionDays;
  /** The stage's steady request rate (requests per second) and burst, shared by all clients. */
  throttle?: { rateLimit: number; burstLimit: number };
}

/** What the stack uses when its props (or the app's context) leave a setting out. */
export const STACK_DEFAULTS = {
  stage: 'prod',
  throttle: { rateLimit: 50, burstLimit: 100 },
  logRetention: logs.RetentionDays.ONE_MONTH,
} as const;

/** A function's environment: variables of the config schema (shared/config.ts) only, plus the Node.js runtime's options. */
type FunctionEnvironment = Partial<Record<ConfigVariable, string>> & { NODE_OPTIONS: string };

/**
 * One JSON object per request in the API's access log. REST API access logs can only hold
 * $context variables, not request headers: requestId is also logged by the function (as
 * api_request_id, next to its correlation_id), which joins the two.
 */
export const ACCESS_LOG_FORMAT = {
  requestId: apigateway.AccessLogField.contextRequestId(),
  extendedRequestId: apigateway.AccessLogField.contextExtendedRequestId(),
  requestTime: apigateway.AccessLogField.contextRequestTime(),
  ip: apigateway.AccessLogField.contextIdentitySourceIp(),
  userAgent: apigateway.AccessLogField.contextIdentityUserAgent(),
  method: apigateway.AccessLogField.contextHttpMethod(),
  resource: apigateway.AccessLogField.contextResourcePath(),
  path: apigateway.AccessLogField.contextPath(),
  protocol: apigateway.AccessLogField.contextProtocol(),
  status: apigateway.AccessLogField.contextStatus(),
  responseLength: apigateway.AccessLogField.contextResponseLength(),
  latency: apigateway.AccessLogField.contextResponseLatency(),
  integrationLatency: apigateway.AccessLogField.contextIntegrationLatency(),
  integrationStatus: apigateway.AccessLogField.contextIntegrationStatus(),
  principal: apigateway.AccessLogField.contextAuthorizerPrincipalId(),
  authorizerError: apigateway.AccessLogField.contextAuthorizerError(),
  errorType: apigateway.AccessLogField.contextErrorResponseType(),
  error: apigateway.AccessLogField.contextErrorMessage(),
} as const;

/**
 * The whole Voice Org API in one stack: a REST API whose routes, handlers and access come
 * from the route manifest (shared/routes.ts), the Lambda TOKEN authorizer, the single
 * table (shared/storage/table-definition.ts), and the ID token issuer.
 */
export class VoiceOrgStack extends Stack {
  readonly api: apigateway.RestApi;
  readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string, props: VoiceOrgStackProps) {
    super(scope, id, props);

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE.ttlAttribute,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of TABLE.globalSecondaryIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    // Wraps every member profile's data key; each use is bound to one member's encryption context.
    const profileKey = new kms.Key(this, 'ProfileKey', {
      description: 'Voice Org API: envelope encryption of member profiles',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const bucket = new s3.Bucket(this, 'RecordingsBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      // Browsers upload straight to S3 with the pre-signed URL.
      cors: [{ allowedMethods: [s3.HttpMethods.PUT], allowedOrigins: ['*'], allowedHeaders: ['content-type'], maxAge: 3000 }],
    });
    acknowledge(
      bucket,
      'AwsSolutions-S1',
      'Objects are written only through pre-signed PUT URLs that the create-upload-url function issues (it records the caller and the recording in the table) and deleted only by the delete-recording function; every ObjectCreated event is handled by complete-upload. S3 server access logs would add a second bucket and duplicate that trail; turn on CloudTrail S3 data events for the bucket where an independent audit is required.',
    );

    const issuer = props.idTokenIssuer ?? this.createUserPool();
    const logRetention = props.logRetention ?? STACK_DEFAULTS.logRetention;
    const throttle = props.throttle ?? STACK_DEFAULTS.throttle;
    const commonEnvironment = { TABLE_NAME: this.table.tableName, NODE_OPTIONS: '--enable-source-maps' };
    const mail = props.mail ?? { identity: 'example.com', fromAddress: 'no-reply@example.com', appUrl: 'https://app.example.com' };
    const mailEnvironment = { SES_FROM_ADDRESS: mail.fromAddress, APP_URL: mail.appUrl };
    const environmentFor = (permissions: RoutePermissions): FunctionEnvironment => ({
      ...commonEnvironment,
      ...(permissions.profileKey?.length ? { PROFILE_KMS_KEY_ARN: profileKey.keyArn } : {}),
      ...(permissions.bucket?.length ? { BUCKET_NAME: bucket.bucketName } : {}),
      ...(permissions.mail?.length ? mailEnvironment : {}),
    });
    const grant = (fn: lambda.IFunction, permissions: RoutePermissions) => {
      if (permissions.table?.length) this.grantTable(fn, permissions.table);
      if (permissions.profileKey?.length) this.grantProfileKey(fn, profileKey, permissions.profileKey);
      if (permissions.bucket?.length) {
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: permissions.bucket.map((a) => `s3:${a}`), resources: [bucket.arnForObjects('recordings/*')] }));
      }
      if (permissions.mail?.length) {
        fn.addToRolePolicy(
          new iam.PolicyStatement({
            actions: permissions.mail.map((a) => `ses:${a}`),
            resources: [this.formatArn({ service: 'ses', resource: 'identity', resourceName: mail.identity })],
            conditions: { StringEquals: { 'ses:FromAddress': mail.fromAddress } },
          }),
        );
      }
    };

    const authorizerFunction = this.createFunction('functions/authorizer', logRetention, {
      ...commonEnvironment,
      ID_TOKEN_ISSUER: issuer.issuer,
      ID_TOKEN_AUDIENCE: issuer.audience,
      ID_TOKEN_JWKS_URL: issuer.jwksUrl,
    });
    // Reads keys and identity links; writes an identity link the first time a user signs in.
    this.grantTable(authorizerFunction, ['GetItem', 'PutItem']);

    const accessLogs = new logs.LogGroup(this, 'ApiAccessLogs', { retention: logRetention, removalPolicy: RemovalPolicy.DESTROY });
    this.api = new apigateway.RestApi(this, 'Api', {
      restApiName: `voice-org-api-${props.stage}`,
      description: 'Voice Org API',
      // API Gateway writes access and execution logs through the account's CloudWatch role (one per account and region).
      cloudWatchRole: true,
      deployOptions: {
        stageName: props.stage,
        throttlingRateLimit: throttle.rateLimit,
        throttlingBurstLimit: throttle.burstLimit,
        accessLogDestination: new apigateway.LogGroupLogDestination(accessLogs),
        accessLogFormat: apigateway.AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FORMAT)),
        // Execution logs of failures only, never request or response bodies (they carry tokens and profiles).
        loggingLevel: apigateway.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
      },
    });
    acknowledge(
      this.api,
      'AwsSolutions-APIG2',
      "Every handler validates its path, query and body against the route's valibot schema (shared/schemas) and answers 400 in the API's error envelope with field details; an API Gateway request validator would need the schemas duplicated as models and answer in another format.",
    );
    acknowledge(
      this.api,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      "API Gateway writes the stage's access and execution logs through the account's CloudWatch role (AWS::ApiGateway::Account); AmazonAPIGatewayPushToCloudWatchLogs is the AWS managed policy made for exactly that role.",
    );
    acknowledge(
      this.api.deploymentStage,
      'AwsSolutions-APIG3',
      'No WAF web ACL by default: the stage is throttled (throttleRateLimit/throttleBurstLimit) and every route but /health needs a credential the authorizer checks. A regional web ACL (billed per ACL, rule and request) can be associated with the stage where IP reputation or rate-based rules are required.',
    );
    for (const type of Object.keys(GATEWAY_RESPONSES) as GatewayResponseType[]) {
      const { statusCode } = GATEWAY_RESPONSES[type];
      this.api.addGatewayResponse(`GatewayResponse${type}`, {
        type: apigateway.ResponseType.of(type),
        statusCode: statusCode === undefined ? undefined : String(statusCode),
        responseHeaders: {
          [GATEWAY.correlationHeader]: `method.request.header.${GATEWAY.correlationHeader}`,
          // Static header values are quoted; browsers can then read the error envelope too.
          ...Object.fromEntries(
            Object.entries({ ...CORS_RESPONSE_HEADERS, ...GATEWAY_RESPONSE_HEADERS[type] }).map(([name, value]) => [name, `'${value}'`]),
          ),
        },
        templates: { 'application/json': gatewayResponseTemplate(type) },
      });
    }

    // No identity validation expression: API Gateway would refuse a malformed header with the
    // context-less UNAUTHORIZED response, indistinguishable from a missing one. The authorizer
    // parses the header (any case of the scheme) and refuses it with its own reason.
    const authorizer = new apigateway.TokenAuthorizer(this, 'Authorizer', {
      handler: authorizerFunction,
      identitySource: apigateway.IdentitySource.header('Authorization'),
      resultsCacheTtl: Duration.seconds(props.authorizerCacheSeconds ?? GATEWAY.authorizerCacheSeconds),
    });

    // One function per handler module; a route's public alias shares its function.
    const functions = new Map(
      listHandlers().map(({ handler, permissions }) => {
        const fn = this.createFunction(handler, logRetention, environmentFor(permissions));
        grant(fn, permissions);
        return [handler, fn] as const;
      }),
    );
    const methodsByPath = new Map<string, HttpMethod[]>();
    for (const endpoint of listEndpoints()) {
      const isPublic = endpoint.route.access === 'public';
      const method = this.api.root.resourceForPath(endpoint.path).addMethod(
        endpoint.method,
        new apigateway.LambdaIntegration(functions.get(endpoint.route.handler)!),
        isPublic ? { authorizationType: apigateway.AuthorizationType.NONE } : { authorizer, authorizationType: apigateway.AuthorizationType.CUSTOM },
      );
      methodsByPath.set(endpoint.path, [...(methodsByPath.get(endpoint.path) ?? []), endpoint.method]);
      if (isPublic) {
        acknowledge(method, 'AwsSolutions-APIG4', `${endpoint.method} ${endpoint.path} is public by the route manifest (access: 'public'): it carries no credential.`);
        acknowledge(method, 'AwsSolutions-COG4', `${endpoint.method} ${endpoint.path} is public by the route manifest (access: 'public'): it carries no credential.`);
      } else {
        acknowledge(method, 'AwsSolutions-COG4', COG4_REASON);
      }
    }
    // CORS preflight on every path that serves a route, answered by API Gateway itself (a MOCK
    // integration): browsers send it without credentials, so it has no authorizer (cdk-nag
    // recognises such preflights and does not ask for one).
    for (const [endpointPath, methods] of methodsByPath) {
      this.api.root.resourceForPath(endpointPath).addCorsPreflight({
        allowOrigins: [GATEWAY.cors.allowOrigin],
        allowMethods: methods,
        allowHeaders: [...GATEWAY.cors.allowHeaders],
        maxAge: Duration.seconds(GATEWAY.cors.maxAgeSeconds),
        statusCode: GATEWAY.cors.preflightStatusCode,
      });
    }

    // Event functions: the upload completion runs on the bucket's ObjectCreated events.
    const completeUpload = this.createFunction(EVENT_HANDLERS.completeUpload.handler, logRetention, environmentFor(EVENT_HANDLERS.completeUpload.permissions));
    grant(completeUpload, EVENT_HANDLERS.completeUpload.permissions);
    bucket.addEventNotification(s3.EventType.OBJECT_CREATED, new s3n.LambdaDestination(completeUpload), { prefix: 'recordings/' });
    // CDK's own singleton function that sets the bucket's notification configuration at deploy time.
    const notificationsHandler = this.node.children.find((child) => child.node.id.startsWith('BucketNotificationsHandler'));
    if (notificationsHandler) {
      acknowledge(
        notificationsHandler,
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        "CDK's BucketNotificationsHandler (aws-s3-notifications) creates its own role with the Lambda basic execution policy; it runs only during deployments to set the bucket's notification configuration.",
      );
    }

    // Findings on grants the route manifest makes on purpose (the resource wildcards are the narrowest ARNs that exist).
    acknowledge(
      this,
      `AwsSolutions-IAM5[Resource::<${this.getLogicalId(this.table.node.defaultChild as dynamodb.CfnTable)}.Arn>/index/*]`,
      "Queries by index need the table's index ARNs: <table>/index/* names only this table's global secondary indexes (TABLE.globalSecondaryIndexes), and the actions stay those of each function's manifest permissions.",
    );
    acknowledge(
      this,
      `AwsSolutions-IAM5[Resource::<${this.getLogicalId(bucket.node.defaultChild as s3.CfnBucket)}.Arn>/recordings/*]`,
      'Recording object keys (recordings/<org>/<recording>/<file>) are created per upload, so the upload, completion and delete functions get PutObject, GetObject (for HeadObject) or DeleteObject on the recordings/ prefix of this bucket only, nothing else.',
    );

    new CfnOutput(this, 'ApiUrl', { value: this.api.url });
    new CfnOutput(this, 'RecordingsBucketName', { value: bucket.bucketName });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'ProfileKeyArn', { value: profileKey.keyArn });
    new CfnOutput(this, 'IdTokenIssuer', { value: issuer.issuer });
    new CfnOutput(this, 'IdTokenAudience', { value: issuer.audience });
  }

  /**
   * A handler module bundled alone: minified, tree-shaken, with source maps. It logs to a log
   * group of its own, and its role may write to that log group only (no AWS managed policy).
   */
  private createFunction(handlerModule: string, logRetention: logs.RetentionDays, environment: FunctionEnvironment): NodejsFunction {
    const id = handlerModule.replace(/^functions\//, '').replace(/(^|[/-])(\w)/g, (_m, _sep, c: string) => c.toUpperCase());
    const logGroup = new logs.LogGroup(this, `${id}Logs`, { retention: logRetention, removalPolicy: RemovalPolicy.DESTROY });
    const role = new iam.Role(this, `${id}Role`, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'), description: `Voice Org API: ${handlerModule}` });
    logGroup.grantWrite(role);
    const fn = new NodejsFunction(this, `${id}Function`, {
      entry: path.join(repoRoot, `${handlerModule}.ts`),
      handler: 'handler',
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 512,
      timeout: Duration.seconds(10),
      environment,
      role,
      projectRoot: repoRoot,
      depsLockFilePath: path.join(repoRoot, 'package-lock.json'),
      logGroup,
      bundling: {
        minify: true,
        sourceMap: true,
        target: 'node22',
        format: OutputFormat.CJS,
        externalModules: [],
        forceDockerBundling: false,
      },
    });
    acknowledge(fn, 'AwsSolutions-L1', RUNTIME_REASON);
    return fn;
  }

  /** Grants exactly these DynamoDB actions on the table and its indexes, nothing wider. */
  private grantTable(fn: lambda.IFunction, actions: readonly TableAction[]): void {
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: actions.map((action) => `dynamodb:${action}`),
        resources: [this.table.tableArn, `${this.table.tableArn}/index/*`],
      }),
    );
  }

  /**
   * Grants exactly these KMS actions on the profile key, and only for requests that carry a
   * member profile's encryption context (purpose, org_id and user_id).
   */
  private grantProfileKey(fn: lambda.IFunction, key: kms.IKey, actions: readonly ProfileKeyAction[]): void {
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: actions.map((action) => `kms:${action}`),
        resources: [key.keyArn],
        conditions: {
          StringEquals: { 'kms:EncryptionContext:purpose': 'member-profile' },
          Null: { 'kms:EncryptionContext:org_id': 'false', 'kms:EncryptionContext:user_id': 'false' },
        },
      }),
    );
  }

  private createUserPool(): { issuer: string; audience: string; jwksUrl: string } {
    const userPool = new cognito.UserPool(this, 'UserPool', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      standardAttributes: { email: { required: true, mutable: true }, fullname: { required: false, mutable: true } },
      passwordPolicy: { minLength: 12, requireDigits: true, requireLowercase: true, requireUppercase: true, requireSymbols: false },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      // Members may enrol an authenticator app (TOTP); no SMS, so no SNS role or text messages.
      mfa: cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(
      userPool,
      'AwsSolutions-COG1',
      'Passwords need at least 12 characters with upper and lower case letters and digits; NIST SP 800-63B favours length over further composition rules such as a required symbol.',
    );
    acknowledge(
      userPool,
      'AwsSolutions-COG2',
      'MFA is optional (TOTP authenticator apps): invited members accept their invitation at their first sign-in, before they could have enrolled a second factor. Set mfa to REQUIRED once the web app offers enrolment at sign-up.',
    );
    acknowledge(
      userPool,
      'AwsSolutions-COG8',
      'The user pool stays on the Essentials feature plan: Plus (threat protection, compromised-credential checks) is billed per monthly active user. Sign-up is closed (admins invite members) and API keys do not use Cognito at all.',
    );
    // Sign-in through SRP only: no hosted UI, so no OAuth flows or callback URLs to leave open.
    const client = userPool.addClient('ApiClient', { authFlows: { userSrp: true }, generateSecret: false, disableOAuth: true });
    const issuer = `https://cognito-idp.${this.region}.amazonaws.com/${userPool.userPoolId}`;
    new CfnOutput(this, 'UserPoolId', { value: userPool.userPoolId });
    return { issuer, audience: client.userPoolClientId, jwksUrl: `${issuer}/.well-known/jwks.json` };
  }
}

/** Records why a cdk-nag finding on this construct (and the constructs under it) is accepted. */
function acknowledge(scope: IConstruct, id: string, reason: string): void {
  Validations.of(scope).acknowledge({ id, reason });
}

const COG4_REASON =
  'The Lambda TOKEN authorizer checks both ID tokens (of the Cognito user pool or the external issuer) and API keys; a Cognito authorizer could not accept API keys or an external issuer.';
const RUNTIME_REASON =
  'Node.js 22 is a supported Lambda runtime. The bundles target node22 and the artefact tests run them on the Node.js 20/22 this project is developed and tested on; nodejs24.x has not been run here. Move to NODEJS_24_X (and target node24) once the tests run on Node.js 24.';
