import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GENERATE_COMMAND, generatedTypes, TYPES_FILE } from '../../clients/typescript/generate';
import { listEndpoints } from '../../shared/routes';
import { operationIdOf } from '../../shared/openapi/document';

// The typed client's types are committed: a route or schema change must come with them regenerated.
describe('the typed client (clients/typescript)', () => {
  let generated: string;
  beforeAll(async () => {
    generated = await generatedTypes();
  }, 30_000);

  it('has the types the current document generates', () => {
    const committed = readFileSync(TYPES_FILE, 'utf8');
    if (committed !== generated) {
      const committedLines = committed.split('\n');
      const generatedLines = generated.split('\n');
      const line = generatedLines.findIndex((text, i) => text !== committedLines[i]);
      throw new Error(
        `${path.relative(process.cwd(), TYPES_FILE)} is stale: run \`${GENERATE_COMMAND}\` and commit it ` +
          `(first difference at line ${line + 1}: committed ${JSON.stringify(committedLines[line])}, generated ${JSON.stringify(generatedLines[line])})`,
      );
    }
  });

  it('types every operation of the route manifest', () => {
    const typed = [...generated.matchAll(/^ {4}(\w+): \{$/gm)].map(([, name]) => name);
    const operationIds = listEndpoints().map(operationIdOf);
    expect(operationIds.length).toBeGreaterThan(0);
    for (const id of operationIds) expect(typed).toContain(id);
  });
});
