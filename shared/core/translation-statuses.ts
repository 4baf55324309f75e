/**
 * Where a recording's latest translation is (its `translation.processing_status`): `queued`
 * once asked for, `processing` while the engine runs, then `completed` or `failed`.
 */
export const TRANSLATION_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
export type TranslationStatus = (typeof TRANSLATION_STATUSES)[number];

/** Statuses during which a translation is queued or running: another request is 409 TRANSLATION_IN_PROGRESS. */
export const TRANSLATION_IN_FLIGHT: readonly TranslationStatus[] = ['queued', 'processing'];
