import * as v from 'valibot';

/**
 * The runtime configuration of every function, parsed once at cold start.
 * Nothing else in functions/ or shared/ reads process.env: the CDK stack and the
 * local runtime both provide these variables, and a missing or malformed one fails
 * the cold start loudly instead of failing a request later.
 */
const ConfigSchema = v.object({
  TABLE_NAME: v.pipe(v.string(), v.minLength(1)),
  AWS_REGION: v.optional(v.string(), 'us-east-1'),
  /** Local emulator endpoint; absent in AWS. */
  DYNAMODB_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  /** OpenID Connect issuer of ID tokens (Cognito user pool or an external issuer). */
  ID_TOKEN_ISSUER: v.optional(v.pipe(v.string(), v.url())),
  /** Comma-separated accepted audiences (app client ids). */
  ID_TOKEN_AUDIENCE: v.optional(v.string()),
  ID_TOKEN_JWKS_URL: v.optional(v.pipe(v.string(), v.url())),
});

export type Config = {
  tableName: string;
  region: string;
  dynamoDbEndpoint?: string;
  idToken?: { issuer: string; audiences: string[]; jwksUrl: string };
};

/** Parses an environment into a Config; exported for tests, use `config` elsewhere. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = v.safeParse(ConfigSchema, env);
  if (!result.success) {
    const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? '?'}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  const parsed = result.output;
  const idTokenParts = [parsed.ID_TOKEN_ISSUER, parsed.ID_TOKEN_AUDIENCE, parsed.ID_TOKEN_JWKS_URL];
  if (idTokenParts.some(Boolean) && !idTokenParts.every(Boolean)) {
    throw new Error('Invalid configuration: ID_TOKEN_ISSUER, ID_TOKEN_AUDIENCE and ID_TOKEN_JWKS_URL go together');
  }
  return {
    tableName: parsed.TABLE_NAME,
    region: parsed.AWS_REGION,
    dynamoDbEndpoint: parsed.DYNAMODB_ENDPOINT,
    idToken: parsed.ID_TOKEN_ISSUER
      ? {
          issuer: parsed.ID_TOKEN_ISSUER,
          audiences: parsed.ID_TOKEN_AUDIENCE!.split(',').map((a) => a.trim()).filter(Boolean),
          jwksUrl: parsed.ID_TOKEN_JWKS_URL!,
        }
      : undefined,
  };
}

let cached: Config | undefined;

/** The configuration of this process, parsed on first use (cold start) and kept. */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
