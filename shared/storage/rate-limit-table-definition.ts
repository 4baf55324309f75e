/**
 * The rate limiter's counter table (docs/rate-limits.md), read by the CDK stack and by the
 * local runtime, which creates it from this. A table of its own, apart from the single table:
 * a counter changes on every request, and in the single table each change would be a stream
 * record for the event processor to read and drop. Counters live minutes (a day for quotas).
 */
export const RATE_LIMIT_TABLE = {
  /** One counter per subject (organization or API key) and window, e.g. `org#org_demo#2000ms#885500123`. */
  partitionKey: 'id',
  /** Epoch seconds after which DynamoDB TTL may delete the counter: its window is over. */
  ttlAttribute: 'expires_at',
} as const;

/** CreateTable input for DynamoDB Local (the stack builds the same shape with CDK): no stream, no index. */
export function createRateLimitTableInput(tableName: string) {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [{ AttributeName: RATE_LIMIT_TABLE.partitionKey, AttributeType: 'S' as const }],
    KeySchema: [{ AttributeName: RATE_LIMIT_TABLE.partitionKey, KeyType: 'HASH' as const }],
  };
}
