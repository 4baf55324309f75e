import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { traced } from '../observability/tracer';
import { RATE_LIMIT_TABLE } from './rate-limit-table-definition';

/** One counter of the rate limiter: a subject's requests in one window, and the most it admits. */
export interface RequestCounter {
  /** The counter's id (counterIds): the subject and its window. */
  id: string;
  /** The most requests the window admits. */
  limit: number;
  /** When the window ends, in epoch milliseconds (the counter expires by TTL a minute later). */
  endsAt: number;
}

/** Whether a counter admitted the request, and its count after it (or the count that refused it). */
export interface CountResult {
  admitted: boolean;
  count: number;
}

/** The counter table as the rate limiter sees it: count a request unless the window is full, and take a count back. */
export interface RateLimitCounters {
  /** Adds the request to the counter only if that keeps it within its limit: one conditional write. */
  count(counter: RequestCounter): Promise<CountResult>;
  /** Takes back a request counted by `count` (a later counter refused it): one write. */
  uncount(counter: RequestCounter): Promise<void>;
}

/** The ids of the counters: a subject, the length of its window (so a changed limit starts a new counter) and which window. */
export const counterIds = {
  organizationWindow: (orgId: string, windowMs: number, index: number) => `org#${orgId}#${windowMs}ms#${index}`,
  keyWindow: (keyId: string, windowMs: number, index: number) => `key#${keyId}#${windowMs}ms#${index}`,
  organizationDay: (orgId: string, day: string) => `org#${orgId}#day#${day}`,
};

/** Seconds a counter outlives its window before TTL may delete it. */
const COUNTER_AFTERLIFE_SECONDS = 60;

/**
 * Counters on a table of RATE_LIMIT_TABLE's shape. In AWS the client gives up fast (two
 * attempts, one second each): a request must not wait on the limiter's retries, and the limiter
 * lets a request through when its counters cannot be reached (docs/rate-limits.md).
 */
export function createRateLimitCounters(options: {
  tableName: string;
  region: string;
  endpoint?: string;
  client?: DynamoDBDocumentClient;
}): RateLimitCounters {
  const client =
    options.client ??
    DynamoDBDocumentClient.from(
      traced(
        new DynamoDBClient({
          region: options.region,
          endpoint: options.endpoint,
          // An emulator on a busy developer machine (or CI) can take seconds: locally the SDK's defaults, so a slow emulator does not open the limit.
          ...(options.endpoint
            ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
            : { maxAttempts: 2, requestHandler: { requestTimeout: 1000, connectionTimeout: 1000 } }),
        }),
      ),
    );
  const { tableName } = options;
  return {
    async count(counter) {
      try {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { [RATE_LIMIT_TABLE.partitionKey]: counter.id },
            UpdateExpression: 'ADD #count :one SET #expires = if_not_exists(#expires, :expires)',
            ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
            ExpressionAttributeNames: { '#count': 'request_count', '#expires': RATE_LIMIT_TABLE.ttlAttribute },
            ExpressionAttributeValues: {
              ':one': 1,
              ':limit': counter.limit,
              ':expires': Math.ceil(counter.endsAt / 1000) + COUNTER_AFTERLIFE_SECONDS,
            },
            ReturnValues: 'UPDATED_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { admitted: true, count: Number(Attributes?.request_count ?? 1) };
      } catch (error) {
        if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
        // The document client leaves the failed condition's item as DynamoDB sent it (AttributeValues).
        const item = (error as { Item?: Record<string, { N?: string }> }).Item;
        return { admitted: false, count: Number(item?.request_count?.N ?? counter.limit) };
      }
    },
    async uncount(counter) {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { [RATE_LIMIT_TABLE.partitionKey]: counter.id },
          UpdateExpression: 'ADD #count :minusOne',
          ConditionExpression: 'attribute_exists(#count)',
          ExpressionAttributeNames: { '#count': 'request_count' },
          ExpressionAttributeValues: { ':minusOne': -1 },
        }),
      );
    },
  };
}

let shared: RateLimitCounters | undefined;

/**
 * The function's counters, created once per module (cold start) from config. Throws when
 * RATE_LIMIT_TABLE_NAME is not set: an organization route must never run unlimited by mistake.
 */
export function rateLimitCounters(): RateLimitCounters {
  if (!shared) {
    const { rateLimits, region, dynamoDbEndpoint } = config();
    if (!rateLimits.tableName) throw new Error('The rate limiter needs RATE_LIMIT_TABLE_NAME, which this function was not given');
    shared = createRateLimitCounters({ tableName: rateLimits.tableName, region, endpoint: dynamoDbEndpoint });
  }
  return shared;
}
