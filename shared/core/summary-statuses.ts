/**
 * A summary's life (docs/summaries.md): `queued` when asked for (or when a transcription
 * completed), `processing` while the engine writes it, then `completed` or `failed`.
 */
export const SUMMARY_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
export type SummaryStatus = (typeof SUMMARY_STATUSES)[number];

/** Statuses during which a summary is queued or running: another with the same template is refused (SUMMARY_IN_PROGRESS). */
export const SUMMARY_IN_FLIGHT: readonly SummaryStatus[] = ['queued', 'processing'];

/** The most summaries a recording keeps (SUMMARY_LIMIT_REACHED beyond): its digest stays small on the recording item. */
export const MAX_SUMMARIES_PER_RECORDING = 20;

/**
 * Bounds on what a summary stores, so that its item stays far below DynamoDB's 400 KB and a
 * list of a recording's 20 summaries stays under Lambda's 6 MB response (docs/summaries.md):
 * longer engine output is cut at these lengths.
 */
export const SUMMARY_LIMITS = {
  /** Characters of the whole summary's markdown (the sections together hold no more). */
  markdown: 12_000,
  actionItems: 50,
  actionItemText: 300,
  assignee: 200,
  /** Characters of a list item's excerpt of a summary's markdown. */
  excerpt: 500,
  /** Characters of a failure's reason (`<CODE>: <reason>`). */
  error: 500,
} as const;
