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
export function keepServingDeployedRoutes(api: apigateway.RestApi, deployedDeploymentLogicalId: string, areaFunctions: readonly lambda.IFunction[]): void {
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
