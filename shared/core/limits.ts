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
