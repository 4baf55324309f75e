import { HealthResponse } from '../../schemas/envelopes';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const healthRoute = defineRoute({
  name: 'health',
  method: 'GET',
  path: '/health',
  handler: 'functions/health',
  summary: 'Liveness check',
  access: 'public',
  permissions: {},
});

/** Its documentation, examples and sample request, for the OpenAPI document and the sample events: a function, so that esbuild leaves it out of the handler's bundle whole. */
export const healthDocs = (): OperationDocs => ({
  description: 'Answers 200 while the API is up; it touches no dependency, so it is cheap to poll.',
  responses: { 200: HealthResponse },
  errors: {},
  examples: { responses: { 200: { status: 'ok' } } },
  sample: () => ({ credential: null, status: 200 }),
});
