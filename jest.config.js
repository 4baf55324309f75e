const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

// Every temporary file of a run (speech made by ffmpeg, synthesized assemblies, data directories)
// lands in one directory of its own, removed when jest exits: tests never leave files in /tmp.
// The workers inherit TMPDIR, and os.tmpdir() reads it.
if (!process.env.VOICE_ORG_TEST_TMPDIR) {
  const runTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-org-tests-'));
  process.env.VOICE_ORG_TEST_TMPDIR = runTmp;
  process.env.TMPDIR = runTmp;
  process.on('exit', () => fs.rmSync(runTmp, { recursive: true, force: true }));
}

// The SDK's notice about Node 22 is for the maintainers, not for every test run.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// Handlers run in tests print no EMF metric lines (as under npm start); tests that read them turn them on.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

/** @type {import('jest').Config} */
const transform = { '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }] };
// jose, valibot and middy ship ESM: let swc turn them into CommonJS for jest on Node 20. So do the
// ESM dependencies of openapi-typescript's CommonJS build (the typed client's generator), some nested
// in its own node_modules: the pattern looks at the innermost node_modules/<package> of a path.
// Bundles in a CDK cloud assembly (asset.<hash>/) are loaded as built, byte for byte (test/integration/artefacts.test.ts).
const transformIgnorePatterns = [
  '/node_modules/(?!.*/node_modules/)(?!(@middy|jose|valibot|change-case|parse-json|index-to-position|supports-color|stemmer)/)',
  '/asset\\.[0-9a-f]{64}/',
];
const common = { transform, transformIgnorePatterns, testEnvironment: 'node' };
/** The emulators (DynamoDB Local, s3rver, SES) and the local API, started once for the projects that use them (test/support/global-setup.ts). */
const onTheLocalDeployment = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    // Both projects below run on one local deployment: jest runs a global setup module once however
    // many of the selected projects name it, so `npm test` starts a single deployment for the two.
    { ...common, ...onTheLocalDeployment, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.test.ts'] },
    // test/domain: domain functions called directly (no HTTP) against the same emulators, with an injected clock.
    { ...common, ...onTheLocalDeployment, displayName: 'domain', testMatch: ['<rootDir>/test/domain/**/*.test.ts'] },
    { ...common, displayName: 'infra', testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
  ],
  testTimeout: 60_000,
  // Jest's default is a worker per core but one; on 2 cores that one runs every file in turn
  // while the shared deployment mostly waits on it. At least two keep it busy.
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
};
