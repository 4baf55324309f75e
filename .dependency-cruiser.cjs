/**
 * The layering rule (docs/architecture.md, "Layers"): each layer imports only the layers below
 * it, and nothing imports in a cycle. test/unit/layering.test.ts runs this file over shared/,
 * functions/ and infra/ and fails on any violation; `npm run lint:layers` prints them.
 */
const LAYERS = {
  core: '^shared/core/',
  platform: '^shared/(config[.]ts|config-models[.]ts|ids[.]ts|observability/)',
  schemas: '^shared/schemas/',
  storage: '^shared/storage/',
  definitions: '^shared/(routes/|function-permissions[.]ts)',
  domain: '^shared/(domain|auth|events|webhooks|mail|crypto|transcription|summarization|translation|search|redaction)/',
  operatorTasks: '^shared/operator-tasks/',
  http: '^shared/(http|openapi)/',
  wiring: '^shared/wiring/',
  handlers: '^functions/',
};

/** What each layer may import besides itself: everything else of ours is above it. */
const MAY_IMPORT = {
  core: [],
  platform: ['core'],
  schemas: ['core'],
  storage: ['schemas', 'platform', 'core'],
  definitions: ['schemas', 'core'],
  domain: ['definitions', 'storage', 'schemas', 'platform', 'core'],
  operatorTasks: ['domain', 'definitions', 'storage', 'schemas', 'platform', 'core'],
  http: ['operatorTasks', 'domain', 'definitions', 'storage', 'schemas', 'platform', 'core'],
  wiring: ['http', 'operatorTasks', 'domain', 'definitions', 'storage', 'schemas', 'platform', 'core'],
  handlers: ['wiring', 'http', 'operatorTasks', 'domain', 'definitions', 'storage', 'schemas', 'platform', 'core'],
};

const upwardImports = Object.entries(MAY_IMPORT).map(([layer, below]) => ({
  name: `${layer}-imports-up`,
  comment: `${layer} (${LAYERS[layer]}) may import only ${below.length ? below.join(', ') : 'nothing of ours'}`,
  severity: 'error',
  from: { path: LAYERS[layer] },
  to: {
    path: '^(shared|functions)/',
    pathNot: [LAYERS[layer], ...below.map((name) => LAYERS[name])],
  },
}));

module.exports = {
  forbidden: [
    ...upwardImports,
    {
      name: 'domain-reads-no-config',
      comment: 'The domain and the operator tasks receive their dependencies (shared/wiring builds them from config)',
      severity: 'error',
      from: { path: '^shared/(domain|operator-tasks)/' },
      to: { path: '^shared/config[.]ts$' },
    },
    {
      name: 'product-code-imports-no-tooling',
      comment: 'What is deployed never imports the stack, the local tools or the tests',
      severity: 'error',
      from: { path: '^(shared|functions)/' },
      to: { path: '^(infra|test|scripts)/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycle, within a layer either',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|cdk[.]out)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
  },
};
