import { CfnParameter, type CfnResource, Lazy, NestedStack, Stack, Token } from 'aws-cdk-lib';
import { createHash } from 'node:crypto';
import type { Construct, IConstruct } from 'constructs';
import type { RouteArea } from '../route-areas';

/**
 * The nested stack of one route area (infra/route-areas.ts): its functions (with their roles,
 * policies and log groups), its methods with their invoke permissions, the path resources only
 * its routes use, and their CORS preflights. Everything else stays in the root stack, which
 * passes what the area reads as parameters named after it (TableName, RestApiId, …; see
 * rootValue) and reads back, as outputs, the function names its alarms watch.
 */
export class RouteStack extends NestedStack {
  /** The construct id of an area's stack: users → UsersRoutes, api-keys → ApiKeysRoutes. */
  static idOf(area: string): string {
    return `${area.replace(/(^|-)(\w)/g, (_m, _sep, c: string) => c.toUpperCase())}Routes`;
  }

  static isRouteStack(x: unknown): x is RouteStack {
    return x instanceof RouteStack;
  }

  readonly area: string;
  private readonly inputs = new Map<string, { value: string; parameter: CfnParameter }>();

  constructor(scope: Construct, routeArea: RouteArea) {
    super(scope, RouteStack.idOf(routeArea.area), {
      description: `Voice Org API: the ${routeArea.area} routes (functions, methods, path resources)`,
    });
    this.area = routeArea.area;
  }

  /**
   * A value of the root stack as this stack reads it: the parameter `name`, added on first use and
   * set by the root stack. A name always stands for one value.
   */
  input(name: string, value: string): string {
    const known = this.inputs.get(name);
    if (known) {
      if (known.value !== value) throw new Error(`${this.node.path}: parameter ${name} already stands for another value of the root stack`);
      return known.parameter.valueAsString;
    }
    const parameter = new CfnParameter(this, name, {
      type: 'String',
      description: `Set by the root stack (infra/constructs/route-stack.ts)`,
    });
    this.setParameter(name, value);
    this.inputs.set(name, { value, parameter });
    return parameter.valueAsString;
  }

  /** The parameters the root stack sets, by name (for the docs' and the tests' lists). */
  get inputNames(): string[] {
    return [...this.inputs.keys()];
  }

  /**
   * What API Gateway serves from this stack, as a digest: the methods, path resources and invoke
   * permissions, and every function's code (its asset hash) and configuration, as this stack's
   * template declares them. The root stack folds it into the RestApi deployment's logical id
   * (infra/stack.ts): CDK only hashes the methods of the RestApi's own stack, so without it a
   * change here would never reach the stage (aws-cdk #12417, #13383). Deterministic: the same
   * template gives the same digest.
   */
  apiDigest(): string {
    return Lazy.string({
      produce: () => {
        const parts = this.node
          .findAll()
          .filter((c): c is CfnResource => isCfnResourceOf(c, DIGESTED_TYPES))
          .map((resource) => {
            const rendered = this.resolve(resource._toCloudFormation()) as {
              Resources: Record<string, { Type: string; Properties?: unknown }>;
            };
            return Object.entries(rendered.Resources).map(([logicalId, { Type, Properties }]) => ({ logicalId, Type, Properties }));
          })
          .flat()
          .sort((a, b) => a.logicalId.localeCompare(b.logicalId));
        return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
      },
    });
  }
}

/** The resource types whose declarations make up what API Gateway serves from a route stack. */
const DIGESTED_TYPES: ReadonlySet<string> = new Set([
  'AWS::ApiGateway::Method',
  'AWS::ApiGateway::Resource',
  'AWS::Lambda::Permission',
  'AWS::Lambda::Function',
]);

function isCfnResourceOf(construct: IConstruct, types: ReadonlySet<string>): boolean {
  return 'cfnResourceType' in construct && types.has((construct as CfnResource).cfnResourceType);
}

/**
 * A value of the root stack where `scope` reads it: the value itself in the root stack, the
 * parameter `name` of a route stack (RouteStack.input). A literal (no token) passes as it is.
 * Every builder that gives a function a root value (its environment, its grants) goes through
 * here, so a route stack's parameters have names of our choosing, which the cdk-nag
 * acknowledgements of its grants can name.
 */
export function rootValue(scope: IConstruct, name: string, value: string): string {
  const stack = Stack.of(scope);
  if (!RouteStack.isRouteStack(stack) || !Token.isUnresolved(value)) return value;
  return stack.input(name, value);
}
