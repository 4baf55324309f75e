import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { traced } from '../observability/tracer';

/**
 * Where repositories read and write: a document client and the table name.
 * Repositories take one of these, so tests and the CLI can point them anywhere.
 */
export interface TableContext {
  client: DynamoDBDocumentClient;
  tableName: string;
}

/** Builds a table context for an endpoint (local emulator) or for AWS (no endpoint). */
export function createTableContext(options: { tableName: string; region: string; endpoint?: string }): TableContext {
  const base = traced(
    new DynamoDBClient({
      region: options.region,
      endpoint: options.endpoint,
      // The local emulators accept any credentials; in AWS the default chain is used.
      ...(options.endpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    }),
  );
  return {
    client: DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } }),
    tableName: options.tableName,
  };
}

let shared: TableContext | undefined;

/** The function's table context: created once per module (cold start), from config. */
export function table(): TableContext {
  if (!shared) {
    const { tableName, region, dynamoDbEndpoint } = config();
    shared = createTableContext({ tableName, region, endpoint: dynamoDbEndpoint });
  }
  return shared;
}
