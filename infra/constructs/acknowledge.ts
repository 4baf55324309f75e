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

/** A resolved CloudFormation value: text, or an intrinsic function's object. */
type Json = string | { 'Fn::Join'?: [string, Json[]]; 'Fn::GetAtt'?: [string, string]; Ref?: string };

/**
 * How cdk-nag writes a value in a finding id, as `scope`'s stack declares it: <Logical.Attribute>
 * for an Fn::GetAtt, <Name> for a Ref (a resource, or a route stack's parameter), joined parts
 * side by side. The root stack's table ARN is <TableCD117FA1.Arn>, a route stack's <TableArn>.
 */
export function findingTextOf(scope: IConstruct, value: string): string {
  const flatten = (node: Json): string => {
    if (typeof node === 'string') return node;
    const join = node['Fn::Join'];
    if (join) return join[1].map(flatten).join(join[0]);
    const attribute = node['Fn::GetAtt'];
    if (attribute) return `<${attribute[0]}.${attribute[1]}>`;
    if (node.Ref) return `<${node.Ref}>`;
    return JSON.stringify(node);
  };
  return flatten(Stack.of(scope).resolve(value) as Json);
}
