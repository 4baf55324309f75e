import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';

let sequence = 0;

/** A table stream record as Lambda delivers it (NEW_AND_OLD_IMAGES), from plain images; each has a new event id. */
export function streamRecord(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
  { at, ...extra }: Partial<DynamoDBRecord> & { at: string },
): DynamoDBRecord {
  const image = after ?? before ?? {};
  sequence += 1;
  return {
    eventID: `event-${sequence}`,
    eventName,
    dynamodb: {
      Keys: marshall({ PK: image.PK, SK: image.SK }) as never,
      ...(before ? { OldImage: marshall(before, { removeUndefinedValues: true }) as never } : {}),
      ...(after ? { NewImage: marshall(after, { removeUndefinedValues: true }) as never } : {}),
      SequenceNumber: String(1000 + sequence),
      ApproximateCreationDateTime: Date.parse(at) / 1000,
    },
    ...extra,
  };
}
