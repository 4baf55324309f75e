/**
 * Limits that more than one layer states: the storage that enforces them and the schemas
 * whose documentation names them.
 */

/**
 * How many items a page with a filter expression (type, or actor and resource together)
 * reads at most before it answers with what it found and a cursor to read on from. Entries
 * are about 0.5 KB, so a page stays within one DynamoDB response (1 MB) and about 60 RCU.
 */
export const AUDIT_READ_BUDGET = 1000;

/**
 * The most a stored transcript's segments weigh as JSON. A 4-hour recording (the longest
 * Transcribe takes) at a fast 200 words a minute is 48,000 words: about 0.5 MB of segments as
 * people speak, 2.9 MB even if every word were a turn of its own. The bound keeps Get recording
 * (`include=transcript`) and every export under Lambda's 6 MB response by construction (JSON
 * escaping in the proxy response adds at most a fifth); a transcript over it fails instead, and so does a translation
 * of one (docs/translations.md).
 */
export const TRANSCRIPT_MAX_BYTES = 4_000_000;

/**
 * The largest upload any deployment may allow (its UPLOAD_MAX_BYTES is at most this): 5 GiB,
 * the largest object a single S3 PUT, and so one pre-signed upload URL, takes.
 */
export const UPLOAD_MAX_BYTES_CEILING = 5 * 1024 ** 3;
/** The most summaries a recording keeps (SUMMARY_LIMIT_REACHED beyond): its digest stays small on the recording item. */
export const MAX_SUMMARIES_PER_RECORDING = 20;
/**
 * Bounds on what a summary stores, so that its item stays far below DynamoDB's 400 KB and a
 * list of a recording's 20 summaries stays under Lambda's 6 MB response (docs/summaries.md):
 * longer engine output is cut at these lengths.
 */
export const SUMMARY_LIMITS = {
  /** Characters of the whole summary's markdown (the sections together hold no more). */
  markdown: 12000,
  actionItems: 50,
  actionItemText: 300,
  assignee: 200,
  /** Characters of a list item's excerpt of a summary's markdown. */
  excerpt: 500,
  /** Characters of a failure's reason (`<CODE>: <reason>`). */
  error: 500,
} as const;
