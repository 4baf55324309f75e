import { App } from 'aws-cdk-lib';
import { VoiceOrgStack } from './stack';

/**
 * The CDK app. Context (cdk.json or -c): stage, authorizerCacheSeconds, and for an external
 * ID token issuer idTokenIssuer + idTokenAudience + idTokenJwksUrl (else Cognito is created).
 */
const app = new App();
const context = (name: string): string | undefined => app.node.tryGetContext(name);
const stage = context('stage') ?? 'prod';
const issuer = context('idTokenIssuer');
if (issuer && !context('idTokenAudience')) {
  throw new Error('Context idTokenIssuer needs idTokenAudience (the app client id your issuer puts in aud).');
}

new VoiceOrgStack(app, `VoiceOrgApi-${stage}`, {
  stage,
  idTokenIssuer: issuer
    ? { issuer, audience: context('idTokenAudience')!, jwksUrl: context('idTokenJwksUrl') ?? `${issuer.replace(/\/$/, '')}/.well-known/jwks.json` }
    : undefined,
  authorizerCacheSeconds: context('authorizerCacheSeconds') === undefined ? undefined : Number(context('authorizerCacheSeconds')),
  mail: context('sesIdentity')
    ? { identity: context('sesIdentity')!, fromAddress: context('sesFromAddress') ?? `no-reply@${context('sesIdentity')}`, appUrl: context('appUrl') ?? 'https://app.example.com' }
    : undefined,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
