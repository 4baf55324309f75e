import { UpdateVocabularyBody } from '../../schemas/transcript-controls';
import { VocabularyResponse } from '../../schemas/transcript-control-responses';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { vocabularyExample } from './get-vocabulary';

export const updateVocabularyRoute = defineRoute({
  name: 'updateVocabulary',
  method: 'PUT',
  path: '/api/v1/organization/{orgId}/vocabulary',
  handler: 'functions/governance/update-vocabulary',
  summary: "Set the organization's vocabulary",
  access: orgRoute('admin', 'recordings:write'),
  permissions: { table: ['GetItem', 'PutItem'] },
  request: { body: UpdateVocabularyBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const updateVocabularyDocs = (): OperationDocs => ({
  description:
    "Replaces the organization's terms (at most 500; an empty list removes the vocabulary). Transcribe's own rules are checked here, each a 400 naming the term: at most 256 characters per phrase, 50 KB in all, the characters its vocabularies take in that language (numbers spelled out). The answer is `pending`: Amazon Transcribe prepares the vocabulary (`voice-org-<org>`) in a few minutes, and transcriptions in its language started after it is `ready` use it (`transcript_vocabulary` on the recording says so). Locally, the terms correct the transcript after recognition (approximate: docs/vocabulary-engine.md). Audited as `organization.vocabulary_updated` (counts, no terms).",
  responses: { 200: VocabularyResponse },
  errors: { 400: ['VALIDATION_ERROR'], 409: ['CONCURRENT_UPDATE'] },
  examples: {
    request: { terms: vocabularyExample.terms, language_code: 'en-US' },
    responses: { 200: { ...vocabularyExample, status: 'pending', version: 4 } },
  },
  sample: () => ({ credential: 'orgKey', body: { terms: [{ phrase: 'Halvorsen', sounds_like: ['hal vor sen'] }] }, status: 200 }),
});
