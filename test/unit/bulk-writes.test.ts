import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { batchGetItems, batchPutItems, inPool } from '../../shared/storage/bulk-writes';

const TABLE = 'bulk-test';
const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }));
const db = { client: documents, tableName: TABLE };
const mock = mockClient(DynamoDBDocumentClient);
const item = (n: number) => ({ PK: `ORG#o`, SK: `ITEM#${n}`, n });

afterEach(() => mock.reset());

describe('batchPutItems', () => {
  it('writes 25 items a request and sends what DynamoDB left unprocessed again until every item is written', async () => {
    const written: number[] = [];
    let throttledOnce = false;
    mock.on(BatchWriteCommand).callsFake((input: { RequestItems: Record<string, { PutRequest: { Item: { n: number } } }[]> }) => {
      const requests = input.RequestItems[TABLE];
      expect(requests.length).toBeLessThanOrEqual(25);
      // The first request is only half processed: the rest comes back as UnprocessedItems.
      const processed = throttledOnce ? requests : requests.slice(0, 10);
      throttledOnce = true;
      written.push(...processed.map((request) => request.PutRequest.Item.n));
      const left = requests.slice(processed.length);
      return { UnprocessedItems: left.length ? { [TABLE]: left } : {} };
    });
    await batchPutItems(db, Array.from({ length: 60 }, (_, n) => item(n)));
    expect(written.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, n) => n));
    // 60 items: 3 requests, and one more for the 15 left unprocessed.
    expect(mock.commandCalls(BatchWriteCommand)).toHaveLength(4);
  });

  it('fails when a request fails, instead of reporting the items written', async () => {
    mock.on(BatchWriteCommand).rejects(new Error('boom'));
    await expect(batchPutItems(db, [item(1)])).rejects.toThrow('boom');
  });
});

describe('batchGetItems', () => {
  it('reads 100 keys a request and asks again for the keys DynamoDB left unprocessed', async () => {
    let first = true;
    mock.on(BatchGetCommand).callsFake((input: { RequestItems: Record<string, { Keys: { SK: string }[] }> }) => {
      const keys = input.RequestItems[TABLE].Keys;
      expect(keys.length).toBeLessThanOrEqual(100);
      const answered = first ? keys.slice(0, 40) : keys;
      const left = keys.slice(answered.length);
      first = false;
      return { Responses: { [TABLE]: answered.map((key) => ({ PK: 'ORG#o', SK: key.SK })) }, UnprocessedKeys: left.length ? { [TABLE]: { Keys: left } } : {} };
    });
    const found = await batchGetItems(db, Array.from({ length: 150 }, (_, n) => ({ PK: 'ORG#o', SK: `ITEM#${n}` })));
    expect(found.map((entry) => entry.SK).sort()).toEqual(Array.from({ length: 150 }, (_, n) => `ITEM#${n}`).sort());
    expect(mock.commandCalls(BatchGetCommand)).toHaveLength(3);
  });
});

describe('inPool', () => {
  it('never runs more than the given number of tasks at once, and runs each once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await inPool(Array.from({ length: 30 }, (_, n) => n), 4, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 1));
      running--;
      done.push(n);
    });
    expect(most).toBe(4);
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, n) => n));
  });
});
