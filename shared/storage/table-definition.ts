/**
 * The single table's shape, read by the CDK stack and by the local runtime, which
 * creates the table from it. docs/data-model.md describes what lives in it.
 */
export const TABLE = {
  partitionKey: 'PK',
  sortKey: 'SK',
  /** Epoch seconds after which DynamoDB TTL may delete the item. */
  ttlAttribute: 'expires_at_epoch',
  /**
   * Set by the local TTL emulator (infra/local/ttl-emulator.ts) on an item just before it
   * removes it: in AWS the stream marks TTL removals with DynamoDB's service identity.
   */
  ttlEmulatorMark: 'removed_by_ttl',
  /** The stream the event processor reads: both images, so it can tell what changed. */
  streamViewType: 'NEW_AND_OLD_IMAGES',
  globalSecondaryIndexes: [
    /** Ordered listings inside a collection, e.g. active members of an org by email. */
    { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK', projection: 'ALL' },
    /** The reverse side of a relation, e.g. the organizations of a user; api keys by id. */
    { indexName: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK', projection: 'ALL' },
    /**
     * Ordered listings of large items by their keys only: counting a collection, or finding
     * where a page starts, reads about 150 bytes an entry instead of the items (an
     * organization's templates, up to 40 KB each, in List templates' order).
     */
    { indexName: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK', projection: 'KEYS_ONLY' },
  ],
} as const;

export type IndexName = (typeof TABLE.globalSecondaryIndexes)[number]['indexName'];

/** CreateTable input for DynamoDB Local (the stack builds the same shape with CDK). */
export function createTableInput(tableName: string) {
  const keyAttributes = [
    TABLE.partitionKey,
    TABLE.sortKey,
    ...TABLE.globalSecondaryIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE.streamViewType },
    AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: TABLE.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: TABLE.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: TABLE.globalSecondaryIndexes.map(globalSecondaryIndexInput),
  };
}

/** One index of TABLE as CreateTable (or UpdateTable's Create) takes it. */
export function globalSecondaryIndexInput(index: (typeof TABLE.globalSecondaryIndexes)[number]) {
  return {
    IndexName: index.indexName,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection: { ProjectionType: index.projection },
  };
}
