import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCOPES } from '../../shared/core/access';
import { ORG_KEY_SCOPE_ROLES, PERSONAL_KEY_SCOPE_ROLES } from '../../shared/auth/scope-ceilings';

/** docs/api-keys.md documents the scope catalogue: every scope, with the ceilings the manifest gives it. */
describe('the scope table of docs/api-keys.md', () => {
  const rows = new Map(
    [
      ...readFileSync(join(__dirname, '../../docs/api-keys.md'), 'utf8').matchAll(
        /^\| `([a-z]+:[a-z]+)` \| [^|]+ \| (\w+) \| ([\w—]+) \|$/gm,
      ),
    ].map(([, scope, org, personal]) => [scope, { org, personal }]),
  );

  it('lists every scope of the code, and no other', () => {
    expect([...rows.keys()]).toEqual([...SCOPES]);
  });

  it.each([...SCOPES])('%s: the roles the route manifest gives', (scope) => {
    expect(rows.get(scope)).toEqual({ org: ORG_KEY_SCOPE_ROLES[scope], personal: PERSONAL_KEY_SCOPE_ROLES[scope] ?? '—' });
  });
});
