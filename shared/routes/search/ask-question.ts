import { AskBody } from '../../schemas/search';
import { AskResponse } from '../../schemas/search-responses';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { askDescription, askExample, askRefusals } from './search-docs';

export const askQuestionRoute = defineRoute({
  name: 'askQuestion',
  method: 'POST',
  path: '/api/v1/organization/{orgId}/ask',
  handler: 'functions/search/ask-question',
  summary: "Ask a question answered from the organization's recordings, with citations",
  access: orgRoute('viewer', 'recordings:read'),
  permissions: { search: ['ReadDocument'], bedrock: ['InvokeModel'] },
  request: { body: AskBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const askQuestionDocs = (): OperationDocs => ({
  description: askDescription(),
  responses: { 200: AskResponse },
  errors: askRefusals(),
  examples: { request: { question: 'What did we decide about the budget?' }, responses: { 200: askExample } },
  sample: () => ({ credential: 'orgKey', body: { question: 'What did we decide about the budget?' }, status: 200 }),
});
