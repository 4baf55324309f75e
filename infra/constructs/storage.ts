import { Duration, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3n from 'aws-cdk-lib/aws-s3-notifications';
import type { BucketAction } from '../../shared/routes';
import { acknowledge } from './acknowledge';

/** Where recording files are uploaded (recordings/<org>/<recording>/<file>). */
const RECORDINGS_PREFIX = 'recordings/';

/** The recordings bucket: browsers upload to it with pre-signed URLs; the functions read, complete and delete. */
export interface RecordingsStorage {
  readonly bucket: s3.Bucket;
  /** Grants exactly these S3 actions on the recording objects of this bucket, nothing else. */
  grantObjects(role: iam.IRole, actions: readonly BucketAction[]): void;
  /** Sends the bucket's ObjectCreated events under recordings/ to a function. */
  sendObjectCreatedTo(fn: lambda.IFunction): void;
}

/** Adds the recordings bucket to the stack: private, encrypted, TLS only, retained on stack deletion. */
export function addRecordingsStorage(stack: Stack): RecordingsStorage {
  const bucket = new s3.Bucket(stack, 'RecordingsBucket', {
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

  const recordingObjectsFinding = `AwsSolutions-IAM5[Resource::<${stack.getLogicalId(bucket.node.defaultChild as s3.CfnBucket)}.Arn>/${RECORDINGS_PREFIX}*]`;
  return {
    bucket,
    grantObjects(role, actions) {
      role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: actions.map((a) => `s3:${a}`), resources: [bucket.arnForObjects(`${RECORDINGS_PREFIX}*`)] }));
      acknowledge(
        role,
        recordingObjectsFinding,
        'Recording object keys (recordings/<org>/<recording>/<file>) are created per upload, so the upload, completion and delete functions get PutObject, GetObject (for HeadObject) or DeleteObject on the recordings/ prefix of this bucket only, nothing else.',
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
