import { App, type CfnResource } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { VoiceOrgStack, type VoiceOrgStackProps } from '../../infra/stack';
import { listFunctions } from '../../infra/function-list';

/** Reading a synthesized VoiceOrgStack template: shared by the infra suites. */

// CloudFormation JSON is untyped; this alias only names what is read.
export type Json = any;

/**
 * Synthesizes a stack without esbuild bundling (assets are left unbuilt) and reads it whole
 * (wholeStack): the root stack with its route stacks inlined.
 */
export function synth(props: Partial<VoiceOrgStackProps> = {}): Template {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new VoiceOrgStack(app, 'TestStack', { stage: 'test', ...props });
  return wholeStack(stack);
}

/** The root template and each route stack's, with the logical id of its AWS::CloudFormation::Stack in the root. */
export function templatesOf(stack: VoiceOrgStack): { root: Json; nested: { area: string; logicalId: string; template: Json }[] } {
  return {
    root: Template.fromStack(stack).toJSON(),
    nested: stack.routeStacks.map((routeStack) => ({
      area: routeStack.area,
      logicalId: stack.getLogicalId(routeStack.nestedStackResource as CfnResource),
      template: Template.fromStack(routeStack).toJSON(),
    })),
  };
}

/**
 * The stack as one template, as it was before the route stacks (and as the suites read it): each
 * route stack's resources inlined into the root's, its parameters replaced by the values the root
 * stack gives them, and the root's references to its outputs by their values. Logical ids must not
 * collide; the AWS::CloudFormation::Stack resources themselves are left out. The per-template
 * layout is checked by test/infra/route-stacks.test.ts.
 */
export function wholeStack(stack: VoiceOrgStack): Template {
  const { root, nested } = templatesOf(stack);
  const resources: Record<string, Json> = { ...root.Resources };
  const outputValues = new Map<string, Json>();
  for (const { logicalId, template } of nested) {
    const parameters: Record<string, Json> = resources[logicalId].Properties.Parameters ?? {};
    const inlined = replaceDeep(template, (node) =>
      typeof node?.Ref === 'string' && node.Ref in parameters ? parameters[node.Ref] : undefined,
    );
    delete resources[logicalId];
    for (const [id, resource] of Object.entries<Json>(inlined.Resources)) {
      if (id in resources) throw new Error(`Logical id ${id} of ${logicalId} is also in the root stack or another route stack`);
      resources[id] = resource;
    }
    for (const [name, output] of Object.entries<Json>(inlined.Outputs ?? {}))
      outputValues.set(`${logicalId}/Outputs.${name}`, output.Value);
  }
  const nestedIds = new Set(nested.map((n) => n.logicalId));
  const whole = replaceDeep({ ...root, Resources: resources }, (node) => {
    const getAtt = node?.['Fn::GetAtt'];
    return Array.isArray(getAtt) && nestedIds.has(getAtt[0]) ? outputValues.get(`${getAtt[0]}/${getAtt[1]}`) : undefined;
  });
  for (const resource of Object.values<Json>(whole.Resources)) {
    if (Array.isArray(resource.DependsOn)) resource.DependsOn = resource.DependsOn.filter((id: string) => !nestedIds.has(id));
  }
  return Template.fromJSON(whole);
}

/** A copy of a JSON value with every node `replace` gives a value for replaced by it. */
function replaceDeep(value: Json, replace: (node: Json) => Json): Json {
  const replaced = replace(value);
  if (replaced !== undefined) return replaced;
  if (Array.isArray(value)) return value.map((item) => replaceDeep(item, replace));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceDeep(item, replace)]));
  return value;
}

/** The one logical id of a resource type, failing if there is not exactly one. */
export function onlyLogicalId(template: Template, type: string): string {
  const ids = Object.keys(template.findResources(type));
  expect(ids).toHaveLength(1);
  return ids[0];
}

/**
 * The construct id infra/constructs/functions.ts gives a handler module's function (createFunction),
 * from its deployed name: functions/users/list-users (deployed as users/list-users) → UsersListUsersFunction.
 * A module that is no function of today's stack (a handler of the single stack's fixture) is taken as
 * its deployed name under functions/. CloudFormation appends an 8-hex hash.
 */
