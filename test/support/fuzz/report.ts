import type { FuzzResponse } from './http';
import type { FuzzRequest } from './requests';
import type { Violation } from './checks';

/** Formatting of requests, responses and the run summary (tokens replaced by their kind). */

export type Redact = (text: string) => string;

export function excerpt(text: string, max = 240): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * 0.7);
  return `${text.slice(0, head)}…(${text.length.toLocaleString('en')} chars)…${text.slice(-(max - head))}`;
}

/** Makes control characters, lone surrogates and non-ASCII visible. */
const visible = (text: string) =>
  JSON.stringify(text)
    .slice(1, -1)
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export function formatRequest(request: FuzzRequest, redact: Redact): string {
  const lines = [`${request.method} ${excerpt(request.path + request.query, 400)}`];
  lines.push(`  credential: ${request.credential}`);
  for (const [name, value] of Object.entries(request.headers)) {
    lines.push(`  ${name}: ${excerpt(redact([value].flat().join(' | ')), 160)}`);
  }
  if (request.body !== undefined) {
    const text = typeof request.body === 'string' ? request.body : `<bytes> ${request.body.toString('latin1')}`;
    const bytes = typeof request.body === 'string' ? Buffer.byteLength(request.body) : request.body.length;
    lines.push(`  body (${bytes.toLocaleString('en')} bytes): ${excerpt(visible(text), 300)}`);
  } else {
    lines.push('  body: none');
  }
  lines.push(`  mutations: ${request.tags.length ? request.tags.join(', ') : 'none (a valid request)'}`);
  return lines.join('\n');
}

export function formatResponse(response: FuzzResponse, found: Violation[]): string {
  const head = response.error
    ? `no response: ${response.error}`
    : `${response.status} x-correlation-id: ${response.headers['x-correlation-id'] ?? '(absent)'} body: ${excerpt(response.text || '(empty)', 300)}`;
  return [`→ ${head}`, ...found.map((v) => `  ✗ ${v.kind}: ${excerpt(v.detail, 300)}`)].join('\n');
}

/** Counts of one run of the fuzzer, for the summary printed at the end. */
export class FuzzStats {
  readonly started = Date.now();
  total = 0;
  readonly byOrigin = new Map<string, number>();
  readonly byStatus = new Map<string, number>();
  /** Statuses of the generated requests only (not shrink replays or health checks). */
  readonly byStatusGenerated = new Map<string, number>();
  readonly byOperation = new Map<string, { requests: number; byStatus: Map<string, number> }>();
  /** Failure classes across operations: symptom + mutations -> count, operations, one example. */
  readonly classes = new Map<
    string,
    { symptom: string; tags: string[]; count: number; operations: Map<string, number>; example: string }
  >();
  /** Minimal failing requests found by shrinking: symptom -> mutations -> operations and one report. */
  readonly minimal = new Map<string, Map<string, { operations: string[]; report: string }>>();

  record(operationId: string, origin: 'run' | 'shrink' | 'health', response: FuzzResponse): void {
    const status = response.error ? 'no response' : String(response.status);
    this.total += 1;
    bump(this.byOrigin, origin);
    bump(this.byStatus, status);
    if (origin === 'run') bump(this.byStatusGenerated, status);
    const op = this.byOperation.get(operationId) ?? { requests: 0, byStatus: new Map() };
    op.requests += 1;
    bump(op.byStatus, status);
    this.byOperation.set(operationId, op);
  }

  recordFailure(operationId: string, symptom: string, tags: string[], example: () => string): void {
    const key = `${symptom} | ${tags.join(',')}`;
    const entry = this.classes.get(key) ?? { symptom, tags, count: 0, operations: new Map(), example: example() };
    entry.count += 1;
    bump(entry.operations, operationId);
    this.classes.set(key, entry);
  }

  recordMinimal(operationId: string, symptom: string, tags: string[], report: string): void {
    const bySymptom = this.minimal.get(symptom) ?? new Map();
    const key = tags.join(', ') || 'none (a valid request)';
    const entry = bySymptom.get(key) ?? { operations: [], report };
    entry.operations.push(operationId);
    bySymptom.set(key, entry);
    this.minimal.set(symptom, bySymptom);
  }

  fiveXx(byStatus = this.byStatus): number {
    return [...byStatus].filter(([status]) => Number(status) >= 500).reduce((sum, [, n]) => sum + n, 0);
  }

  summary(seed: number): string {
    const seconds = (Date.now() - this.started) / 1000;
    const sorted = (m: Map<string, number>) =>
      [...m]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, n]) => `${k}: ${n}`)
        .join(', ');
    const lines = [
      `fuzz summary (seed ${seed}; re-run with FUZZ_SEED=${seed})`,
      `  total requests: ${this.total} in ${seconds.toFixed(1)} s (${(this.total / seconds).toFixed(0)}/s); ${sorted(this.byOrigin)}`,
      `  by status, generated requests: ${sorted(this.byStatusGenerated)}`,
      `  by status, all requests (shrink replays and health checks included): ${sorted(this.byStatus)}`,
      `  5xx: ${this.fiveXx(this.byStatusGenerated)} of the generated requests, ${this.fiveXx()} in all`,
      '  per operation (all requests):',
      ...[...this.byOperation].map(([op, s]) => `    ${op.padEnd(28)} ${String(s.requests).padStart(6)}  ${sorted(s.byStatus)}`),
    ];
    const bySymptom = new Map<string, { count: number; variants: [string[], number][]; operations: Set<string>; example: string }>();
    for (const c of this.classes.values()) {
      const entry = bySymptom.get(c.symptom) ?? { count: 0, variants: [], operations: new Set(), example: c.example };
      entry.count += c.count;
      entry.variants.push([c.tags, c.count]);
      c.operations.forEach((_n, op) => entry.operations.add(op));
      bySymptom.set(c.symptom, entry);
    }
    lines.push(`  failing responses by symptom (${bySymptom.size}):`);
    for (const [symptom, entry] of [...bySymptom].sort((a, b) => b[1].count - a[1].count)) {
      const tagCounts = new Map<string, number>();
      for (const [tags, n] of entry.variants) for (const tag of tags) tagCounts.set(tag, (tagCounts.get(tag) ?? 0) + n);
      const frequent = [...tagCounts].sort((a, b) => b[1] - a[1]).slice(0, 5);
      lines.push(`    ${symptom}: ${entry.count} responses on ${entry.operations.size} operation(s): ${[...entry.operations].join(', ')}`);
      lines.push(
        `      mutations most often present: ${frequent.map(([t, n]) => `${t} ${Math.round((100 * n) / entry.count)}%`).join(', ') || 'none (valid requests)'}`,
      );
      const minimal = this.minimal.get(symptom);
      if (minimal) {
        for (const [tags, found] of minimal)
          lines.push(`      minimal request with mutations [${tags}] on ${found.operations.join(', ')}:`, indent(found.report, 8));
      } else {
        lines.push('      (not shrunk) first seen:', indent(entry.example, 8));
      }
    }
    return lines.join('\n');
  }
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

export const indent = (text: string, n: number) =>
  text
    .split('\n')
    .map((line) => ' '.repeat(n) + line)
    .join('\n');
