import fc from 'fast-check';
import { symptomOf, violations, type Violation } from './checks';
import { healthy, send, type FuzzResponse } from './http';
import type { FuzzOperation } from './operations';
import { formatRequest, formatResponse, indent, type FuzzStats, type Redact } from './report';
import type { FuzzRequest } from './requests';

/**
 * Runs the fuzzer on one operation in two passes:
 *
 * 1. Survey: `runs` generated requests, every one sent whatever happened before, so that a
 *    long run reaches its full count and its statistics. Failing requests are grouped by
 *    symptom (status, error code, kinds of violation) and mutations; a group keeps its run
 *    index (not the request: bodies can be megabytes).
 * 2. Shrink: for a few groups, fast-check replays that run (same seed, `path`) and shrinks
 *    it to a minimal request with the same symptom, within a time budget.
 *
 * Between batches of requests, GET /health must answer 200.
 */

export interface FuzzConfig {
  apiUrl: string;
  seed: number;
  runs: number;
  /** GET /health after this many requests (and after each operation). */
  healthEvery: number;
  shrink: ShrinkBudget;
  redact: Redact;
}

/** Time left for shrinking, shared by the operations of one run. */
export class ShrinkBudget {
  private spent = 0;
  /** Symptom + mutations already shrunk, and where. */
  readonly done = new Map<string, string>();
  constructor(
    readonly totalMs: number,
    readonly perClassMs: number,
    readonly perSymptom: number,
  ) {}
  next(): number {
    return Math.max(0, Math.min(this.perClassMs, this.totalMs - this.spent));
  }
  spend(ms: number): void {
    this.spent += ms;
  }
}

export interface FailureClass {
  symptom: string;
  tags: string[];
  count: number;
  runIndex: number;
  /** The smallest failing request of the group, and its response. */
  example: string;
  /** The minimal request after shrinking, when it was shrunk. */
  shrunk?: { report: string; tags: string[]; numShrinks: number; interrupted: boolean };
  /** Another operation's shrunk class this one repeats, or why it was not shrunk. */
  note?: string;
}

export interface OperationOutcome {
  operationId: string;
  runs: number;
  failures: FailureClass[];
  serverDown?: string;
}

/** A 32-bit seed per operation, from the run's seed and the operation id: runs of one operation replay alone. */
export function operationSeed(seed: number, operationId: string): number {
  let hash = seed | 0;
  for (const char of operationId) hash = (Math.imul(hash ^ char.charCodeAt(0), 0x01000193) + 0x9e3779b9) | 0;
  return hash;
}

const sizeOf = (request: FuzzRequest) =>
  request.path.length + request.query.length + (request.body?.length ?? 0) + JSON.stringify(request.headers).length;

