import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openApiDocument } from '../../shared/openapi/document';

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
