#!/usr/bin/env node
// The `voice-org` command (package.json "bin"): runs the admin CLI's TypeScript sources through
// tsx's loader API, without a build step, so that `npx voice-org <command>` prints the command's
// JSON on stdout and nothing else (no npm banner, no tsx process in between).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register as registerCommonJs } from 'tsx/cjs/api';
import { register as registerEsm } from 'tsx/esm/api';

// The AWS SDK warns on stderr about Node versions it will drop; that notice is not the CLI's output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// Node resolves the link npx or node_modules/.bin made to this file, so this is the repository's infra/cli.
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
// The sources are CommonJS TypeScript (no "type": "module") that import ES modules (jose): both loaders, as the tsx command sets up.
registerCommonJs();
registerEsm({ tsconfig: path.join(repoRoot, 'tsconfig.json') });
await import(pathToFileURL(path.join(here, 'main.ts')).href);
