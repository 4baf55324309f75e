import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const requireHere = createRequire(__filename);

/**
 * The installed directory of an npm package, found as Node's resolution would (the model files
 * inside it are not exported, so `require.resolve('<pkg>/package.json')` is refused). Throws when absent.
 */
export function packageDir(name: string): string {
  for (const dir of requireHere.resolve.paths(name) ?? []) {
    const candidate = path.join(dir, name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
  }
  throw new Error(`${name} is not installed`);
}