export async function fuzzOperation(
  op: FuzzOperation,
  requests: fc.Arbitrary<FuzzRequest>,
  config: FuzzConfig,
  stats: FuzzStats,
): Promise<OperationOutcome> {
  const seed = operationSeed(config.seed, op.operationId);
  const groups = new Map<string, FailureClass & { size: number }>();
  let runIndex = 0;
  let serverDown: string | undefined;

  const exchange = async (request: FuzzRequest, origin: 'run' | 'shrink'): Promise<{ response: FuzzResponse; found: Violation[] }> => {
    const response = await send(config.apiUrl, request);
    stats.record(op.operationId, origin, response);
    return { response, found: violations(config.apiUrl, op, request, response) };
  };
  const checkHealth = async () => {
    const health = await healthy(config.apiUrl);
    stats.record('(health checks)', 'health', { status: health.ok ? 200 : 0, headers: {}, text: '', json: undefined, ms: 0 });
    if (!health.ok) serverDown ??= `GET /health answered ${health.detail} after run ${runIndex} of ${op.operationId}`;
  };

  // 1. Survey.
  await fc.assert(
    fc.asyncProperty(requests, async (request) => {
      const index = runIndex++;
      if (serverDown) return;
      const { response, found } = await exchange(request, 'run');
      if (found.length) {
        const symptom = symptomOf(response, found);
        const key = `${symptom} | ${request.tags.join(',')}`;
        const size = sizeOf(request);
        const report = () => `${formatRequest(request, config.redact)}\n${formatResponse(response, found)}`;
        stats.recordFailure(op.operationId, symptom, request.tags, report);
        const group = groups.get(key);
        if (!group) groups.set(key, { symptom, tags: request.tags, count: 1, runIndex: index, example: report(), size });
        else {
          group.count += 1;
          if (size < group.size) Object.assign(group, { runIndex: index, example: report(), size });
        }
      }
      if ((index + 1) % config.healthEvery === 0) await checkHealth();
    }),
    // A harness error (not a finding: findings never throw) ends the run at once, unshrunk.
    { seed, numRuns: config.runs, endOnFailure: true },
  );
  await checkHealth();

  // 2. Shrink, per symptom, the groups whose mutations no minimal request found so far explains.
  const failures = [...groups.values()].sort((a, b) => a.tags.length - b.tags.length || a.size - b.size);
  const explained = new Map<string, string[][]>();
  for (const group of failures) {
    if (serverDown) break;
    const known = explained.get(group.symptom) ?? [];
    // A minimal request without mutations (a valid body the server fails on) explains no other group.
    const covering = known.find((tags) => tags.length > 0 && tags.every((t) => group.tags.includes(t)));
    if (covering) {
      group.note = `explained by the minimal request with mutations [${covering.join(', ') || 'none'}]`;
      continue;
    }
    const key = `${group.symptom} | ${group.tags.join(',')}`;
    const elsewhere = config.shrink.done.get(key);
    if (elsewhere) {
      group.note = `same symptom and mutations as the class shrunk on ${elsewhere}`;
      continue;
    }
    const timeLimit = config.shrink.next();
    if (known.length >= config.shrink.perSymptom || timeLimit < 200) {
      group.note = 'not shrunk (shrink budget spent): the smallest request seen is shown';
      continue;
    }
    let last: { request: FuzzRequest; response: FuzzResponse; found: Violation[] } | undefined;
    const started = Date.now();
    const result = await fc.check(
      fc.asyncProperty(requests, async (request) => {
        const { response, found } = await exchange(request, 'shrink');
        const failing = found.length > 0 && symptomOf(response, found) === group.symptom;
        if (failing) last = { request, response, found };
        return !failing;
      }),
      { seed, path: String(group.runIndex), plugins: [fc.interruptAfterTimeLimit(timeLimit)] },
    );
    config.shrink.spend(Date.now() - started);
    if (result.failed && last) {
      group.shrunk = {
        report: `${formatRequest(last.request, config.redact)}\n${formatResponse(last.response, last.found)}`,
        tags: last.request.tags,
        numShrinks: result.numShrinks,
        interrupted: result.interrupted,
      };
      known.push(last.request.tags);
      stats.recordMinimal(op.operationId, group.symptom, last.request.tags, group.shrunk.report);
      explained.set(group.symptom, known);
      config.shrink.done.set(key, op.operationId);
    } else {
      group.note = 'did not fail again on replay (the data it acted on changed): the original request is shown';
    }
    await checkHealth();
  }
  return { operationId: op.operationId, runs: runIndex, failures, serverDown };
}

/** The failure message of one operation: each class with its minimal (or smallest) request. */
export function describeFailures(outcome: OperationOutcome, seed: number): string {
  const lines = [
    `${outcome.operationId}: ${outcome.failures.reduce((n, f) => n + f.count, 0)} of ${outcome.runs} requests broke a property (seed ${seed}; replay: FUZZ_SEED=${seed} FUZZ_ONLY=${outcome.operationId})`,
  ];
  if (outcome.serverDown) lines.push(`SERVER DOWN: ${outcome.serverDown}`);
  for (const failure of outcome.failures) {
    lines.push('', `■ ${failure.symptom} ×${failure.count} — mutations: ${failure.tags.join(', ') || 'none'} (run ${failure.runIndex})`);
    if (failure.note?.startsWith('explained') || failure.note?.startsWith('same symptom')) {
      lines.push(`  ${failure.note}`);
    } else if (failure.shrunk) {
      lines.push(
        `  minimal request (${failure.shrunk.numShrinks} shrink steps${failure.shrunk.interrupted ? ', interrupted by the time budget' : ''}):`,
      );
      lines.push(indent(failure.shrunk.report, 4));
    } else {
      lines.push(`  ${failure.note ?? ''}`, indent(failure.example, 4));
    }
  }
  return lines.join('\n');
}
