import { Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Records why a cdk-nag finding on this construct (and the constructs under it) is accepted.
 * Each builder in infra/constructs acknowledges the findings of the resources it creates, so
 * the reason sits next to the resource it explains.
 */
export function acknowledge(scope: IConstruct, id: string, reason: string): void {
  Validations.of(scope).acknowledge({ id, reason });
}

type Json = any; // a resolved CloudFormation value

/**
 * How cdk-nag writes a value in a finding id, as `scope`'s stack declares it: <Logical.Attribute>
 * for an Fn::GetAtt, <Name> for a Ref (a resource, or a route stack's parameter), joined parts
 * side by side. The root stack's table ARN is <TableCD117FA1.Arn>, a route stack's <TableArn>.
 */
export function findingTextOf(scope: IConstruct, value: string): string {
  const flatten = (node: Json): string => {
    if (typeof node === 'string') return node;
    if (node?.['Fn::Join']) return (node['Fn::Join'][1] as Json[]).map(flatten).join(node['Fn::Join'][0]);
    if (node?.['Fn::GetAtt']) return `<${node['Fn::GetAtt'][0]}.${node['Fn::GetAtt'][1]}>`;
    if (node?.Ref) return `<${node.Ref}>`;
    return JSON.stringify(node);
  };
  return flatten(Stack.of(scope).resolve(value));
}
