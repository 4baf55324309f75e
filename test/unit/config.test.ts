import { parseConfig } from '../../shared/config';

describe('parseConfig', () => {
  it('reads the table, region, local endpoint and ID token issuer', () => {
    expect(
      parseConfig({
        TABLE_NAME: 't',
        AWS_REGION: 'eu-west-1',
        DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
        ID_TOKEN_ISSUER: 'https://issuer.example.com',
        ID_TOKEN_AUDIENCE: 'a, b',
        ID_TOKEN_JWKS_URL: 'https://issuer.example.com/jwks',
      }),
    ).toEqual({
      tableName: 't',
      region: 'eu-west-1',
      dynamoDbEndpoint: 'http://127.0.0.1:8000',
      idToken: { issuer: 'https://issuer.example.com', audiences: ['a', 'b'], jwksUrl: 'https://issuer.example.com/jwks' },
      profileKey: undefined,
      models: expect.objectContaining({ fallback: 'gpt-4o-mini' }),
      bucket: undefined,
      uploads: { urlTtlSeconds: 900, maxBytes: 1024 ** 3 },
      media: { urlTtlSeconds: 900 },
      invites: { fromAddress: 'no-reply@voice-org.example', sesEndpoint: undefined, appUrl: 'http://127.0.0.1:3000', ttlSeconds: 604_800 },
      events: { busName: undefined, trashRetentionDays: 30, auditRetentionDays: 365 },
      webhooks: { allowLocalUrls: false, sqsEndpoint: undefined },
      rateLimits: { tableName: undefined, defaults: { rate: 25, burst: 50, daily_quota: null }, cacheSeconds: 30 },
      transcription: { endpoint: undefined },
      translation: { endpoint: undefined },
      bedrock: {
        endpoint: undefined,
        modelMap: {
          'gpt-4o-mini': 'us.amazon.nova-lite-v1:0',
          'gpt-4o': 'us.amazon.nova-pro-v1:0',
          'claude-sonnet-4-5': 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
          'gemini-2.5-pro': 'us.amazon.nova-pro-v1:0',
        },
      },
      ask: { dailyDefault: 200 },
    });
  });

  it('reads the local stand-in of Translate, and refuses an endpoint that is not a URL', () => {
    expect(parseConfig({ TABLE_NAME: 't', TRANSLATE_ENDPOINT: 'http://127.0.0.1:4600' }).translation).toEqual({
      endpoint: 'http://127.0.0.1:4600',
    });
    expect(() => parseConfig({ TABLE_NAME: 't', TRANSLATE_ENDPOINT: 'local' })).toThrow(/TRANSLATE_ENDPOINT/);
  });

  it('reads the local stand-in of Bedrock and the summary model map, which must name the fallback model when it is given', () => {
    expect(
      parseConfig({
        TABLE_NAME: 't',
        BEDROCK_ENDPOINT: 'http://127.0.0.1:4600',
        BEDROCK_MODEL_MAP: 'gpt-4o-mini=local-extractive,gpt-4o=local-extractive',
      }).bedrock,
    ).toEqual({
      endpoint: 'http://127.0.0.1:4600',
      modelMap: { 'gpt-4o-mini': 'local-extractive', 'gpt-4o': 'local-extractive' },
    });
    expect(
      parseConfig({
        TABLE_NAME: 't',
        BEDROCK_MODEL_MAP: 'gpt-4o-mini=arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.amazon.nova-lite-v1:0',
      }).bedrock.modelMap['gpt-4o-mini'],
    ).toBe('arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.amazon.nova-lite-v1:0');
    expect(() => parseConfig({ TABLE_NAME: 't', BEDROCK_MODEL_MAP: 'gpt-4o=us.amazon.nova-pro-v1:0' })).toThrow(
      /BEDROCK_MODEL_MAP has no entry for FALLBACK_MODEL gpt-4o-mini/,
    );
    expect(() => parseConfig({ TABLE_NAME: 't', BEDROCK_MODEL_MAP: 'gpt-4o-mini' })).toThrow(/BEDROCK_MODEL_MAP/);
    expect(() => parseConfig({ TABLE_NAME: 't', BEDROCK_ENDPOINT: 'local' })).toThrow(/BEDROCK_ENDPOINT/);
    // Custom active models without a map: the fallback writes with the default fallback's model.
    expect(parseConfig({ TABLE_NAME: 't', ACTIVE_MODELS: 'm-1', FALLBACK_MODEL: 'm-1' }).bedrock.modelMap['m-1']).toBe(
      'us.amazon.nova-lite-v1:0',
    );
  });

  it('reads the local stand-in of Transcribe, and refuses an endpoint that is not a URL', () => {
    expect(parseConfig({ TABLE_NAME: 't', TRANSCRIBE_ENDPOINT: 'http://127.0.0.1:4599' }).transcription).toEqual({
      endpoint: 'http://127.0.0.1:4599',
    });
    expect(() => parseConfig({ TABLE_NAME: 't', TRANSCRIBE_ENDPOINT: 'local' })).toThrow(/TRANSCRIBE_ENDPOINT/);
  });

  it('reads the rate limiter: its counter table, the default limits of an organization and how long a function keeps them', () => {
    expect(
      parseConfig({
        TABLE_NAME: 't',
        RATE_LIMIT_TABLE_NAME: 'counters',
        RATE_LIMIT_DEFAULT_RATE: '5',
        RATE_LIMIT_DEFAULT_BURST: '5',
        RATE_LIMIT_DEFAULT_DAILY_QUOTA: '1000',
        RATE_LIMIT_CACHE_SECONDS: '0',
      }).rateLimits,
    ).toEqual({ tableName: 'counters', defaults: { rate: 5, burst: 5, daily_quota: 1000 }, cacheSeconds: 0 });
    expect(() => parseConfig({ TABLE_NAME: 't', RATE_LIMIT_DEFAULT_RATE: '100' })).toThrow(
      /RATE_LIMIT_DEFAULT_BURST must be at least RATE_LIMIT_DEFAULT_RATE/,
    );
    expect(() => parseConfig({ TABLE_NAME: 't', RATE_LIMIT_DEFAULT_RATE: '0' })).toThrow(/RATE_LIMIT_DEFAULT_RATE/);
    expect(() => parseConfig({ TABLE_NAME: 't', RATE_LIMIT_DEFAULT_BURST: '2.5' })).toThrow(
      /RATE_LIMIT_DEFAULT_BURST: must be a whole number/,
    );
    expect(() => parseConfig({ TABLE_NAME: 't', RATE_LIMIT_DEFAULT_DAILY_QUOTA: '0' })).toThrow(/RATE_LIMIT_DEFAULT_DAILY_QUOTA/);
    expect(() => parseConfig({ TABLE_NAME: 't', RATE_LIMIT_CACHE_SECONDS: '301' })).toThrow(/RATE_LIMIT_CACHE_SECONDS/);
  });

  it('refuses loopback webhook endpoints unless the local runtime allows them, and reads its SQS emulator', () => {
    expect(parseConfig({ TABLE_NAME: 't' }).webhooks.allowLocalUrls).toBe(false);
    expect(parseConfig({ TABLE_NAME: 't', WEBHOOK_ALLOW_LOCAL_URLS: 'true', SQS_ENDPOINT: 'http://127.0.0.1:4566' }).webhooks).toEqual({
      allowLocalUrls: true,
      sqsEndpoint: 'http://127.0.0.1:4566',
    });
    expect(() => parseConfig({ TABLE_NAME: 't', WEBHOOK_ALLOW_LOCAL_URLS: 'yes' })).toThrow(
      /WEBHOOK_ALLOW_LOCAL_URLS: must be true or false/,
    );
  });

  it('reads the event bus and the retention of the trash and the audit log, within bounds', () => {
    expect(parseConfig({ TABLE_NAME: 't', EVENT_BUS_NAME: 'bus', TRASH_RETENTION_DAYS: '7', AUDIT_RETENTION_DAYS: '90' }).events).toEqual({
      busName: 'bus',
      trashRetentionDays: 7,
      auditRetentionDays: 90,
    });
    expect(() => parseConfig({ TABLE_NAME: 't', TRASH_RETENTION_DAYS: '0' })).toThrow(/TRASH_RETENTION_DAYS/);
    expect(() => parseConfig({ TABLE_NAME: 't', AUDIT_RETENTION_DAYS: 'a year' })).toThrow(/AUDIT_RETENTION_DAYS/);
  });

  it('defaults the region and leaves out what is not configured', () => {
    expect(parseConfig({ TABLE_NAME: 't' })).toMatchObject({
      tableName: 't',
      region: 'us-east-1',
      dynamoDbEndpoint: undefined,
      idToken: undefined,
      profileKey: undefined,
    });
  });

  it('fails loudly on a missing table or a malformed URL', () => {
    expect(() => parseConfig({})).toThrow(/TABLE_NAME/);
    expect(() => parseConfig({ TABLE_NAME: 't', DYNAMODB_ENDPOINT: 'not a url' })).toThrow(/DYNAMODB_ENDPOINT/);
  });

  it('takes the profile key from KMS or a local file, never both', () => {
    expect(parseConfig({ TABLE_NAME: 't', PROFILE_KMS_KEY_ARN: 'arn:aws:kms:eu-west-1:1:key/k' }).profileKey).toEqual({
      kind: 'kms',
      keyArn: 'arn:aws:kms:eu-west-1:1:key/k',
    });
    expect(parseConfig({ TABLE_NAME: 't', PROFILE_LOCAL_KEY_FILE: '/k.bin' }).profileKey).toEqual({ kind: 'local', file: '/k.bin' });
    expect(() => parseConfig({ TABLE_NAME: 't', PROFILE_KMS_KEY_ARN: 'arn:k', PROFILE_LOCAL_KEY_FILE: '/k.bin' })).toThrow(/not both/);
  });

  it('reads the active model list with aliases, and wants the fallback among them', () => {
    expect(parseConfig({ TABLE_NAME: 't', ACTIVE_MODELS: 'm-1=one|uno,m-2', FALLBACK_MODEL: 'm-2' }).models).toEqual({
      active: [
        { id: 'm-1', aliases: ['one', 'uno'] },
        { id: 'm-2', aliases: [] },
      ],
      fallback: 'm-2',
    });
    expect(() => parseConfig({ TABLE_NAME: 't', ACTIVE_MODELS: 'm-1', FALLBACK_MODEL: 'm-9' })).toThrow(/FALLBACK_MODEL/);
    expect(() => parseConfig({ TABLE_NAME: 't', ACTIVE_MODELS: 'bad model' })).toThrow(/ACTIVE_MODELS/);
  });

  it('reads the bucket and the upload limits', () => {
    const parsed = parseConfig({
      TABLE_NAME: 't',
      BUCKET_NAME: 'b-1',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      UPLOAD_URL_TTL_SECONDS: '60',
      UPLOAD_MAX_BYTES: '1000',
    });
    expect(parsed.bucket).toEqual({ name: 'b-1', endpoint: 'http://127.0.0.1:9000' });
    expect(parsed.uploads).toEqual({ urlTtlSeconds: 60, maxBytes: 1000 });
    expect(() => parseConfig({ TABLE_NAME: 't', UPLOAD_URL_TTL_SECONDS: '5' })).toThrow(/UPLOAD_URL_TTL_SECONDS/);
  });

  it('reads the media URL lifetime: 60 s to 15 minutes, 15 minutes by default', () => {
    expect(parseConfig({ TABLE_NAME: 't' }).media).toEqual({ urlTtlSeconds: 900 });
    expect(parseConfig({ TABLE_NAME: 't', MEDIA_URL_TTL_SECONDS: '60' }).media).toEqual({ urlTtlSeconds: 60 });
    for (const bad of ['59', '901', '3600', 'ten'])
      expect(() => parseConfig({ TABLE_NAME: 't', MEDIA_URL_TTL_SECONDS: bad })).toThrow(/MEDIA_URL_TTL_SECONDS/);
  });

  it('reads the invitation settings: sender, link base without its trailing slash, and a lifetime of 1 s to 90 days (7 days by default)', () => {
    const parsed = parseConfig({
      TABLE_NAME: 't',
      SES_FROM_ADDRESS: 'invites@acme.example',
      APP_URL: 'https://app.acme.example/',
      INVITE_TTL_SECONDS: '2',
    });
    expect(parsed.invites).toEqual(
      expect.objectContaining({ fromAddress: 'invites@acme.example', appUrl: 'https://app.acme.example', ttlSeconds: 2 }),
    );
    expect(parseConfig({ TABLE_NAME: 't' }).invites.ttlSeconds).toBe(7 * 86_400);
    for (const ttl of ['0', '1.5', '-1', String(90 * 86_400 + 1)])
      expect(() => parseConfig({ TABLE_NAME: 't', INVITE_TTL_SECONDS: ttl })).toThrow(/INVITE_TTL_SECONDS/);
  });

  it('wants the issuer, audience and JWKS URL together', () => {
    expect(() => parseConfig({ TABLE_NAME: 't', ID_TOKEN_ISSUER: 'https://issuer.example.com' })).toThrow(/go together/);
  });
});
