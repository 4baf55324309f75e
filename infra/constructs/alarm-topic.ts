import type { Stack } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';

/** Where alarms go: the topic, and the action that publishes to it. */
export interface AlarmNotifications {
  topic: sns.ITopic;
  action: cloudwatch.IAlarmAction;
}

/**
 * The topic every alarm notifies: an existing one (alarmTopicArn), or one the stack creates
 * (TLS required; CloudWatch alarms of this account and region may publish). With an email
 * address (alarmEmail), the address is subscribed to it: SNS mails a confirmation first.
 */
export function addAlarmTopic(stack: Stack, props: { alarmTopicArn?: string; alarmEmail?: string }): AlarmNotifications {
  let topic: sns.ITopic;
  if (props.alarmTopicArn) {
    topic = sns.Topic.fromTopicArn(stack, 'AlarmTopic', props.alarmTopicArn);
  } else {
    const created = new sns.Topic(stack, 'AlarmTopic', { displayName: `Voice Org API alarms (${stack.stackName})`, enforceSSL: true });
    // The topic's policy replaces SNS's default one: it must let CloudWatch publish this account's alarms.
    created.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [created.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: { 'aws:SourceArn': `arn:${stack.partition}:cloudwatch:${stack.region}:${stack.account}:alarm:*` },
        },
      }),
    );
    // No server-side encryption: the topic carries alarm state changes only (names, metrics, thresholds), which it
    // delivers as plain email; CloudWatch cannot publish under SNS's AWS managed key, and a customer managed key
    // would add a key and its policy to protect nothing the email does not expose.
    topic = created;
  }
  if (props.alarmEmail) topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
  return { topic, action: new cloudwatchActions.SnsAction(topic) };
}
