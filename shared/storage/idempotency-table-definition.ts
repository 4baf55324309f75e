/**
 * The idempotency table's shape (Idempotency-Key, docs/idempotency.md), read by the CDK stack
 * and by the local runtime, which creates the table from it. A table of its own, apart from
 * the single table: its records would otherwise flow through that table's stream to the event
 * processor, and they live 24 hours under keys no other item shares.
 */
export const IDEMPOTENCY_TABLE = {
  /** One record per (route, credential, key): Powertools' `keyAttr`. */
  partitionKey: 'id',
  /** Epoch seconds after which DynamoDB TTL may delete the record: Powertools' `expiryAttr`. */
  ttlAttribute: 'expiration',
  /** How long a first response is kept and replayed (draft-ietf-httpapi-idempotency-key-header, Stripe: 24 hours). */
  recordTtlSeconds: 24 * 3600,
} as const;

/** CreateTable input for DynamoDB Local (the stack builds the same shape with CDK): no stream, no index. */
export function createIdempotencyTableInput(tableName: string) {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [{ AttributeName: IDEMPOTENCY_TABLE.partitionKey, AttributeType: 'S' as const }],
    KeySchema: [{ AttributeName: IDEMPOTENCY_TABLE.partitionKey, KeyType: 'HASH' as const }],
  };
}
