import { Document, Spectral } from '@stoplight/spectral-core';
import owasp from '@stoplight/spectral-owasp-ruleset';
import { Json as JsonParser } from '@stoplight/spectral-parsers';

/**
 * One finding of Stoplight's OWASP ruleset: its rule, severity (0 error, 1 warning, 2 info, 3 hint), where (a
 * JSON pointer's segments, joined by `/`) and what it says.
 */
export interface OwaspFinding {
  rule: string;
  severity: number;
  at: string;
  /** The same place, segment by segment (a path template holds slashes of its own). */
  path: string[];
  message: string;
}

/**
 * Lints an OpenAPI document with Stoplight's OWASP API Security ruleset
 * (@stoplight/spectral-owasp-ruleset) in full, as `spectral lint --ruleset` runs it, offline:
 * every `$ref` of the document is local. test/unit/openapi-lint.test.ts decides what may remain.
 */
export async function owaspFindings(document: Record<string, unknown>): Promise<OwaspFinding[]> {
  const spectral = new Spectral();
  spectral.setRuleset(owasp);
  const results = await spectral.run(new Document(JSON.stringify(document), JsonParser, 'openapi.json'));
  return results.map((result) => {
    const path = result.path.map(String);
    return { rule: String(result.code), severity: result.severity, at: path.join('/'), path, message: result.message };
  });
}
