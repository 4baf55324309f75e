import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openApiDocument } from '../../shared/openapi/document';
import { ANSWERED_UNCOUNTED } from '../../shared/openapi/refusals';
import { owaspFindings, type OwaspFinding } from '../support/openapi-owasp-lint';

type Json = Record<string, any>;

describe('OpenAPI lint', () => {
  it("passes Redocly's recommended rules, no-unused-components included, and parameter and operation descriptions, with no problem of any severity", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
    try {
      const file = path.join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(openApiDocument(), null, 2));
      const output = execFileSync(process.execPath, [path.join(__dirname, '../support/openapi-lint.mjs'), file], {
        cwd: path.resolve(__dirname, '../..'),
        encoding: 'utf8',
      });
      expect(JSON.parse(output)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("Stoplight's OWASP ruleset", () => {
  const document = openApiDocument();
  let findings: OwaspFinding[];
  beforeAll(async () => {
    findings = await owaspFindings(document);
  }, 120_000);

  /** What a client sends: an operation's parameters and body, and the headers of the webhook the API sends (what it promises receivers). */
  const onRequestSide = ({ path: [root, , method, part] }: OwaspFinding) =>
    (root === 'paths' || root === 'webhooks') &&
    /^(get|put|post|patch|delete)$/.test(method) &&
    (part === 'parameters' || part === 'requestBody');
  /** What the API answers: its responses, and the components they refer to. */
  const onAnswerSide = ({ path }: OwaspFinding) => path[0] === 'components' || path.includes('responses');
  const ofHealth = ({ path: [root, template] }: OwaspFinding) => root === 'paths' && template === '/health';
  /**
   * A response of an operation the rate limiter never counts, or whose every code is answered before it
   * counts (the gateway's, the authorizer's, the body parser's).
   */
  const neverCounted = ({ path: [, template, method, , status] }: OwaspFinding) => {
    const { responses } = document.paths[template][method];
    const counted = (responses['429']['x-error-codes'] as string[]).includes('RATE_LIMITED');
    const codes: string[] = responses[status]['x-error-codes'] ?? [];
    return !counted || (codes.length > 0 && codes.every((code) => ANSWERED_UNCOUNTED.has(code as never)));
  };

  /**
   * The rules judged wrong for this API, each only where it is (docs/decisions.md, "Stoplight's
   * OWASP ruleset: the rules left off"). Any other finding, of any severity, fails the test.
   */
  const JUDGED_WRONG: Record<string, (finding: OwaspFinding) => boolean> = {
    // Resource-exhaustion limits are on what a client sends: the API's answers are its own, bounded by page sizes and its request limits.
    'owasp:api4:2023-string-limit': onAnswerSide,
    'owasp:api4:2023-array-limit': onAnswerSide,
    'owasp:api4:2023-integer-limit': onAnswerSide,
    // Free text (names, titles, prompts, search), opaque cursors and client-chosen keys have no format to state; their length is bounded.
    'owasp:api4:2023-string-restricted': () => true,
    // RateLimit-* cannot come on an answer given before the request is counted.
    'owasp:api4:2023-rate-limit': neverCounted,
    // The upload URL's `headers` field (what to send to S3) is no response's headers.
    'owasp:api8:2023-define-cors-origin': ({ path }) => path.includes('content'),
    // Health is public and takes no input: no credential to refuse, nothing to validate.
    'owasp:api2:2023-read-restricted': ofHealth,
    'owasp:api8:2023-define-error-responses-401': ofHealth,
    'owasp:api8:2023-define-error-validation': ofHealth,
  };
  const judgedWrong = (finding: OwaspFinding) => JUDGED_WRONG[finding.rule]?.(finding) ?? false;
  const shown = ({ rule, at, message }: OwaspFinding) => `${rule} at ${at}: ${message}`;

  it('finds nothing on the request side: every string bounded, every integer with its format and range, every array with its maxItems', () => {
    expect(findings.filter((finding) => onRequestSide(finding) && finding.severity === 0).map(shown)).toEqual([]);
  });

  it('finds nothing else but what a rule judged wrong for this API finds where it is wrong', () => {
    expect(findings.filter((finding) => !judgedWrong(finding)).map(shown)).toEqual([]);
  });

  it('still needs every rule it leaves off (an exemption nothing hits is dropped)', () => {
    const hit = new Set(findings.filter(judgedWrong).map((finding) => finding.rule));
    expect(Object.keys(JUDGED_WRONG).filter((rule) => !hit.has(rule))).toEqual([]);
  });

  it('refers to no component from a request, so that no request bound is judged as an answer', () => {
    const requests = Object.values<Json>({ ...document.paths, ...document.webhooks }).flatMap((item) =>
      Object.values<Json>(item).map((op) => JSON.stringify([op.parameters ?? [], op.requestBody ?? {}])),
    );
    // The webhook's body is the event the API sends (DomainEvent): an answer of the API's, to a receiver.
    expect(requests.filter((text) => text.includes('#/components/schemas/') && !text.includes('#/components/schemas/DomainEvent'))).toEqual(
      [],
    );
  });
});
