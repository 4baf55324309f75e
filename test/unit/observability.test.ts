import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { parseConfig } from '../../shared/config';
import { httpHandler } from '../../shared/http/http-handler';
import { json } from '../../shared/http/responses';
import { instrumented } from '../../shared/observability/instrumentation';
import { METRICS_NAMESPACE, SERVICE_NAME } from '../../shared/observability/metric-names';
import { countMetric, createMetrics, publishMetrics } from '../../shared/observability/metrics';
import { traced } from '../../shared/observability/tracer';
import { ROUTES } from '../../shared/routes/manifest';

/**
 * Business metrics leave a function as one Embedded Metric Format line on stdout per invocation
 * that counted something (CloudWatch turns it into metrics), with the service's namespace and
 * the `service` and `stage` dimensions; an invocation that counted nothing prints nothing. Under
 * `npm start` (POWERTOOLS_DEV) nothing is printed. No tracing SDK wraps the clients:
 * `traced` leaves them as they are, and handlers run as without tracing outside Lambda.
 */

// This file's functions: their config, with the stage their metrics are dimensioned by.
process.env.TABLE_NAME = 'observability-unit';
process.env.STAGE = 'unit';

const POWERTOOLS_SWITCHES = ['POWERTOOLS_DEV', 'POWERTOOLS_METRICS_DISABLED'] as const;
const saved = Object.fromEntries(POWERTOOLS_SWITCHES.map((name) => [name, process.env[name]]));
beforeEach(() => POWERTOOLS_SWITCHES.forEach((name) => delete process.env[name]));
afterAll(() =>
  POWERTOOLS_SWITCHES.forEach((name) => (saved[name] === undefined ? delete process.env[name] : (process.env[name] = saved[name]))),
);

/** What a run writes to stdout and stderr (Powertools writes EMF through a Console of its own on process.stdout). */
async function printedBy(run: () => unknown): Promise<{ stdout: string[]; stderr: string[] }> {
  const printed = { stdout: [] as string[], stderr: [] as string[] };
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => (printed.stdout.push(String(chunk)), true));
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => (printed.stderr.push(String(chunk)), true));
  try {
    await run();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return printed;
}

const emfLines = (lines: string[]) =>
  lines
    .flatMap((line) => line.split('\n'))
    .filter((line) => line.includes('"_aws"'))
    .map((line) => JSON.parse(line));

describe('business metrics (Powertools Metrics, EMF)', () => {
  it('publish one EMF line in the service namespace, dimensioned by service and stage', async () => {
    const metrics = createMetrics('prod');
    metrics.addMetric('InvitesSent', 'Count', 1);
    const { stdout } = await printedBy(() => publishMetrics(metrics));
    const [line, ...more] = emfLines(stdout);
    expect(more).toEqual([]);
    expect(line._aws.CloudWatchMetrics).toEqual([
      { Namespace: METRICS_NAMESPACE, Dimensions: [['service', 'stage']], Metrics: [{ Name: 'InvitesSent', Unit: 'Count' }] },
    ]);
    expect(line).toMatchObject({ service: SERVICE_NAME, stage: 'prod', InvitesSent: 1 });
  });

  it('print nothing, not even a warning, for an invocation that counted nothing', async () => {
    const printed = await printedBy(() => publishMetrics(createMetrics('prod')));
    expect(printed).toEqual({ stdout: [], stderr: [] });
  });

  it('print nothing under npm start (POWERTOOLS_DEV), and what was counted is dropped', async () => {
    process.env.POWERTOOLS_DEV = 'true';
    const metrics = createMetrics(undefined);
    metrics.addMetric('UploadsCompleted', 'Count', 1);
    expect((await printedBy(() => publishMetrics(metrics))).stdout).toEqual([]);
    expect(metrics.hasStoredMetrics()).toBe(false);
  });

  it("are flushed when an instrumented handler returns or throws, with the function's stage", async () => {
    const counting = instrumented(async (event: { fail: boolean }) => {
      countMetric('UploadsCompleted');
      countMetric('UploadsCompleted');
      if (event.fail) throw new Error('the handler failed');
      return 'done';
    });
    const answered = await printedBy(async () => expect(await counting({ fail: false })).toBe('done'));
    expect(emfLines(answered.stdout)).toEqual([
      expect.objectContaining({ UploadsCompleted: [1, 1], stage: 'unit', service: SERVICE_NAME }),
    ]);
    const failed = await printedBy(() => expect(counting({ fail: true })).rejects.toThrow('the handler failed'));
    expect(emfLines(failed.stdout)).toEqual([expect.objectContaining({ UploadsCompleted: [1, 1] })]);
    // Each invocation publishes its own counts only.
    expect(emfLines((await printedBy(() => counting({ fail: false }))).stdout)).toHaveLength(1);
  });

  it('are flushed by the HTTP handler stack, once per request', async () => {
    const handler = httpHandler(ROUTES.updateMemberSettings, async () => {
      countMetric('MemberSettingsUpdated');
      return json(200, { success: true });
    });
    const event = { headers: {}, requestContext: { requestId: 'req-1' } } as unknown as APIGatewayProxyEvent;
    let status: number | undefined;
    const { stdout } = await printedBy(async () => (status = (await handler(event, {} as never)).statusCode));
    expect(status).toBe(200);
    expect(emfLines(stdout)).toEqual([expect.objectContaining({ MemberSettingsUpdated: 1, stage: 'unit' })]);
  });

  it('take their stage from STAGE, which the config checks', () => {
    expect(parseConfig({ TABLE_NAME: 't', STAGE: 'prod' }).stage).toBe('prod');
    expect(parseConfig({ TABLE_NAME: 't' }).stage).toBeUndefined();
    expect(() => parseConfig({ TABLE_NAME: 't', STAGE: 'my stage' })).toThrow(/STAGE: must be letters, digits, - or _/);
  });
});

describe('tracing outside Lambda', () => {
  it('sends nothing without a tracing mode: no TRACING here, as under npm start, the CLI and the artefact tests', () => {
    expect(process.env.TRACING).toBeUndefined();
  });

  it('leaves an AWS client as it is: no tracing SDK wraps it', () => {
    const client = new DynamoDBClient({ region: 'eu-west-1' });
    const before = client.middlewareStack.identify();
    expect(traced(client)).toBe(client);
    expect(client.middlewareStack.identify()).toEqual(before);
    client.destroy();
  });

  it('lets an instrumented handler run as it would without it, with or without a Lambda context', async () => {
    const echo = instrumented(async (event: { value: number }) => event.value * 2);
    expect(await echo({ value: 21 })).toBe(42);
    expect(await echo({ value: 2 }, { functionName: 'f', getRemainingTimeInMillis: () => 10_000 } as never)).toBe(4);
  });
});
