import { Duration, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3n from 'aws-cdk-lib/aws-s3-notifications';
import type { BucketAction, ExportObjectAction, VocabularyFileAction } from '../../shared/function-permissions';
import { MEMBER_EXPORT_RETENTION_DAYS } from '../../shared/storage/member-export-items';
import { acknowledge, findingTextOf } from './acknowledge';
import { rootValue } from './route-stack';

/** Where recording files are uploaded (recordings/<org>/<recording>/<file>). */
const RECORDINGS_PREFIX = 'recordings/';
/** Where members' data exports are written (exports/<org>/<user>/<export>.zip): kept a week (docs/governance.md). */
const EXPORTS_PREFIX = 'exports/';
/** Where the vocabulary consumer writes the files Transcribe reads (shared/storage/vocabulary-files.ts). */
const VOCABULARIES_PREFIX = 'vocabularies/';

/** S3 actions on the bucket itself (listings); every other BucketAction is on objects. */
const BUCKET_LEVEL_ACTIONS: readonly BucketAction[] = ['ListBucket', 'ListBucketMultipartUploads'];

/** The recordings bucket: browsers upload to it with pre-signed URLs; the functions read, complete and delete. */
export interface RecordingsBucket {
  readonly bucket: s3.Bucket;
  /**
   * Grants exactly these S3 actions, under recordings/ only: object actions on the objects
   * under recordings/, ListBucket on the bucket for prefixes under recordings/, and
   * ListBucketMultipartUploads on the bucket.
   */
  grantRecordings(role: iam.IRole, actions: readonly BucketAction[]): void;
  /** Grants exactly these S3 actions on the objects under exports/ (members' data exports), nothing else. */
  grantExports(role: iam.IRole, actions: readonly ExportObjectAction[]): void;
  /** Grants object actions on the organizations' vocabulary files (vocabularies/ only). */
  grantVocabularyFiles(role: iam.IRole, actions: readonly VocabularyFileAction[]): void;
  /** Sends the bucket's ObjectCreated events under recordings/ to a function. */
  sendObjectCreatedTo(fn: lambda.IFunction): void;
}

/** Adds the recordings bucket to the stack: private, encrypted, TLS only, retained on stack deletion. */
export function addRecordingsBucket(stack: Stack): RecordingsBucket {
  const bucket = new s3.Bucket(stack, 'RecordingsBucket', {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    removalPolicy: RemovalPolicy.RETAIN,
    lifecycleRules: [
      { abortIncompleteMultipartUploadAfter: Duration.days(1) },
      // A member's export holds decrypted personal data: gone a week after it was written, whatever happens to its item.
      { id: 'ExpireMemberExports', prefix: EXPORTS_PREFIX, expiration: Duration.days(MEMBER_EXPORT_RETENTION_DAYS) },
      // Transcribe reads a vocabulary file once, when the vocabulary is made; the consumer deletes it, this catches any it could not.
      { id: 'ExpireVocabularyFiles', prefix: VOCABULARIES_PREFIX, expiration: Duration.days(1) },
    ],
    // Browsers upload straight to S3 with the pre-signed URL.
    // PUT: browser uploads; GET: pages that fetch() a played recording (pre-signed, so the URL is the credential).
    cors: [
      {
        allowedMethods: [s3.HttpMethods.PUT, s3.HttpMethods.GET],
        allowedOrigins: ['*'],
        allowedHeaders: ['content-type', 'range'],
        maxAge: 3000,
      },
    ],
  });
  acknowledge(
    bucket,
    'AwsSolutions-S1',
    'Objects are written only through pre-signed PUT URLs that the create-upload-url function issues (it records the caller and the recording in the table) and deleted only by the functions the manifest grants DeleteObject (the object cleanup consumer, after a permanent delete committed); every ObjectCreated event is handled by complete-upload. S3 server access logs would add a second bucket and duplicate that trail; turn on CloudTrail S3 data events for the bucket where an independent audit is required.',
  );

  return {
    bucket,
    grantRecordings(role, actions) {
      // A role in a route stack (infra/constructs/route-stack.ts) reads the bucket's ARN as a parameter of its stack.
      const bucketArn = rootValue(role, 'RecordingsBucketArn', bucket.bucketArn);
      const objectActions = actions.filter((a) => !BUCKET_LEVEL_ACTIONS.includes(a));
      if (objectActions.length) {
        const objectsArn = `${bucketArn}/${RECORDINGS_PREFIX}*`;
        role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: objectActions.map((a) => `s3:${a}`), resources: [objectsArn] }));
        acknowledge(
          role,
          `AwsSolutions-IAM5[Resource::${findingTextOf(role, objectsArn)}]`,
          'Recording object keys (recordings/<org>/<recording>/<file>) are created per upload, so each function gets the object actions of its manifest permissions (PutObject to upload, GetObject for HeadObject, DeleteObject and AbortMultipartUpload to clean up a deleted recording) on the recordings/ prefix of this bucket only, nothing else.',
        );
      }
      if (actions.includes('ListBucket')) {
        // Listing is allowed only for prefixes under recordings/ (s3:prefix is the request's prefix parameter).
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            actions: ['s3:ListBucket'],
            resources: [bucketArn],
            conditions: { StringLike: { 's3:prefix': `${RECORDINGS_PREFIX}*` } },
          }),
        );
      }
      if (actions.includes('ListBucketMultipartUploads')) {
        // ListMultipartUploads offers no s3:prefix condition key: a condition on it would deny every call. It lists
        // keys and upload ids only; aborting an upload (AbortMultipartUpload) stays limited to recordings/.
        role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['s3:ListBucketMultipartUploads'], resources: [bucketArn] }));
      }
    },
    grantExports(role, actions) {
      const bucketArn = rootValue(role, 'RecordingsBucketArn', bucket.bucketArn);
      const exportsArn = `${bucketArn}/${EXPORTS_PREFIX}*`;
      role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: actions.map((a) => `s3:${a}`), resources: [exportsArn] }));
      acknowledge(
        role,
        `AwsSolutions-IAM5[Resource::${findingTextOf(role, exportsArn)}]`,
        'Export object keys (exports/<org>/<user>/<export>.zip) are created per export, so the export functions get the object actions of their manifest permissions (PutObject and AbortMultipartUpload to write a ZIP in parts, GetObject to sign its download, DeleteObject to erase it) on the exports/ prefix of this bucket only.',
      );
    },
    grantVocabularyFiles(role, actions) {
      const bucketArn = rootValue(role, 'RecordingsBucketArn', bucket.bucketArn);
      const filesArn = `${bucketArn}/${VOCABULARIES_PREFIX}*`;
      role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: actions.map((a) => `s3:${a}`), resources: [filesArn] }));
      acknowledge(
        role,
        `AwsSolutions-IAM5[Resource::${findingTextOf(role, filesArn)}]`,
        "Vocabulary files (vocabularies/<org>/<version>.tsv) are written per organization and version: the vocabulary consumer writes one, Amazon Transcribe reads it with the consumer's own permissions (GetObject), and the consumer deletes it, on the vocabularies/ prefix of this bucket only.",
      );
    },
    sendObjectCreatedTo(fn) {
      bucket.addEventNotification(s3.EventType.OBJECT_CREATED, new s3n.LambdaDestination(fn), { prefix: RECORDINGS_PREFIX });
      // CDK's own singleton function that sets the bucket's notification configuration at deploy time.
      const notificationsHandler = stack.node.children.find((child) => child.node.id.startsWith('BucketNotificationsHandler'));
      if (notificationsHandler) {
        acknowledge(
          notificationsHandler,
          'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
          "CDK's BucketNotificationsHandler (aws-s3-notifications) creates its own role with the Lambda basic execution policy; it runs only during deployments to set the bucket's notification configuration.",
        );
      }
    },
  };
}
