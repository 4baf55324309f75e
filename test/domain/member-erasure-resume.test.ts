import { spawn } from 'node:child_process';
import path from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { runErasureSteps } from '../../shared/domain/erasures/run-member-erasure';
import { startMemberErasure } from '../../shared/domain/erasures/start-member-erasure';
import { createTableContext } from '../../shared/storage/dynamo';
import { getErasure } from '../../shared/storage/erasures';
import { createRecordingObjects } from '../../shared/storage/recording-objects';
import { createTableInput } from '../../shared/storage/table-definition';
import { listObjects, localDeployment, unique } from '../support/api';
import { seedErasureWorld } from '../support/erasure-world';
import { eventually } from '../support/eventually';

/**
 * An erasure killed midway resumes: its job runs in a process of its own (as a Lambda
 * invocation), is killed with SIGKILL inside the recordings step, and a second run (the
 * queue's redelivery) finishes it from the step it was at, with the counts of the first.
 * The table is one of the test's own, with no stream, so that the deployment's own erasure
 * consumer never runs it: only the killed process and its successor do the work.
 */
const { runtime } = localDeployment();
const RECORDINGS = 40;

async function ownTable() {
  const tableName = `erasure_resume_${unique()}`;
  const client = new DynamoDBClient({
    region: runtime.region,
    endpoint: runtime.dynamoDbEndpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const { StreamSpecification: _stream, ...input } = createTableInput(tableName);
  await client.send(new CreateTableCommand(input));
  client.destroy();
  return createTableContext({ tableName, region: runtime.region, endpoint: runtime.dynamoDbEndpoint });
}

it('resumes an erasure whose job was killed with SIGKILL in the middle of the recordings step', async () => {
  const db = await ownTable();
  const world = await seedErasureWorld({ label: 'erak', recordings: RECORDINGS, db });
  const owner = world.org.people.owner;
  const started = await startMemberErasure(
    { db, now: () => new Date() },
    { kind: 'id_token', orgId: world.org.org, userId: owner.id, role: 'owner', actor: owner.id },
    world.zed.id,
    world.zed.email,
  );
  const worker = spawn(
    process.execPath,
    [
      path.join(__dirname, '../../node_modules/tsx/dist/cli.mjs'),
      path.join(__dirname, '../support/erasure-worker.ts'),
      JSON.stringify({ ...runtime, tableName: db.tableName, orgId: world.org.org, erasureId: started.id, delayMs: 40 }),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<NodeJS.Signals | null>((resolve) => worker.on('exit', (_code, signal) => resolve(signal)));
  const left = () =>
    db.client
      .send(
        new QueryCommand({
          TableName: db.tableName,
          IndexName: 'GSI2',
          KeyConditionExpression: 'GSI2PK = :pk',
          ExpressionAttributeValues: { ':pk': `ORG#${world.org.org}#USER#${world.zed.id}#RECS#LIVE` },
          Select: 'COUNT',
        }),
      )
      .then((page) => page.Count ?? 0);
  // Killed once some, not all, of the recordings are gone.
  const midway = await eventually(left, (count) => count > 0 && count < RECORDINGS - 5, { alsoWaitingMs: 30_000 });
  expect(midway).toBeGreaterThan(0);
  worker.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');

  const stopped = await getErasure(db, world.org.org, started.id, { consistent: true });
  expect(stopped).toMatchObject({ status: 'running', step: 'recordings', counts: { recordings: RECORDINGS } });

  // The redelivery: the job again, from the erasure as the killed run left it.
  const objects = createRecordingObjects({ bucket: runtime.bucketName, region: runtime.region, endpoint: runtime.s3Endpoint });
  const outcome = await runErasureSteps({ db, objects, now: () => new Date() }, stopped!);
  expect(outcome.kind).toBe('completed');
  const done = await getErasure(db, world.org.org, started.id, { consistent: true });
  expect(done).toMatchObject({ status: 'completed', step: null, in_progress: [] });
  // Counted once, by the first run: the resumed step found fewer recordings and did not count again.
  expect(done!.counts).toMatchObject({
    recordings: RECORDINGS,
    memberships: 1,
    api_keys: 1,
    invites: 1,
    tags: 1,
    action_items_rewritten: 1,
  });
  expect(await left()).toBe(0);
  // Every recording's related items and files went, the one deleted as the process died included.
  const related = await db.client.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :rec)',
      ExpressionAttributeValues: { ':pk': `ORG#${world.org.org}`, ':rec': 'REC#' },
    }),
  );
  expect((related.Items ?? []).filter((item) => world.zedRecordings.some((id) => String(item.SK).startsWith(`REC#${id}`)))).toEqual([]);
  expect((await listObjects(`recordings/${world.org.org}/`)).filter((object) => object.key.includes('_zed'))).toEqual([]);
}, 120_000);
