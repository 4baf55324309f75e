import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { stackPropsFromContext } from './context';
import { VoiceOrgStack } from './stack';

/**
 * The CDK app. Its context (cdk.json or -c name=value) is read by infra/context.ts and
 * documented in docs/deploy.md. cdk-nag's AwsSolutions checks run on every synth: a finding
 * that is neither fixed nor acknowledged (with its reason, in infra/constructs/) fails it.
 */
const app = new App();
const { stackName, props } = stackPropsFromContext(app.node);

new VoiceOrgStack(app, stackName, {
  ...props,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
