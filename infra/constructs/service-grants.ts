import type { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { TranscribeAction, TranslateAction } from '../../shared/function-permissions';
import { acknowledge, findingTextOf } from './acknowledge';

/**
 * Grants Amazon Transcribe job actions on this service's jobs only (names `voice-org.…`,
 * shared/domain/transcription/transcription-changes.ts). Transcribe reads the media and writes the
 * output with the caller's own S3 permissions, which the manifest grants beside these.
 */
export function grantTranscribeJobs(stack: Stack, role: iam.IRole, actions: readonly TranscribeAction[]): void {
  const jobsArn = stack.formatArn({ service: 'transcribe', resource: 'transcription-job', resourceName: 'voice-org.*' });
  // The organizations' vocabularies (voice-org-<org>): managed by the vocabulary consumer, named by the jobs that use one.
  const vocabulariesArn = stack.formatArn({ service: 'transcribe', resource: 'vocabulary', resourceName: 'voice-org-*' });
  const jobActions = actions.filter((action) => action === 'StartTranscriptionJob' || action === 'GetTranscriptionJob');
  const vocabularyActions = actions.filter((action) => !(jobActions as readonly TranscribeAction[]).includes(action));
  if (jobActions.length) {
    const resources = jobActions.includes('StartTranscriptionJob') ? [jobsArn, vocabulariesArn] : [jobsArn];
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: jobActions.map((action) => `transcribe:${action}`), resources }));
    // Named as the grant renders it: <AWS::Region> in an environment-agnostic stack, the Region itself once the CLI resolves one.
    acknowledge(
      role,
      `AwsSolutions-IAM5[Resource::${findingTextOf(role, jobsArn)}]`,
      'Transcribe job names are made per recording and attempt (voice-org.<org>.<recording>.<attempt>), so the job actions of the manifest are granted on the names this service makes, nothing else.',
    );
  }
  if (vocabularyActions.length || jobActions.includes('StartTranscriptionJob')) {
    if (vocabularyActions.length)
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({ actions: vocabularyActions.map((action) => `transcribe:${action}`), resources: [vocabulariesArn] }),
      );
    acknowledge(
      role,
      `AwsSolutions-IAM5[Resource::${findingTextOf(role, vocabulariesArn)}]`,
      'Custom vocabularies are made per organization (voice-org-<org>): only the vocabulary consumer manages them, and a job may name one, on the names this service makes, nothing else.',
    );
  }
}

/**
 * Grants Amazon Translate's TranslateText, which has no resource-level permissions (the service
 * authorization reference lists no resource type for it): on `*`, to the translation consumer only.
 */
export function grantTranslate(role: iam.IRole, actions: readonly TranslateAction[]): void {
  role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: actions.map((action) => `translate:${action}`), resources: ['*'] }));
  acknowledge(
    role,
    'AwsSolutions-IAM5[Resource::*]',
    'Amazon Translate TranslateText supports no resource-level permissions; only the translation consumer is granted it, and nothing else of Translate.',
  );
}
