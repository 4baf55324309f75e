// Lints an OpenAPI document file with Redocly's recommended rules (offline) and prints the
// problems as JSON. Run as a child process by test/unit/openapi-lint.test.ts, because
// @redocly/openapi-core is an ES module that jest's CommonJS runtime cannot load.
import { createConfig, lint } from '@redocly/openapi-core';

// The recommended rules as they are (no-unused-components included: DomainEvent is the body of
// the document's `webhooks` entry), plus two the recommended set leaves off: every parameter
// and every operation described.
const config = await createConfig({
  extends: ['recommended'],
  rules: { 'parameter-description': 'error', 'operation-description': 'error' },
});
const problems = await lint({ ref: process.argv[2], config });
process.stdout.write(
  JSON.stringify(problems.map((p) => ({ rule: p.ruleId, severity: p.severity, message: p.message, at: p.location?.[0]?.pointer }))),
);
