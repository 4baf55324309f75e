import { VocabularyResponse } from '../../schemas/transcript-control-responses';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const getVocabularyRoute = defineRoute({
  name: 'getVocabulary',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/vocabulary',
  handler: 'functions/governance/get-vocabulary',
  summary: "Read the organization's vocabulary and its state",
  access: orgRoute('member', 'recordings:read'),
  permissions: { table: ['GetItem'] },
});

export const vocabularyExample = {
  language_code: 'en-US',
  terms: [
    { phrase: 'Halvorsen', sounds_like: ['hal vor sen'], display_as: 'Halvorsen AS' },
    { phrase: 'Kubernetes', display_as: 'K8s' },
  ],
  term_count: 2,
  status: 'ready',
  reason: null,
  version: 3,
  updated_at: '2026-11-02T09:30:00.000Z',
  updated_by: 'usr_demo_admin',
};

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const getVocabularyDocs = (): OperationDocs => ({
  description:
    'The organization\'s custom vocabulary: its terms and their state in Amazon Transcribe (`ready`, `pending` or `failed` with a `reason`). An organization that never set one has no terms and is `ready`. docs/transcript-controls.md, "Vocabulary".',
  responses: { 200: VocabularyResponse },
  errors: {},
  examples: { responses: { 200: vocabularyExample } },
  sample: () => ({ credential: 'orgKey', status: 200 }),
});
