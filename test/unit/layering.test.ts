import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The layering rule (docs/architecture.md, "Layers"; .dependency-cruiser.cjs): every import
 * points down, none in a cycle. dependency-cruiser reads the imports as TypeScript does (type
 * imports included), so a new upward import fails here, naming the rule and both files.
 */

const repoRoot = path.resolve(__dirname, '../..');
const depcruise = path.join(repoRoot, 'node_modules/.bin/depcruise');
const RULES = path.join(repoRoot, '.dependency-cruiser.cjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: { name: string }[];
}

/** The violations dependency-cruiser finds under `folders` of `cwd`, with the repo's rule file. */
function violationsIn(cwd: string, folders: string[]): Violation[] {
  let output: string;
  try {
    output = execFileSync(depcruise, ['--config', RULES, '--output-type', 'json', ...folders], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    // It exits with the number of errors found, having printed them all.
    output = (error as { stdout?: string }).stdout ?? '';
    if (!output) throw error;
  }
  return (JSON.parse(output) as { summary: { violations: Violation[] } }).summary.violations;
}

const describeViolation = (v: Violation) =>
  `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle: ${v.cycle.map((step) => step.name).join(' → ')})` : ''}`;

describe('the layering rule', () => {
  it('holds for shared/, functions/ and infra/: no upward import, no cycle', () => {
    expect(violationsIn(repoRoot, ['shared', 'functions', 'infra']).map(describeViolation)).toEqual([]);
  });

  it('fails on an upward import, a cycle and a deployed module importing the tooling', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'layering-'));
    try {
      const write = (file: string, text: string) => {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      };
      write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'commonjs', strict: true } }));
      write('shared/http/responses.ts', 'export type Page = { page: number };\n');
      write('shared/schemas/common.ts', "import type { Page } from '../http/responses';\nexport type Probe = Page;\n");
      write('shared/core/a.ts', "import { b } from './b';\nexport const a = () => b;\n");
      write('shared/core/b.ts', "import { a } from './a';\nexport const b = () => a;\n");
      write('shared/domain/plan.ts', "import { config } from '../config';\nexport const plan = config;\n");
      write('shared/config.ts', 'export const config = {};\n');
      write('functions/handler.ts', "import { sample } from '../infra/sample';\nexport const handler = sample;\n");
      write('infra/sample.ts', 'export const sample = 1;\n');

      const found = violationsIn(dir, ['shared', 'functions', 'infra']).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);

      expect(found).toEqual(
        expect.arrayContaining([
          'schemas-imports-up: shared/schemas/common.ts → shared/http/responses.ts',
          'domain-reads-no-config: shared/domain/plan.ts → shared/config.ts',
          'product-code-imports-no-tooling: functions/handler.ts → infra/sample.ts',
          expect.stringMatching(/^no-circular: shared\/core\/(a|b)\.ts → shared\/core\/(a|b)\.ts$/),
        ]),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
