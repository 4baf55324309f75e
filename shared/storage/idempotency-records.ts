import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { config } from '../config';
import { traced } from '../observability/tracer';
import { IDEMPOTENCY_TABLE } from './idempotency-table-definition';

/**
 * Powertools' DynamoDB persistence layer on the idempotency table (one record per route,
 * credential and Idempotency-Key; Powertools writes, conditions and reads them). Its other
 * attributes keep Powertools' names: status, data (the stored response), validation (the
 * request's hash) and in_progress_expiration. `client` lets a test count what it sends.
 */
export function createIdempotencyStore(options: {
  tableName: string;
  region: string;
  endpoint?: string;
  client?: DynamoDBClient;
}): DynamoDBPersistenceLayer {
  const client =
    options.client ??
    traced(
      new DynamoDBClient({
        region: options.region,
        endpoint: options.endpoint,
        // The local emulator accepts any credentials; in AWS the default chain is used.
        ...(options.endpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
      }),
    );
  return new DynamoDBPersistenceLayer({
    tableName: options.tableName,
    keyAttr: IDEMPOTENCY_TABLE.partitionKey,
    expiryAttr: IDEMPOTENCY_TABLE.ttlAttribute,
    awsSdkV3Client: client,
  });
}

let shared: DynamoDBPersistenceLayer | undefined;

/**
 * The function's idempotency store, created once per module (cold start) from config. Throws
 * when IDEMPOTENCY_TABLE_NAME is not set: a keyed request must never run unprotected.
 */
export function idempotencyStore(): DynamoDBPersistenceLayer {
  if (!shared) {
    const { idempotency, region, dynamoDbEndpoint } = config();
    if (!idempotency) throw new Error('Idempotency-Key needs IDEMPOTENCY_TABLE_NAME, which this function was not given');
    shared = createIdempotencyStore({ tableName: idempotency.tableName, region, endpoint: dynamoDbEndpoint });
  }
  return shared;
}
