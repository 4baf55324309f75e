import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { VoiceOrgStack, type VoiceOrgStackProps } from '../../infra/stack';

/** Reading a synthesized VoiceOrgStack template: shared by the infra suites. */

// CloudFormation JSON is untyped; this alias only names what is read.
export type Json = any;

/** Synthesizes a stack without esbuild bundling (assets are left unbuilt). */
export function synth(props: Partial<VoiceOrgStackProps> = {}): Template {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new VoiceOrgStack(app, 'TestStack', { stage: 'test', ...props });
  return Template.fromStack(stack);
}

/** The one logical id of a resource type, failing if there is not exactly one. */
export function onlyLogicalId(template: Template, type: string): string {
  const ids = Object.keys(template.findResources(type));
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

/**
 * The construct id infra/constructs/functions.ts gives a handler module's function (createFunction):
 * functions/users/list-users -> UsersListUsersFunction. CloudFormation appends an 8-hex hash.
 */
function functionConstructId(handlerModule: string): string {
  return `${handlerModule.replace(/^functions\//, '').replace(/(^|[/-])(\w)/g, (_m, _sep, c: string) => c.toUpperCase())}Function`;
}

/** The logical id of the AWS::Lambda::Function built for a handler module; exactly one must match. */
export function functionLogicalId(template: Template, handlerModule: string): string {
  const pattern = new RegExp(`^${functionConstructId(handlerModule)}[0-9A-F]{8}$`);
  const matches = Object.keys(template.findResources('AWS::Lambda::Function')).filter((id) => pattern.test(id));
  if (matches.length !== 1) throw new Error(`Expected one Lambda function for ${handlerModule}, found ${JSON.stringify(matches)}`);
  return matches[0]!;
}

/** Every IAM statement attached to a role: its inline policies and the AWS::IAM::Policy resources naming it. */
export function statementsOfRole(template: Template, roleLogicalId: string): Json[] {
  const role = template.toJSON().Resources[roleLogicalId];
  const inline: Json[] = (role?.Properties?.Policies ?? []).flatMap((p: Json) => p.PolicyDocument.Statement);
  const attached = Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy) => (policy.Properties.Roles ?? []).some((r: Json) => r?.Ref === roleLogicalId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
  return [...inline, ...attached];
}

/** The role policy statements of a function (by logical id). */
export function functionStatements(template: Template, functionId: string): Json[] {
  const fn = template.toJSON().Resources[functionId];
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  return statementsOfRole(template, roleId);
}

export const actionsOf = (statement: Json): string[] => [statement.Action ?? [], statement.NotAction ?? []].flat();
export const isDynamoStatement = (statement: Json): boolean => actionsOf(statement).some((a) => a.startsWith('dynamodb:'));

/** What the table stream's event source grants the event processor: reading the stream, not the table. */
export const STREAM_READ_ACTIONS = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'];

/** The logical id of the single table (construct id Table), beside which the idempotency table stands. */
export const tableLogicalId = (template: Template): string => logicalIdOfConstruct(template, 'AWS::DynamoDB::Table', 'Table');
/** The logical id of the idempotency table (construct id IdempotencyTable, infra/constructs/data.ts). */
export const idempotencyTableLogicalId = (template: Template): string => logicalIdOfConstruct(template, 'AWS::DynamoDB::Table', 'IdempotencyTable');

/** The logical id of the rate limiter's counter table (construct id RateLimitTable, infra/constructs/data.ts). */
export const rateLimitTableLogicalId = (template: Template): string => logicalIdOfConstruct(template, 'AWS::DynamoDB::Table', 'RateLimitTable');

/** The one resource of a type built with this construct id at the stack's scope (CloudFormation appends an 8-hex hash). */
function logicalIdOfConstruct(template: Template, type: string, constructId: string): string {
  const ids = Object.keys(template.findResources(type)).filter((id) => new RegExp(`^${constructId}[0-9A-F]{8}$`).test(id));
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

/** A DynamoDB statement on the idempotency table (its resources name it). */
export const isIdempotencyTableStatement = (statement: Json): boolean =>
  isDynamoStatement(statement) && [statement.Resource].flat().some((resource: Json) => /^IdempotencyTable[0-9A-F]{8}$/.test(resource?.['Fn::GetAtt']?.[0] ?? ''));

/** A DynamoDB statement on the rate limiter's counter table (its resources name it). */
export const isRateLimitTableStatement = (statement: Json): boolean =>
  isDynamoStatement(statement) && [statement.Resource].flat().some((resource: Json) => /^RateLimitTable[0-9A-F]{8}$/.test(resource?.['Fn::GetAtt']?.[0] ?? ''));

/** A DynamoDB statement on the table (and its indexes), not one of the stream event source's nor one on the idempotency or counter table. */
export const isTableStatement = (statement: Json): boolean =>
  isDynamoStatement(statement) && !actionsOf(statement).every((a) => STREAM_READ_ACTIONS.includes(a)) && !isIdempotencyTableStatement(statement) && !isRateLimitTableStatement(statement);
