import { runErasureSteps } from '../../shared/domain/erasures/run-member-erasure';
import { createTableContext } from '../../shared/storage/dynamo';
import { getErasure } from '../../shared/storage/erasures';
import { createRecordingObjects } from '../../shared/storage/recording-objects';

/**
 * The erasure job in a process of its own, as a Lambda invocation runs it, so that a test can
 * kill it with SIGKILL midway (test/domain/member-erasure-resume.test.ts). Every table request
 * waits WORKER_DELAY_MS first, so the kill lands inside the recordings step.
 * Usage: tsx erasure-worker.ts <json of {dynamoDbEndpoint, tableName, region, s3Endpoint, bucketName, orgId, erasureId, delayMs}>
 */
async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2]) as {
    dynamoDbEndpoint: string;
    tableName: string;
    region: string;
    s3Endpoint: string;
    bucketName: string;
    orgId: string;
    erasureId: string;
    delayMs: number;
  };
  const db = createTableContext({ tableName: options.tableName, region: options.region, endpoint: options.dynamoDbEndpoint });
  const send = db.client.send.bind(db.client) as (command: unknown) => Promise<unknown>;
  (db.client as unknown as { send: (command: unknown) => Promise<unknown> }).send = async (command) => {
    await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    return send(command);
  };
  const objects = createRecordingObjects({ bucket: options.bucketName, region: options.region, endpoint: options.s3Endpoint });
  const erasure = await getErasure(db, options.orgId, options.erasureId, { consistent: true });
  if (!erasure) throw new Error('no such erasure');
  process.stdout.write('started\n');
  await runErasureSteps({ db, objects, now: () => new Date() }, erasure);
  process.stdout.write('finished\n');
}

main().catch((error: Error) => {
  process.stderr.write(`${error.name}: ${error.message}\n`);
  process.exit(1);
});
