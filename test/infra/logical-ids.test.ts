import { App } from 'aws-cdk-lib';
import { VoiceOrgStack } from '../../infra/stack';
import { EACH_ENVIRONMENT, propsIn } from './environments';
import { templatesOf, type Json } from './template';

/**
 * The logical ids of the resources that hold data or that operators name. infra/constructs
 * builds every resource at its stack's own scope so that these stay what deployed stacks
 * have: a changed id (or a move to another stack) makes CloudFormation create a new, empty
 * table (or bucket, key, user pool) and orphan the retained one. They all stay in the root
 * stack; the route stacks hold nothing stateful. Functions keep their logical ids in the stack
 * that builds them (`sam local invoke` takes them). The same in every environment the CLI may
 * synthesize in (test/infra/environments.ts): a Region, resolved or not, changes no logical id.
 */
const PINNED_IN_ROOT = [
  ['AWS::DynamoDB::Table', 'TableCD117FA1'],
  ['AWS::DynamoDB::Table', 'IdempotencyTable22A5A209'],
  ['AWS::DynamoDB::Table', 'RateLimitTableFAD921A1'],
  ['AWS::S3::Bucket', 'RecordingsBucketAA52F499'],
  // The one KMS key: member profiles and webhook signing secrets, under different encryption contexts.
  ['AWS::KMS::Key', 'ProfileKey12D244A2'],
  ['AWS::Cognito::UserPool', 'UserPool6BA7E5F2'],
  ['AWS::Cognito::UserPoolClient', 'UserPoolApiClient5E25D46A'],
  ['AWS::Events::EventBus', 'EventBus7B8748AA'],
  ['AWS::SNS::Topic', 'AlarmTopicD01E77F9'],
  ['AWS::ApiGateway::RestApi', 'ApiF70053CD'],
  ['AWS::ApiGateway::Stage', 'ApiDeploymentStagetest22072A08'],
  // The account-level CloudWatch role of API Gateway, retained by CDK.
  ['AWS::ApiGateway::Account', 'ApiAccountA18C9B29'],
  ['AWS::IAM::Role', 'ApiCloudWatchRole73EC6FC4'],
  ['AWS::ApiGateway::Authorizer', 'AuthorizerBD825682'],
  ['AWS::Lambda::Function', 'AuthorizerFunctionB4DBAA43'],
  ['AWS::Lambda::Function', 'RecordingsCompleteUploadFunction27630053'],
] as const;

describe.each(EACH_ENVIRONMENT)('logical ids of VoiceOrgStack (%s)', (_name, environment) => {
  let root: Json;
  let nested: ReturnType<typeof templatesOf>['nested'];

  beforeAll(() => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    ({ root, nested } = templatesOf(new VoiceOrgStack(app, 'LogicalIdStack', { stage: 'test', ...propsIn(environment) })));
  });

  it.each(PINNED_IN_ROOT)('%s keeps the logical id %s in the root stack', (type, logicalId) => {
    expect(root.Resources[logicalId]?.Type).toBe(type);
  });

  it("keeps a route's function logical id in its route stack (UsersListUsersFunction286AEB2D in the users area's)", () => {
    expect(nested.find((n) => n.area === 'users')?.template.Resources.UsersListUsersFunction286AEB2D?.Type).toBe('AWS::Lambda::Function');
  });

  it('pins every resource retained on stack deletion; no route stack retains anything', () => {
    const retained = Object.entries(root.Resources as Record<string, { DeletionPolicy?: string }>)
      .filter(([, resource]) => resource.DeletionPolicy === 'Retain')
      .map(([id]) => id);
    expect(retained).toEqual(
      expect.arrayContaining(['ProfileKey12D244A2', 'RecordingsBucketAA52F499', 'TableCD117FA1', 'UserPool6BA7E5F2']),
    );
    const pinned: string[] = PINNED_IN_ROOT.map(([, id]) => id);
    expect(retained.filter((id) => !pinned.includes(id))).toEqual([]);
    for (const { area, template } of nested) {
      expect({
        area,
        retained: Object.values<Json>(template.Resources).filter((r) => r.DeletionPolicy === 'Retain' || r.UpdateReplacePolicy === 'Retain')
          .length,
      }).toEqual({ area, retained: 0 });
    }
  });

  it('builds no stateful resource type in a route stack', () => {
    const stateful = [
      'AWS::DynamoDB::Table',
      'AWS::S3::Bucket',
      'AWS::KMS::Key',
      'AWS::Cognito::UserPool',
      'AWS::Events::EventBus',
      'AWS::SNS::Topic',
      'AWS::ApiGateway::RestApi',
      'AWS::ApiGateway::Stage',
    ];
    for (const { area, template } of nested) {
      expect({
        area,
        stateful: Object.values<Json>(template.Resources)
          .filter((r) => stateful.includes(r.Type))
          .map((r) => r.Type),
      }).toEqual({ area, stateful: [] });
    }
  });
});
