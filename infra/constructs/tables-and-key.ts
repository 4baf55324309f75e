import { RemovalPolicy, type Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type {
  IdempotencyAction,
  ProfileKeyAction,
  RateLimitAction,
  TableAction,
  WebhookSecretKeyAction,
} from '../../shared/function-permissions';
import { IDEMPOTENCY_TABLE } from '../../shared/storage/idempotency-table-definition';
import { RATE_LIMIT_TABLE } from '../../shared/storage/rate-limit-table-definition';
import { TABLE } from '../../shared/storage/table-definition';
import { acknowledge, findingTextOf } from './acknowledge';
import { rootValue } from './route-stack';

/**
 * The data at rest: the single table (with its stream of changes), and the KMS key that wraps
 * the data keys of what is stored encrypted in it: member profiles and webhook signing secrets,
 * each use bound to its own encryption context.
 */
export interface TablesAndKey {
  readonly table: dynamodb.Table;
  /** Idempotency-Key records (shared/storage/idempotency-table-definition.ts): 24-hour items, no stream. */
  readonly idempotencyTable: dynamodb.Table;
  /** The rate limiter's counters (shared/storage/rate-limit-table-definition.ts): short-lived items, no stream. */
  readonly rateLimitTable: dynamodb.Table;
  readonly profileKey: kms.Key;
  /** Grants exactly these DynamoDB actions on the table and its indexes, nothing wider. */
  grantTable(role: iam.IRole, actions: readonly TableAction[]): void;
  /** Grants exactly these DynamoDB actions on the idempotency table (it has no index). */
  grantIdempotencyTable(role: iam.IRole, actions: readonly IdempotencyAction[]): void;
  /** Grants exactly these DynamoDB actions on the rate limiter's counter table (it has no index). */
  grantRateLimitTable(role: iam.IRole, actions: readonly RateLimitAction[]): void;
  /**
   * Grants exactly these KMS actions on the profile key, and only for requests that carry a
   * member profile's encryption context (purpose, org_id and user_id).
   */
  grantProfileKey(role: iam.IRole, actions: readonly ProfileKeyAction[]): void;
  /**
   * Grants exactly these KMS actions on the same key, and only for requests that carry a
   * webhook signing secret's encryption context (purpose, org_id and webhook_id).
   */
  grantWebhookSecretKey(role: iam.IRole, actions: readonly WebhookSecretKeyAction[]): void;
}

/**
 * The encryption context purposes the key serves, and the context keys each requires: a grant
 * for one purpose cannot decrypt what was encrypted for the other.
 */
const KEY_PURPOSES = {
  memberProfile: { purpose: 'member-profile', required: ['org_id', 'user_id'] },
  webhookSecret: { purpose: 'webhook-secret', required: ['org_id', 'webhook_id'] },
} as const;

/**
 * Adds the table (shared/storage/table-definition.ts) and the profile key to the stack. Both
 * are retained when the stack is deleted: they hold the organizations' data.
 */
export function addTablesAndKey(stack: Stack): TablesAndKey {
  const table = new dynamodb.Table(stack, 'Table', {
    partitionKey: { name: TABLE.partitionKey, type: dynamodb.AttributeType.STRING },
    sortKey: { name: TABLE.sortKey, type: dynamodb.AttributeType.STRING },
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    timeToLiveAttribute: TABLE.ttlAttribute,
    // Every committed change, with the item before and after it, feeds the event processor (infra/constructs/events.ts).
    stream: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
    deletionProtection: true,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  for (const index of TABLE.globalSecondaryIndexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.indexName,
      partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
      projectionType: index.projection === 'KEYS_ONLY' ? dynamodb.ProjectionType.KEYS_ONLY : dynamodb.ProjectionType.ALL,
    });
  }

  // Records of Idempotency-Key that live 24 hours: kept apart so they neither reach the event
  // processor through the single table's stream nor need a backup; removed with the stack.
  const idempotencyTable = addTableOfItsOwn(
    stack,
    'IdempotencyTable',
    IDEMPOTENCY_TABLE,
    'Idempotency-Key records only say whether a POST already ran in the last 24 hours; losing them lets a client retry once more, and they expire by TTL anyway: point-in-time recovery would restore nothing worth keeping.',
  );

  // One counter per organization (or key) and window, changed by every request: kept apart so that
  // no counter change reaches the event processor through the single table's stream.
  const rateLimitTable = addTableOfItsOwn(
    stack,
    'RateLimitTable',
    RATE_LIMIT_TABLE,
    'Rate limit counters only count the requests of the current window (a day at most) and expire by TTL: point-in-time recovery would restore nothing worth keeping.',
  );

  // Wraps every member profile's and webhook signing secret's data key; each use is bound to one member's or one endpoint's encryption context.
  // One key for both: its id (ProfileKey) and the variable naming it (PROFILE_KMS_KEY_ARN) stay, so deployed stacks keep their key
  // (a new description is an in-place update).
  const profileKey = new kms.Key(stack, 'ProfileKey', {
    description: 'Voice Org API: envelope encryption of member profiles and webhook signing secrets',
    enableKeyRotation: true,
    removalPolicy: RemovalPolicy.RETAIN,
  });

  // A role in a route stack (infra/constructs/route-stack.ts) reads these ARNs as parameters of its stack.
  const keyArnFor = (role: iam.IRole) => rootValue(role, 'ProfileKmsKeyArn', profileKey.keyArn);
  const grantKeyFor = (
    role: iam.IRole,
    actions: readonly string[],
    { purpose, required }: (typeof KEY_PURPOSES)[keyof typeof KEY_PURPOSES],
  ) => {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: actions.map((action) => `kms:${action}`),
        resources: [keyArnFor(role)],
        conditions: {
          StringEquals: { 'kms:EncryptionContext:purpose': purpose },
          Null: Object.fromEntries(required.map((key) => [`kms:EncryptionContext:${key}`, 'false'])),
        },
      }),
    );
  };

  return {
    table,
    idempotencyTable,
    rateLimitTable,
    profileKey,
    grantTable(role, actions) {
      const tableArn = rootValue(role, 'TableArn', table.tableArn);
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: actions.map((action) => `dynamodb:${action}`),
          resources: [tableArn, `${tableArn}/index/*`],
        }),
      );
      acknowledge(
        role,
        `AwsSolutions-IAM5[Resource::${findingTextOf(role, tableArn)}/index/*]`,
        "Queries by index need the table's index ARNs: <table>/index/* names only this table's global secondary indexes (TABLE.globalSecondaryIndexes), and the actions stay those of each function's manifest permissions.",
      );
    },
    grantIdempotencyTable(role, actions) {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: actions.map((action) => `dynamodb:${action}`),
          resources: [rootValue(role, 'IdempotencyTableArn', idempotencyTable.tableArn)],
        }),
      );
    },
    grantRateLimitTable(role, actions) {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: actions.map((action) => `dynamodb:${action}`),
          resources: [rootValue(role, 'RateLimitTableArn', rateLimitTable.tableArn)],
        }),
      );
    },
    grantProfileKey(role, actions) {
      grantKeyFor(role, actions, KEY_PURPOSES.memberProfile);
    },
    grantWebhookSecretKey(role, actions) {
      grantKeyFor(role, actions, KEY_PURPOSES.webhookSecret);
    },
  };
}

/**
 * A table apart from the single table, for short-lived items under keys no other item shares:
 * on demand, keyed by one string, expiring by TTL, no stream, no backup, removed with the stack.
 */
function addTableOfItsOwn(
  stack: Stack,
  id: string,
  shape: { partitionKey: string; ttlAttribute: string },
  noBackupReason: string,
): dynamodb.Table {
  const table = new dynamodb.Table(stack, id, {
    partitionKey: { name: shape.partitionKey, type: dynamodb.AttributeType.STRING },
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    timeToLiveAttribute: shape.ttlAttribute,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  acknowledge(table, 'AwsSolutions-DDB3', noBackupReason);
  return table;
}
