import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { stackPropsFromContext } from '../../infra/context';
import { VoiceOrgStack } from '../../infra/stack';
import { wholeStack, type Json } from './template';

/**
 * What docs/deploy.md's "zero to first call" relies on: the context keys for a first ID token
 * from the AWS CLI (cognitoPasswordAuth) and for a custom domain (domainName, certificateArn,
 * basePath), read the way infra/app.ts reads them.
 */

function synthFromContext(context: Record<string, unknown>): Template {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const { stackName, props } = stackPropsFromContext(app.node);
  return wholeStack(new VoiceOrgStack(app, stackName, props));
}

const propsOf = (context: Record<string, unknown>) => stackPropsFromContext(new App({ context }).node).props;
const CERTIFICATE = 'arn:aws:acm:eu-west-1:123456789012:certificate/0a1b2c3d-aaaa-bbbb-cccc-0123456789ab';

describe('a deployment with password sign-in and a custom domain', () => {
  let template: Template;
  let outputs: Record<string, Json>;

  beforeAll(() => {
    template = synthFromContext({
      cognitoPasswordAuth: 'true',
      domainName: 'api.acme.example',
      certificateArn: CERTIFICATE,
      basePath: 'v1',
    });
    outputs = template.toJSON().Outputs;
  });

  it('lets the one app client sign in with USER_PASSWORD_AUTH besides SRP, so the authorizer trusts one audience', () => {
    template.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    const client = Object.values(template.findResources('AWS::Cognito::UserPoolClient'))[0].Properties;
    expect([...client.ExplicitAuthFlows].sort()).toEqual(['ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH']);
    expect(outputs.UserPoolClientId).toBeDefined();
  });

  it('serves the stage on the custom domain at the base path, over TLS 1.2, with a regional certificate', () => {
    template.hasResourceProperties('AWS::ApiGateway::DomainName', {
      DomainName: 'api.acme.example',
      RegionalCertificateArn: CERTIFICATE,
      EndpointConfiguration: { Types: ['REGIONAL'] },
      SecurityPolicy: 'TLS_1_2',
    });
    const mapping = Object.values(template.findResources('AWS::ApiGateway::BasePathMapping'))[0].Properties;
    expect(mapping.BasePath).toBe('v1');
    expect(mapping.Stage).toBeDefined();
  });

  it('outputs the URL to call and the DNS target to point the domain at', () => {
    expect(outputs.CustomDomainUrl.Value).toBe('https://api.acme.example/v1/');
    expect(outputs.CustomDomainTarget.Value).toEqual({ 'Fn::GetAtt': [expect.any(String), 'RegionalDomainName'] });
    expect(outputs.CustomDomainHostedZoneId.Value).toEqual({ 'Fn::GetAtt': [expect.any(String), 'RegionalHostedZoneId'] });
  });
});

describe('a deployment without those keys', () => {
  it('signs in with SRP only and has no custom domain', () => {
    const template = synthFromContext({});
    const client = Object.values(template.findResources('AWS::Cognito::UserPoolClient'))[0].Properties;
    expect([...client.ExplicitAuthFlows].sort()).toEqual(['ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_USER_SRP_AUTH']);
    template.resourceCountIs('AWS::ApiGateway::DomainName', 0);
    expect(template.toJSON().Outputs.CustomDomainUrl).toBeUndefined();
  });
});

