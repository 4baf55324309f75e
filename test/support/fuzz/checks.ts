import { contractViolation } from '../contract';
import type { FuzzResponse } from './http';
import type { FuzzOperation } from './operations';
import type { FuzzRequest } from './requests';

/**
 * The properties every fuzzed request must keep, whatever was sent:
 * - a response arrives (no reset, no timeout), and it is not a 5xx;
 * - its status is one the operation documents;
 * - an error response is the envelope {success: false, data: null, error: CODE, message}
 *   (plus, optionally, details: [{field, issue}]);
 * - the response validates against the OpenAPI document (test/support/contract.ts);
 * - it carries x-correlation-id.
 */

export type ViolationKind = 'no-response' | '5xx' | 'undocumented-status' | 'not-envelope' | 'contract' | 'no-correlation-id';

export interface Violation {
  kind: ViolationKind;
  detail: string;
}

const CODE = /^[A-Z][A-Z0-9_]*$/;

/** Why a body is not the error envelope, or undefined when it is. */
export function envelopeProblem(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the body is not a JSON object';
  const b = body as Record<string, unknown>;
  const problems: string[] = [];
  if (b.success !== false) problems.push('success is not false');
  if (b.data !== null) problems.push('data is not null');
  if (typeof b.error !== 'string' || !CODE.test(b.error)) problems.push('error is not an UPPER_SNAKE code');
  if (typeof b.message !== 'string') problems.push('message is not a string');
  if ('details' in b) {
    const details = b.details;
    const ok =
      Array.isArray(details) &&
      details.every((d) => d !== null && typeof d === 'object' && typeof d.field === 'string' && typeof d.issue === 'string');
    if (!ok) problems.push('details is not a list of {field, issue}');
  }
  const extra = Object.keys(b).filter((k) => !['success', 'data', 'error', 'message', 'details'].includes(k));
  if (extra.length) problems.push(`unexpected keys ${extra.join(', ')}`);
  return problems.length ? problems.join('; ') : undefined;
}

/** The path the server routes on, as test/support/api.ts `call` gives it to the contract check. */
export function routedPath(apiUrl: string, request: FuzzRequest): string {
  return new URL(`${apiUrl}${request.path}${request.query}`).pathname;
}

export function violations(apiUrl: string, op: FuzzOperation, request: FuzzRequest, response: FuzzResponse): Violation[] {
  if (response.error) return [{ kind: 'no-response', detail: response.error }];
  const found: Violation[] = [];
  const { status } = response;
  if (status >= 500) found.push({ kind: '5xx', detail: `status ${status}` });
  if (!op.statuses.has(status))
    found.push({ kind: 'undocumented-status', detail: `${status} is not among ${[...op.statuses].join(', ')}` });
  if (status >= 400) {
    const problem =
      response.json === undefined ? `the body is not JSON: ${JSON.stringify(response.text.slice(0, 200))}` : envelopeProblem(response.json);
    if (problem) found.push({ kind: 'not-envelope', detail: problem });
  }
  let contract: string | undefined;
  try {
    // A text answer (Get transcript's vtt, srt, txt) is checked as text: the contract allows it where the operation documents text media types.
    const textAnswer = status < 400 && response.json === undefined && response.text !== '';
    contract = contractViolation(
      request.method,
      routedPath(apiUrl, request),
      status,
      textAnswer ? response.text : response.json,
      Object.keys(response.headers),
    );
  } catch (error) {
    // contractViolation cannot describe a body that is not JSON at all.
    contract = `${request.method} ${routedPath(apiUrl, request)} answered ${status} with a body that is not JSON (${(error as Error).message}): ${JSON.stringify(response.text.slice(0, 200))}`;
  }
  if (contract) found.push({ kind: 'contract', detail: contract.slice(0, 600) });
  if (!response.headers['x-correlation-id']) found.push({ kind: 'no-correlation-id', detail: 'no x-correlation-id header' });
  return found;
}

/** The error code of a response, if it has one. */
export function errorCode(response: FuzzResponse): string {
  const body = response.json as Record<string, unknown> | undefined;
  return typeof body?.error === 'string' ? body.error : '-';
}

/** What a failing response looks like: status, error code and the kinds of violation. Shrinking keeps it. */
export function symptomOf(response: FuzzResponse, found: Violation[]): string {
  const all = new Set(found.map((v) => v.kind));
  // An undeclared status or a body that is no envelope always fails the contract check too (or cannot reach it: a path `..` resolves away).
  if (all.has('undocumented-status') || all.has('not-envelope')) all.delete('contract');
  const kinds = [...all].sort().join('+');
  return response.error ? `no response (${response.error}) ${kinds}` : `${response.status} ${errorCode(response)} ${kinds}`;
}
