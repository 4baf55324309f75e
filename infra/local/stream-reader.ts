import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { DynamoDBRecord } from 'aws-lambda';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';

/** Where the table's stream is read from (DynamoDB Local). */
export interface StreamReaderOptions {
  dynamoDbEndpoint: string;
  tableName: string;
  region: string;
  /** How often an idle stream is read. */
  pollIntervalMs?: number;
}

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** Follows every shard of the table's stream in order, from where the last run stopped. */
export class StreamReader {
  private readonly client: DynamoDBStreamsClient;
  private readonly positions: Record<string, string>;
  private running = false;
  private loopDone: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: StreamReaderOptions,
    private readonly positionFile: string,
    private readonly onRecords: (records: DynamoDBRecord[]) => Promise<void>,
  ) {
    this.client = new DynamoDBStreamsClient({ endpoint: options.dynamoDbEndpoint, region: options.region, credentials });
    this.positions = existsSync(positionFile) ? (JSON.parse(readFileSync(positionFile, 'utf8')) as Record<string, string>) : {};
  }

  async start(): Promise<void> {
    const table = new DynamoDBClient({ endpoint: this.options.dynamoDbEndpoint, region: this.options.region, credentials });
    const { Table } = await table.send(new DescribeTableCommand({ TableName: this.options.tableName }));
    table.destroy();
    const streamArn = Table?.LatestStreamArn;
    if (!streamArn) throw new Error(`Table ${this.options.tableName} has no stream`);
    this.running = true;
    this.loopDone = this.loop(streamArn);
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loopDone;
    this.client.destroy();
  }

  private async loop(streamArn: string): Promise<void> {
    const iterators = new Map<string, string | undefined>();
    const finished = new Set<string>();
    let lastDescribe = 0;
    while (this.running) {
      try {
        if (Date.now() - lastDescribe > 1_000) {
          lastDescribe = Date.now();
          await this.discoverShards(streamArn, iterators, finished);
        }
        let read = 0;
        for (const [shardId, iterator] of iterators) {
          if (!iterator) continue;
          const { Records = [], NextShardIterator } = await this.client.send(
            new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }),
          );
          iterators.set(shardId, NextShardIterator);
          if (!NextShardIterator) finished.add(shardId);
          if (!Records.length) continue;
          read += Records.length;
          await this.onRecords(Records.map(lambdaRecordOf));
          this.positions[shardId] = Records[Records.length - 1].dynamodb?.SequenceNumber ?? this.positions[shardId];
          writeFileSync(this.positionFile, JSON.stringify(this.positions));
        }
        if (!read) await delay(this.options.pollIntervalMs ?? 100);
      } catch (error) {
        if (!this.running) return;
        console.error('local event pipeline: stream read failed', error);
        iterators.clear();
        finished.clear();
        lastDescribe = 0;
        await delay(1_000);
      }
    }
  }

  /** Opens an iterator on every shard not yet followed: after the last processed record, or from its start. */
  private async discoverShards(streamArn: string, iterators: Map<string, string | undefined>, finished: Set<string>): Promise<void> {
    const { StreamDescription } = await this.client.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      const shardId = shard.ShardId;
      if (!shardId || iterators.has(shardId) || finished.has(shardId)) continue;
      // A child shard starts once its parent has been read to its end, so changes of one item stay in order.
      if (shard.ParentShardId && iterators.has(shard.ParentShardId) && !finished.has(shard.ParentShardId)) continue;
      const position = this.positions[shardId];
      const { ShardIterator } = await this.client.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shardId,
          ...(position ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: position } : { ShardIteratorType: 'TRIM_HORIZON' }),
        }),
      );
      iterators.set(shardId, ShardIterator);
    }
  }
}

/** A stream record as Lambda passes it (epoch seconds instead of the SDK's Date; images in DynamoDB's JSON). */
function lambdaRecordOf(record: StreamRecord): DynamoDBRecord {
  const { ApproximateCreationDateTime, NewImage, OldImage, ...dynamodb } = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventSource: 'aws:dynamodb',
    eventVersion: record.eventVersion,
    awsRegion: record.awsRegion,
    userIdentity: record.userIdentity,
    dynamodb: {
      ...(dynamodb as DynamoDBRecord['dynamodb']),
      ...(NewImage ? { NewImage: withEmptyMaps(NewImage) } : {}),
      ...(OldImage ? { OldImage: withEmptyMaps(OldImage) } : {}),
      ApproximateCreationDateTime: ApproximateCreationDateTime ? Math.floor(ApproximateCreationDateTime.getTime() / 1000) : undefined,
    },
  };
}

/**
 * The streams client reads an empty map attribute (`{"M": {}}` on the wire) as an attribute
 * value with no member (`{}`), which unmarshall refuses; Lambda receives the wire JSON. Puts
 * the map back, at any depth.
 */
function withEmptyMaps(image: Record<string, unknown>): NonNullable<DynamoDBRecord['dynamodb']>['NewImage'] {
  const fix = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const attribute = value as Record<string, unknown>;
    if (Object.keys(attribute).length === 0) return { M: {} };
    if (attribute.M)
      return { M: Object.fromEntries(Object.entries(attribute.M as Record<string, unknown>).map(([key, item]) => [key, fix(item)])) };
    if (Array.isArray(attribute.L)) return { L: attribute.L.map(fix) };
    return attribute;
  };
  return Object.fromEntries(Object.entries(image).map(([key, item]) => [key, fix(item)])) as NonNullable<
    DynamoDBRecord['dynamodb']
  >['NewImage'];
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