describe('stackPropsFromContext: deploy keys', () => {
  it('reads cognitoPasswordAuth as JSON true (cdk.json) or "true" (-c), and false otherwise', () => {
    expect(propsOf({ cognitoPasswordAuth: true }).cognitoPasswordAuth).toBe(true);
    expect(propsOf({ cognitoPasswordAuth: 'true' }).cognitoPasswordAuth).toBe(true);
    expect(propsOf({ cognitoPasswordAuth: 'false' }).cognitoPasswordAuth).toBeUndefined();
  });

  it('maps the root without a base path and trims slashes around one', () => {
    expect(propsOf({ domainName: 'api.acme.example', certificateArn: CERTIFICATE }).customDomain).toEqual({
      domainName: 'api.acme.example',
      certificateArn: CERTIFICATE,
      basePath: undefined,
    });
    expect(propsOf({ domainName: 'api.acme.example', certificateArn: CERTIFICATE, basePath: '/voice/v1/' }).customDomain?.basePath).toBe(
      'voice/v1',
    );
  });

  it.each([
    [{ cognitoPasswordAuth: 'yes' }, /cognitoPasswordAuth must be true or false/],
    [{ cognitoPasswordAuth: true, idTokenIssuer: 'https://issuer.example.com', idTokenAudience: 'c' }, /leave it out with idTokenIssuer/],
    [{ domainName: 'api.acme.example' }, /domainName and certificateArn go together/],
    [{ certificateArn: CERTIFICATE }, /domainName and certificateArn go together/],
    [{ basePath: 'v1' }, /basePath needs domainName and certificateArn/],
    [{ domainName: 'https://api.acme.example', certificateArn: CERTIFICATE }, /domainName must be a lower-case DNS name/],
    [
      { domainName: 'api.acme.example', certificateArn: 'arn:aws:iam::123456789012:server-certificate/x' },
      /certificateArn must be an ACM certificate ARN/,
    ],
    [{ domainName: 'api.acme.example', certificateArn: CERTIFICATE, basePath: 'v 1' }, /basePath must be/],
  ])('refuses %j', (context, message) => {
    expect(() => propsOf(context)).toThrow(message);
  });
});

const ADOT_LAYER = 'arn:aws:lambda:eu-west-1:901920570463:layer:aws-otel-nodejs-arm64-ver-1-30-2:1';

describe('stackPropsFromContext: tracing', () => {
  it('reads the tracing mode, lambda by default (left to the stack), and the ADOT layer of opentelemetry', () => {
    expect(propsOf({}).tracing).toBeUndefined();
    expect(propsOf({ tracing: 'lambda' }).tracing).toEqual({ mode: 'lambda' });
    expect(propsOf({ tracing: 'off' }).tracing).toEqual({ mode: 'off' });
    expect(propsOf({ tracing: 'opentelemetry', adotLayerArn: ADOT_LAYER }).tracing).toEqual({
      mode: 'opentelemetry',
      adotLayerArn: ADOT_LAYER,
    });
  });

  it.each([
    [{ tracing: 'xray' }, /tracing must be one of lambda, opentelemetry, off/],
    [{ tracing: 'opentelemetry' }, /tracing=opentelemetry needs adotLayerArn/],
    [{ tracing: 'opentelemetry', adotLayerArn: 'aws-otel-nodejs-arm64' }, /adotLayerArn must be a Lambda layer version ARN/],
    [{ adotLayerArn: ADOT_LAYER }, /adotLayerArn is the layer of tracing=opentelemetry/],
    [{ tracing: 'off', adotLayerArn: ADOT_LAYER }, /adotLayerArn is the layer of tracing=opentelemetry/],
  ])('refuses %j', (context, message) => {
    expect(() => propsOf(context)).toThrow(message);
  });
});

describe('stackPropsFromContext: search', () => {
  it('is off unless asked for, takes opensearch or off, and refuses anything else', () => {
    expect(propsOf({}).search).toBeUndefined();
    expect(propsOf({ search: 'opensearch' }).search).toBe('opensearch');
    expect(propsOf({ search: 'off' }).search).toBe('off');
    expect(() => propsOf({ search: 'elastic' })).toThrow('Context search must be opensearch or off, not "elastic".');
  });

  it('embeds with Titan unless searchEmbeddings is off, and refuses another model', () => {
    expect(propsOf({}).searchEmbeddings).toBeUndefined();
    expect(propsOf({ searchEmbeddings: 'off' }).searchEmbeddings).toBe('off');
    expect(() => propsOf({ searchEmbeddings: 'cohere' })).toThrow('Context searchEmbeddings must be titan or off, not "cohere".');
  });

  it('takes the operators of search reindex and rebuild as IAM ARNs, and refuses anything else', () => {
    const roles = 'arn:aws:iam::123456789012:role/Admin, arn:aws:iam::123456789012:user/ops';
    expect(propsOf({ searchAdminPrincipals: roles }).searchAdminPrincipals).toEqual([
      'arn:aws:iam::123456789012:role/Admin',
      'arn:aws:iam::123456789012:user/ops',
    ]);
    expect(() => propsOf({ searchAdminPrincipals: '*' })).toThrow('searchAdminPrincipals must be IAM role or user ARNs');
  });
});
