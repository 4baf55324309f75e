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
    });
  });

  it('defaults the region and leaves out what is not configured', () => {
    expect(parseConfig({ TABLE_NAME: 't' })).toEqual({ tableName: 't', region: 'us-east-1', dynamoDbEndpoint: undefined, idToken: undefined });
  });

  it('fails loudly on a missing table or a malformed URL', () => {
    expect(() => parseConfig({})).toThrow(/TABLE_NAME/);
    expect(() => parseConfig({ TABLE_NAME: 't', DYNAMODB_ENDPOINT: 'not a url' })).toThrow(/DYNAMODB_ENDPOINT/);
  });

  it('wants the issuer, audience and JWKS URL together', () => {
    expect(() => parseConfig({ TABLE_NAME: 't', ID_TOKEN_ISSUER: 'https://issuer.example.com' })).toThrow(/go together/);
  });
});
