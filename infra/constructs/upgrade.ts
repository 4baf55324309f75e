import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';

/**
 * The first deploy of the upgrade from the single stack to the route stacks (docs/deploy.md,
 * "Upgrading a stack deployed before the route stacks"): the stack without the route areas'
 * methods and path resources, which frees their names for the route stacks of the second deploy,
 * while every function stays where it is (same logical ids) and the stage keeps serving the
 * deployment it serves now.
 *
 * API Gateway's stage serves an immutable snapshot, the deployment, until the stage is pointed at
 * another: deleting methods and resources changes the API's working copy, not that snapshot. So
 * the RestApi's Deployment keeps the logical id of the deployed one (CloudFormation sees no
 * change and leaves it and the stage alone), and the old snapshot's integrations keep invoking
 * the functions they name. Each function's invoke permissions were the methods' and go with
 * them: one permission per function for the stage (any method, any path) takes their place, so
 * the snapshot's calls stay allowed until the second deploy removes these functions.
 */
export function keepServingDeployedRoutes(
  api: apigateway.RestApi,
  deployedDeploymentLogicalId: string,
  areaFunctions: readonly lambda.IFunction[],
): void {
  const deployment = api.latestDeployment;
  if (!deployment) throw new Error('The RestApi has no deployment to keep');
  (deployment.node.defaultChild as apigateway.CfnDeployment).overrideLogicalId(deployedDeploymentLogicalId);
  for (const fn of areaFunctions) {
    fn.addPermission('DeployedRoutesInvoke', {
      principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: api.arnForExecuteApi('*', '/*', api.deploymentStage.stageName),
    });
  }
}

/** The shape of a Deployment's logical id as CDK makes it: ApiDeployment, the construct's hash, and the md5 of what it deploys. */
export const DEPLOYMENT_LOGICAL_ID = /^ApiDeployment[0-9A-F]{8}[0-9a-f]{32}$/;

/**
 * The route functions of the single stack (the last release before route stacks), by deployed name: all
 * the first deploy of the upgrade keeps in the root stack. A stack deployed as one has no route
 * function added since (transcription, summaries, translations), and its kept deployment calls
 * none, so the first deploy builds none of them; the second deploy creates them in their route
 * stacks. Building them as well would pass CloudFormation's 500 resources of one stack.
 * test/infra/route-stacks.test.ts holds the list equal to the single stack's template.
 */
export const SINGLE_STACK_ROUTE_FUNCTIONS: ReadonlySet<string> = new Set([
  'docs/get-docs-page',
  'docs/get-docs-asset',
  'docs/get-openapi-document',
  'users/list-users',
  'users/get-member-settings',
  'users/update-member-settings',
  'users/update-member',
  'users/remove-member',
  'recordings/list-recordings',
  'recordings/get-recording',
  'recordings/get-recording-media',
  'recordings/update-recording',
  'recordings/delete-recording',
  'recordings/restore-recording',
  'recordings/create-upload-url',
  'recordings/list-public-recordings',
  'recordings/get-public-recording-media',
  'templates/list-templates',
  'templates/get-template',
  'templates/create-template',
  'templates/update-template',
  'templates/delete-template',
  'invites/send-invite',
  'invites/list-invites',
  'invites/revoke-invite',
  'invites/resend-invite',
  'invites/accept-invite',
  'audit/list-audit-log',
  'api-keys/list-api-keys',
  'api-keys/create-api-key',
  'api-keys/get-api-key',
  'api-keys/rotate-api-key',
  'api-keys/revoke-api-key',
  'webhooks/list-webhooks',
  'webhooks/create-webhook',
  'webhooks/get-webhook',
  'webhooks/update-webhook',
  'webhooks/delete-webhook',
  'webhooks/rotate-webhook-secret',
  'webhooks/test-webhook',
  'webhooks/list-webhook-deliveries',
  'webhooks/retry-webhook-delivery',
]);
