import path from 'node:path';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
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
import type { Construct } from 'constructs';
import { GATEWAY, GATEWAY_RESPONSES, type GatewayResponseType } from '../shared/http/gateway';
import { EVENT_HANDLERS, listEndpoints, listHandlers, type ProfileKeyAction, type RoutePermissions, type TableAction } from '../shared/routes';
import { TABLE } from '../shared/storage/table-definition';

const repoRoot = path.resolve(__dirname, '..');

export interface VoiceOrgStackProps extends StackProps {
  stage: string;
  /** An external OpenID Connect issuer; without it the stack creates a Cognito user pool. */
  idTokenIssuer?: { issuer: string; audience: string; jwksUrl: string };
  authorizerCacheSeconds?: number;
  /** Invitation emails: a verified SES identity (domain or address), the sender address, and the web app's URL. */
  mail?: { identity: string; fromAddress: string; appUrl: string };
  logRetention?: logs.RetentionDays;
}

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

    const issuer = props.idTokenIssuer ?? this.createUserPool();
    const logRetention = props.logRetention ?? logs.RetentionDays.ONE_MONTH;
    const commonEnvironment = { TABLE_NAME: this.table.tableName, POWERTOOLS_SERVICE_NAME: 'voice-org-api', NODE_OPTIONS: '--enable-source-maps' };
    const mail = props.mail ?? { identity: 'example.com', fromAddress: 'no-reply@example.com', appUrl: 'https://app.example.com' };
    const mailEnvironment = { SES_FROM_ADDRESS: mail.fromAddress, APP_URL: mail.appUrl };
    const environmentFor = (permissions: RoutePermissions) => ({
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

    this.api = new apigateway.RestApi(this, 'Api', {
      restApiName: `voice-org-api-${props.stage}`,
      description: 'Voice Org API',
      deployOptions: { stageName: props.stage },
    });
    for (const [type, response] of Object.entries(GATEWAY_RESPONSES) as [GatewayResponseType, (typeof GATEWAY_RESPONSES)[GatewayResponseType]][]) {
      const { statusCode, ...body } = response;
      this.api.addGatewayResponse(`GatewayResponse${type}`, {
        type: apigateway.ResponseType.of(type),
        statusCode: statusCode === undefined ? undefined : String(statusCode),
        responseHeaders: { [GATEWAY.correlationHeader]: `method.request.header.${GATEWAY.correlationHeader}` },
        templates: { 'application/json': JSON.stringify(body) },
      });
    }

    const authorizer = new apigateway.TokenAuthorizer(this, 'Authorizer', {
      handler: authorizerFunction,
      identitySource: apigateway.IdentitySource.header('Authorization'),
      validationRegex: GATEWAY.authorizationPattern,
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
    for (const endpoint of listEndpoints()) {
      const isPublic = endpoint.route.access === 'public';
      this.api.root.resourceForPath(endpoint.path).addMethod(
        endpoint.method,
        new apigateway.LambdaIntegration(functions.get(endpoint.route.handler)!),
        isPublic ? { authorizationType: apigateway.AuthorizationType.NONE } : { authorizer, authorizationType: apigateway.AuthorizationType.CUSTOM },
      );
    }

    // Event functions: the upload completion runs on the bucket's ObjectCreated events.
    const completeUpload = this.createFunction(EVENT_HANDLERS.completeUpload.handler, logRetention, environmentFor(EVENT_HANDLERS.completeUpload.permissions));
    grant(completeUpload, EVENT_HANDLERS.completeUpload.permissions);
    bucket.addEventNotification(s3.EventType.OBJECT_CREATED, new s3n.LambdaDestination(completeUpload), { prefix: 'recordings/' });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url });
    new CfnOutput(this, 'RecordingsBucketName', { value: bucket.bucketName });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'ProfileKeyArn', { value: profileKey.keyArn });
    new CfnOutput(this, 'IdTokenIssuer', { value: issuer.issuer });
    new CfnOutput(this, 'IdTokenAudience', { value: issuer.audience });
  }

  /** A handler module bundled alone: minified, tree-shaken, with source maps. */
  private createFunction(handlerModule: string, logRetention: logs.RetentionDays, environment: Record<string, string>): NodejsFunction {
    const id = handlerModule.replace(/^functions\//, '').replace(/(^|[/-])(\w)/g, (_m, _sep, c: string) => c.toUpperCase());
    return new NodejsFunction(this, `${id}Function`, {
      entry: path.join(repoRoot, `${handlerModule}.ts`),
      handler: 'handler',
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 512,
      timeout: Duration.seconds(10),
      environment,
      projectRoot: repoRoot,
      depsLockFilePath: path.join(repoRoot, 'package-lock.json'),
      logGroup: new logs.LogGroup(this, `${id}Logs`, { retention: logRetention, removalPolicy: RemovalPolicy.DESTROY }),
      bundling: {
        minify: true,
        sourceMap: true,
        target: 'node22',
        format: OutputFormat.CJS,
        externalModules: [],
        forceDockerBundling: false,
      },
    });
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
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // Sign-in through SRP only: no hosted UI, so no OAuth flows or callback URLs to leave open.
    const client = userPool.addClient('ApiClient', { authFlows: { userSrp: true }, generateSecret: false, disableOAuth: true });
    const issuer = `https://cognito-idp.${this.region}.amazonaws.com/${userPool.userPoolId}`;
    new CfnOutput(this, 'UserPoolId', { value: userPool.userPoolId });
    return { issuer, audience: client.userPoolClientId, jwksUrl: `${issuer}/.well-known/jwks.json` };
  }
}
