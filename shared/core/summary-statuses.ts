/**
 * A summary's life (docs/summaries.md): `queued` when asked for (or when a transcription
 * completed), `processing` while the engine writes it, then `completed` or `failed`.
 */
export const SUMMARY_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
export type SummaryStatus = (typeof SUMMARY_STATUSES)[number];

/** Statuses during which a summary is queued or running: another with the same template is refused (SUMMARY_IN_PROGRESS). */
export const SUMMARY_IN_FLIGHT: readonly SummaryStatus[] = ['queued', 'processing'];
