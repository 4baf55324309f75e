import { AskBody } from '../../schemas/search';
import { PublicAskResponse } from '../../schemas/search-responses';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { askDescription, askExample, askRefusals } from './search-docs';

export const askPublicQuestionRoute = defineRoute({
  name: 'askPublicQuestion',
  method: 'POST',
  path: '/api/v1/public/ask',
  handler: 'functions/search/ask-public-question',
  summary: "Ask a question answered from the key's member's own recordings",
  access: { userKey: { scopes: ['recordings:read'], minRole: 'viewer' } },
  permissions: { search: ['ReadDocument'], bedrock: ['InvokeModel'] },
  request: { body: AskBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const askPublicQuestionDocs = (): OperationDocs => ({
  description: `${askDescription()} A personal key asks about its member's own recordings only.`,
  responses: { 200: PublicAskResponse },
  errors: askRefusals(),
  examples: { request: { question: 'What did we decide about the budget?' }, responses: { 200: { success: true, data: askExample } } },
  sample: () => ({ credential: 'personalKey', body: { question: 'What did we decide about the budget?' }, status: 200 }),
});
