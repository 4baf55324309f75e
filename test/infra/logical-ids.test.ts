import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { VoiceOrgStack } from '../../infra/stack';

/**
 * The logical ids of the resources that hold data or that operators name. infra/constructs
 * builds every resource at the stack's own scope so that these stay what deployed stacks
 * have: a changed id makes CloudFormation create a new, empty table (or bucket, key, user
 * pool) and orphan the retained one, and `sam local invoke` takes function logical ids.
 */
const PINNED = [
  ['AWS::DynamoDB::Table', 'TableCD117FA1'],
  ['AWS::S3::Bucket', 'RecordingsBucketAA52F499'],
  ['AWS::KMS::Key', 'ProfileKey12D244A2'],
  ['AWS::Cognito::UserPool', 'UserPool6BA7E5F2'],
  ['AWS::Cognito::UserPoolClient', 'UserPoolApiClient5E25D46A'],
  ['AWS::ApiGateway::RestApi', 'ApiF70053CD'],
  // The account-level CloudWatch role of API Gateway, retained by CDK.
  ['AWS::ApiGateway::Account', 'ApiAccountA18C9B29'],
  ['AWS::IAM::Role', 'ApiCloudWatchRole73EC6FC4'],
  ['AWS::ApiGateway::Authorizer', 'AuthorizerBD825682'],
  ['AWS::Lambda::Function', 'AuthorizerFunctionB4DBAA43'],
  ['AWS::Lambda::Function', 'UsersListUsersFunction286AEB2D'],
  ['AWS::Lambda::Function', 'RecordingsCompleteUploadFunction27630053'],
] as const;

describe('logical ids of VoiceOrgStack', () => {
  let template: Template;

  beforeAll(() => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    template = Template.fromStack(new VoiceOrgStack(app, 'LogicalIdStack', { stage: 'test' }));
  });

  it.each(PINNED)('%s keeps the logical id %s', (type, logicalId) => {
    expect(Object.keys(template.findResources(type))).toContain(logicalId);
  });

  it('pins every resource retained on stack deletion', () => {
    const retained = Object.entries(template.toJSON().Resources as Record<string, { DeletionPolicy?: string }>)
      .filter(([, resource]) => resource.DeletionPolicy === 'Retain')
      .map(([id]) => id);
    expect(retained).toEqual(expect.arrayContaining(['ProfileKey12D244A2', 'RecordingsBucketAA52F499', 'TableCD117FA1', 'UserPool6BA7E5F2']));
    const pinned: string[] = PINNED.map(([, id]) => id);
    expect(retained.filter((id) => !pinned.includes(id))).toEqual([]);
  });
});
