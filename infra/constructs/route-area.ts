import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type { Construct } from 'constructs';
import { pathsAlong, type PathPlacement, type RouteArea } from '../route-areas';
import { addRoutes } from './api';
import { addFunctions, type FunctionsByHandler, type FunctionsProps } from './functions';
import { RouteStack } from './route-stack';

export interface RouteAreaProps {
  /** The root stack's RestApi and the stage its methods are deployed to. */
  api: apigateway.RestApi;
  stage: string;
  /** The root stack's TOKEN authorizer. */
  authorizer: apigateway.IAuthorizer;
  placement: PathPlacement;
  /** What every function gets, as for the root stack's functions (infra/constructs/functions.ts). */
  functions: FunctionsProps;
}

/**
 * One route area's nested stack (infra/constructs/route-stack.ts): its functions, built by the
 * same builder as the root stack's, its methods on the RestApi of the root stack, the path
 * resources only its routes use (hung from the root stack's shared paths) and their CORS
 * preflights. Returns the stack and its functions, which the root stack's alarms and dashboard
 * read (CDK turns each reference into an output of the nested stack).
 */
export function addRouteArea(
  scope: Construct,
  routeArea: RouteArea,
  props: RouteAreaProps,
): { stack: RouteStack; functions: FunctionsByHandler } {
  const stack = new RouteStack(scope, routeArea);
  const functions = addFunctions(stack, props.functions, routeArea.functions);

  const api = apigateway.RestApi.fromRestApiAttributes(stack, 'Api', {
    restApiId: stack.input('RestApiId', props.api.restApiId),
    rootResourceId: stack.input('RestApiRootResourceId', props.api.restApiRootResourceId),
  });
  // The invoke permissions name the stage (execute-api:<api>/<stage>/<method>/<path>), as in the root stack; an
  // imported RestApi has no stage, and its permissions would allow every stage.
  api.deploymentStage = apigateway.Stage.fromStageAttributes(stack, 'Stage', { stageName: props.stage, restApi: api }) as apigateway.Stage;
  const authorizerId = stack.input('AuthorizerId', props.authorizer.authorizerId);
  const authorizer: apigateway.IAuthorizer = { authorizerId, authorizationType: apigateway.AuthorizationType.CUSTOM };

  // The root stack's shared path resources this area's paths hang from, imported once each.
  const attachPoints = new Map<string, apigateway.IResource>([['/', api.root]]);
  const attachPoint = (rootPath: string): apigateway.IResource => {
    let resource = attachPoints.get(rootPath);
    if (!resource) {
      const name = `Path${pascalOfPath(rootPath)}`;
      resource = apigateway.Resource.fromResourceAttributes(stack, name, {
        restApi: api,
        resourceId: stack.input(`${name}Id`, props.api.root.resourceForPath(rootPath).resourceId),
        path: rootPath,
      });
      attachPoints.set(rootPath, resource);
    }
    return resource;
  };
  const resourceFor = (endpointPath: string): apigateway.IResource => {
    const from = props.placement.attachPointOf(endpointPath);
    return attachPoint(from).resourceForPath(endpointPath.slice(from === '/' ? 1 : from.length + 1));
  };

  const ownPaths = [...new Set(routeArea.endpoints.flatMap((endpoint) => pathsAlong(endpoint.path)))].filter(
    (p) => props.placement.areaOfPath(p) === routeArea.area,
  );
  addRoutes(
    {
      endpoints: routeArea.endpoints,
      authorizer,
      functionFor: (handler) => {
        const fn = functions.get(handler);
        if (!fn) throw new Error(`${handler} serves a route of the ${routeArea.area} area but is not one of its functions`);
        return fn;
      },
    },
    resourceFor,
    ownPaths,
  );
  return { stack, functions };
}

/** /api/v1/organization/{orgId} → ApiV1OrganizationOrgId: a CloudFormation name for a path. */
function pascalOfPath(path: string): string {
  return path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}
