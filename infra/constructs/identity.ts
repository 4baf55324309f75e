import { CfnOutput, Duration, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { acknowledge } from './acknowledge';

/** An OpenID Connect issuer of ID tokens, as the authorizer verifies them. */
export interface IdTokenIssuer {
  issuer: string;
  audience: string;
  jwksUrl: string;
}

/** Who signs in: the ID token issuer, and the settings the authorizer (and only it) verifies ID tokens with. */
export interface Identity {
  readonly issuer: IdTokenIssuer;
  /** The authorizer's ID token variables (shared/config.ts). */
  readonly authorizerEnvironment: { ID_TOKEN_ISSUER: string; ID_TOKEN_AUDIENCE: string; ID_TOKEN_JWKS_URL: string };
}

/**
 * The ID token issuer of the stack: an external one when given, else a Cognito user pool
 * and app client the stack creates (and outputs as UserPoolId).
 */
export function addIdentity(
  stack: Stack,
  external: IdTokenIssuer | undefined,
  options: UserPoolOptions = { passwordAuth: false },
): Identity {
  const issuer = external ?? addUserPool(stack, options);
  return {
    issuer,
    authorizerEnvironment: { ID_TOKEN_ISSUER: issuer.issuer, ID_TOKEN_AUDIENCE: issuer.audience, ID_TOKEN_JWKS_URL: issuer.jwksUrl },
  };
}

/**
 * The Lambda TOKEN authorizer in front of every non-public route: it checks both API keys and
 * ID tokens, and API Gateway caches its answer per token for `cacheSeconds`.
 */
export function addTokenAuthorizer(stack: Stack, handler: lambda.IFunction, cacheSeconds: number): apigateway.TokenAuthorizer {
  // No identity validation expression: API Gateway would refuse a malformed header with the
  // context-less UNAUTHORIZED response, indistinguishable from a missing one. The authorizer
  // parses the header (any case of the scheme) and refuses it with its own reason.
  return new apigateway.TokenAuthorizer(stack, 'Authorizer', {
    handler,
    identitySource: apigateway.IdentitySource.header('Authorization'),
    resultsCacheTtl: Duration.seconds(cacheSeconds),
  });
}

/** How members of the stack's own user pool sign in. */
export interface UserPoolOptions {
  /**
   * USER_PASSWORD_AUTH besides SRP on the app client, so that an operator can get an ID token
   * with `aws cognito-idp initiate-auth` (docs/deploy.md). The same client, so the audience the
   * authorizer trusts stays one; the password then travels to Cognito over TLS instead of SRP's proof.
   */
  passwordAuth: boolean;
}

function addUserPool(stack: Stack, options: UserPoolOptions): IdTokenIssuer {
  const userPool = new cognito.UserPool(stack, 'UserPool', {
    selfSignUpEnabled: false,
    signInAliases: { email: true },
    standardAttributes: { email: { required: true, mutable: true }, fullname: { required: false, mutable: true } },
    passwordPolicy: { minLength: 12, requireDigits: true, requireLowercase: true, requireUppercase: true, requireSymbols: false },
    accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
    // Members may enrol an authenticator app (TOTP); no SMS, so no SNS role or text messages.
    mfa: cognito.Mfa.OPTIONAL,
    mfaSecondFactor: { otp: true, sms: false },
    removalPolicy: RemovalPolicy.RETAIN,
  });
  acknowledge(
    userPool,
    'AwsSolutions-COG1',
    'Passwords need at least 12 characters with upper and lower case letters and digits; NIST SP 800-63B favours length over further composition rules such as a required symbol.',
  );
  acknowledge(
    userPool,
    'AwsSolutions-COG2',
    'MFA is optional (TOTP authenticator apps): invited members accept their invitation at their first sign-in, before they could have enrolled a second factor. Set mfa to REQUIRED once the web app offers enrolment at sign-up.',
  );
  acknowledge(
    userPool,
    'AwsSolutions-COG8',
    'The user pool stays on the Essentials feature plan: Plus (threat protection, compromised-credential checks) is billed per monthly active user. Sign-up is closed (admins invite members) and API keys do not use Cognito at all.',
  );
  // Sign-in through SRP (and USER_PASSWORD_AUTH when asked): no hosted UI, so no OAuth flows or callback URLs to leave open.
  const client = userPool.addClient('ApiClient', {
    authFlows: { userSrp: true, ...(options.passwordAuth ? { userPassword: true } : {}) },
    generateSecret: false,
    disableOAuth: true,
  });
  const issuer = `https://cognito-idp.${stack.region}.amazonaws.com/${userPool.userPoolId}`;
  new CfnOutput(stack, 'UserPoolId', { value: userPool.userPoolId });
  new CfnOutput(stack, 'UserPoolClientId', {
    value: client.userPoolClientId,
    description: "The app client members sign in with (the ID tokens' audience).",
  });
  return { issuer, audience: client.userPoolClientId, jwksUrl: `${issuer}/.well-known/jwks.json` };
}
