import { RemovalPolicy, type Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type { ProfileKeyAction, TableAction } from '../../shared/routes';
import { TABLE } from '../../shared/storage/table-definition';
import { acknowledge } from './acknowledge';

/** The data at rest: the single table (with its stream of changes), and the KMS key that wraps member profiles stored in it. */
export interface DataStore {
  readonly table: dynamodb.Table;
  readonly profileKey: kms.Key;
  /** Grants exactly these DynamoDB actions on the table and its indexes, nothing wider. */
  grantTable(role: iam.IRole, actions: readonly TableAction[]): void;
  /**
   * Grants exactly these KMS actions on the profile key, and only for requests that carry a
   * member profile's encryption context (purpose, org_id and user_id).
   */
  grantProfileKey(role: iam.IRole, actions: readonly ProfileKeyAction[]): void;
}

/**
 * Adds the table (shared/storage/table-definition.ts) and the profile key to the stack. Both
 * are retained when the stack is deleted: they hold the organizations' data.
 */
export function addDataStore(stack: Stack): DataStore {
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
      projectionType: dynamodb.ProjectionType.ALL,
    });
  }

  // Wraps every member profile's data key; each use is bound to one member's encryption context.
  const profileKey = new kms.Key(stack, 'ProfileKey', {
    description: 'Voice Org API: envelope encryption of member profiles',
    enableKeyRotation: true,
    removalPolicy: RemovalPolicy.RETAIN,
  });

  const indexArnsFinding = `AwsSolutions-IAM5[Resource::<${stack.getLogicalId(table.node.defaultChild as dynamodb.CfnTable)}.Arn>/index/*]`;
  return {
    table,
    profileKey,
    grantTable(role, actions) {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: actions.map((action) => `dynamodb:${action}`),
          resources: [table.tableArn, `${table.tableArn}/index/*`],
        }),
      );
      acknowledge(
        role,
        indexArnsFinding,
        "Queries by index need the table's index ARNs: <table>/index/* names only this table's global secondary indexes (TABLE.globalSecondaryIndexes), and the actions stay those of each function's manifest permissions.",
      );
    },
    grantProfileKey(role, actions) {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: actions.map((action) => `kms:${action}`),
          resources: [profileKey.keyArn],
          conditions: {
            StringEquals: { 'kms:EncryptionContext:purpose': 'member-profile' },
            Null: { 'kms:EncryptionContext:org_id': 'false', 'kms:EncryptionContext:user_id': 'false' },
          },
        }),
      );
    },
  };
}
