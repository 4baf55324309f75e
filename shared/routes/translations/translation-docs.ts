import type { OperationDocs } from '../route-docs';

/*
 * What both hosts' Translate recording routes say in their docs: functions, called only by the
 * routes' docs functions, so that no handler's bundle carries them.
 */

/** The refusals of Translate recording (both hosts). */
export const translateRefusals = (): OperationDocs['errors'] => ({
  404: ['RECORDING_NOT_FOUND'],
  409: ['TRANSCRIPT_NOT_READY', 'TRANSLATION_IN_PROGRESS', 'CONCURRENT_UPDATE'],
});

export const translateDescription = () =>
  "Queues the translation of the recording's completed transcript, and of its latest summary, into `to_language` (an ISO 639-1 code Amazon Translate knows), and answers the Translation with `processing_status: queued`. The source language is the transcript's. The recording's `translation` and `translation_error` report the latest translation; once `completed`, Get transcript with `language` serves the translated transcript in every export format. A pair the engine does not translate ends `failed` with the reason in `error_message`. One translation at a time per recording: another language while one is queued or processing is 409 TRANSLATION_IN_PROGRESS, the same language answers that translation (nothing new is queued). A language translated again replaces its previous translation when the new one completes.";

/** A queued translation, as the examples show it. */
export const queuedTranslationExample = {
  id: 'trl_5f0c2a9e8b7d6c5b4a39',
  created_at: '2026-11-28T09:30:00.000Z',
  updated_at: '2026-11-28T09:30:00.000Z',
  detected_language: 'en',
  to_language: 'es',
  processing_status: 'queued',
  error_message: '',
};