function functionConstructId(handlerModule: string): string {
  const name = listFunctions().find((f) => f.handler === handlerModule)?.name ?? handlerModule.replace(/^functions\//, '');
  return `${name.replace(/(^|[/-])(\w)/g, (_m, _sep, c: string) => c.toUpperCase())}Function`;
}

/** The logical id of the AWS::Lambda::Function built for a handler module; exactly one must match. */
export function functionLogicalId(template: Template, handlerModule: string): string {
  const pattern = new RegExp(`^${functionConstructId(handlerModule)}[0-9A-F]{8}$`);
  const matches = Object.keys(template.findResources('AWS::Lambda::Function')).filter((id) => pattern.test(id));
  if (matches.length !== 1) throw new Error(`Expected one Lambda function for ${handlerModule}, found ${JSON.stringify(matches)}`);
  return matches[0];
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
/** The logical id of the idempotency table (construct id IdempotencyTable, infra/constructs/tables-and-key.ts). */
export const idempotencyTableLogicalId = (template: Template): string =>
  logicalIdOfConstruct(template, 'AWS::DynamoDB::Table', 'IdempotencyTable');

/** The logical id of the rate limiter's counter table (construct id RateLimitTable, infra/constructs/tables-and-key.ts). */
export const rateLimitTableLogicalId = (template: Template): string =>
  logicalIdOfConstruct(template, 'AWS::DynamoDB::Table', 'RateLimitTable');

/** The one resource of a type built with this construct id at the stack's scope (CloudFormation appends an 8-hex hash). */
function logicalIdOfConstruct(template: Template, type: string, constructId: string): string {
  const ids = Object.keys(template.findResources(type)).filter((id) => new RegExp(`^${constructId}[0-9A-F]{8}$`).test(id));
  expect(ids).toHaveLength(1);
  return ids[0];
}

/** A DynamoDB statement on the idempotency table (its resources name it). */
export const isIdempotencyTableStatement = (statement: Json): boolean =>
  isDynamoStatement(statement) &&
  [statement.Resource].flat().some((resource: Json) => /^IdempotencyTable[0-9A-F]{8}$/.test(resource?.['Fn::GetAtt']?.[0] ?? ''));

/** A DynamoDB statement on the rate limiter's counter table (its resources name it). */
export const isRateLimitTableStatement = (statement: Json): boolean =>
  isDynamoStatement(statement) &&
  [statement.Resource].flat().some((resource: Json) => /^RateLimitTable[0-9A-F]{8}$/.test(resource?.['Fn::GetAtt']?.[0] ?? ''));

/** A DynamoDB statement on the table (and its indexes), not one of the stream event source's nor one on the idempotency or counter table. */
export const isTableStatement = (statement: Json): boolean =>
  isDynamoStatement(statement) &&
  !actionsOf(statement).every((a) => STREAM_READ_ACTIONS.includes(a)) &&
  !isIdempotencyTableStatement(statement) &&
  !isRateLimitTableStatement(statement);

/**
 * A template value as text, as cdk-nag writes it in a finding: Fn::Join flattened, a Ref as <Name>,
 * an Fn::GetAtt as <Id.Attribute>, an Fn::FindInMap as its entry for `region` (given the template)
 * or as <Map.Key>.
 */
export function textOfValue(node: Json, inRegion?: { template: Json; region: string }): string {
  const text = (n: Json): string => textOfValue(n, inRegion);
  if (typeof node === 'string') return node;
  if (node['Fn::Join']) return (node['Fn::Join'][1] as Json[]).map(text).join(node['Fn::Join'][0]);
  if (node['Fn::GetAtt']) return `<${node['Fn::GetAtt'][0]}.${node['Fn::GetAtt'][1]}>`;
  if (node.Ref) return `<${node.Ref}>`;
  if (node['Fn::FindInMap']) {
    const [map, , key] = node['Fn::FindInMap'] as [string, Json, string];
    return inRegion ? inRegion.template.Mappings[map][inRegion.region][key] : `<${map}.${key}>`;
  }
  return JSON.stringify(node);
}

/** The model ids of BEDROCK_MODEL_MAP of a function (by logical id), in order: each is the mapping's for `region` in an environment-agnostic stack. */
export function summaryModelIdsOf(template: Template, functionId: string, region?: string): string[] {
  const json = template.toJSON();
  const map = textOfValue(
    json.Resources[functionId].Properties.Environment.Variables.BEDROCK_MODEL_MAP,
    region ? { template: json, region } : undefined,
  );
  return map.split(',').map((entry) => entry.split('=')[1]);
}
