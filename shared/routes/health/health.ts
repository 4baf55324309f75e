import { HealthResponse } from '../../schemas/envelopes';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const healthRoute = defineRoute({
  name: 'health',
  method: 'GET',
  path: '/health',
  handler: 'functions/health/health',
  summary: 'Liveness check',
  access: 'public',
  permissions: {},
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const healthDocs = (): OperationDocs => ({
  description: 'Answers 200 while the API is up; it touches no dependency, so it is cheap to poll.',
  responses: { 200: HealthResponse },
  errors: {},
  examples: { responses: { 200: { status: 'ok' } } },
  sample: () => ({ credential: null, status: 200 }),
});
