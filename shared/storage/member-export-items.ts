import { changeStamp } from './change-stamp';
import { itemFields, nestedItemFields } from './item-fields';
import { keys } from './keys';
import { TABLE } from './table-definition';

/**
 * A member's data export as an item (docs/governance.md, "Export"): its state, what it holds
 * and where its ZIP is. No DynamoDB client here, so the event processor (which only maps
 * stream images) bundles none.
 */

export const MEMBER_EXPORT_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type MemberExportStatus = (typeof MEMBER_EXPORT_STATUSES)[number];

/** How many of each kind of content the ZIP holds, counted while it is written. */
export interface MemberExportCounts {
  recordings: number;
  media_files: number;
  assigned_action_items: number;
  audit_entries: number;
  api_keys: number;
}

export interface MemberExport {
  id: string;
  org_id: string;
  user_id: string;
  status: MemberExportStatus;
  include_media: boolean;
  /** Who asked: a user id, or an organization key's id. */
  requested_by: string;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  /** When it completed or failed. */
  finished_at: string | null;
  /** When the ZIP and this item go (finished_at + the retention); null while queued or running. */
  expires_at: string | null;
  /** The ZIP's key in the recordings bucket, set once it is written. */
  object_key: string | null;
  size_bytes: number | null;
  counts: MemberExportCounts | null;
  /** Why it failed, as a code (`member_not_found`, `internal_error`); never content. */
  error: string | null;
  /** The event whose delivery runs it: a redelivery of the same event may run it again, another event never. */
  run_event_id: string | null;
}

/** How long a finished export is kept: the item's TTL and the bucket's lifecycle rule on exports/ (infra/constructs/recordings-bucket.ts). */
export const MEMBER_EXPORT_RETENTION_DAYS = 7;
/**
 * An export never finished (its consumer's messages all failed and went to the dead-letter
 * queue) still goes: its item's TTL is set at creation to this many days.
 */
export const UNFINISHED_EXPORT_TTL_DAYS = 8;

/** The sort key of an export item; its partition is the member's exports partition. */
export const MEMBER_EXPORT_SORT_KEY = /^EXPORT#[^#]+$/;
export const MEMBER_EXPORT_PARTITION = /^ORG#([^#]+)#USER#([^#]+)#EXPORTS$/;

/** Where an export's ZIP is stored: exports/<org>/<user>/<export>.zip (its own prefix, with its own lifecycle rule). */
export function memberExportObjectKey(orgId: string, userId: string, exportId: string): string {
  return `exports/${orgId}/${userId}/${exportId}.zip`;
}

const epochDaysAfter = (iso: string, days: number) => Math.floor(Date.parse(iso) / 1000) + days * 86_400;

/** The item of an export, stamped (its writes are events) and with its TTL. */
export function memberExportItem(record: MemberExport) {
  const ttl = record.expires_at
    ? Math.floor(Date.parse(record.expires_at) / 1000)
    : epochDaysAfter(record.created_at, UNFINISHED_EXPORT_TTL_DAYS);
  return {
    ...keys.memberExport(record.org_id, record.user_id, record.id),
    ...record,
    ...changeStamp(),
    [TABLE.ttlAttribute]: ttl,
  };
}

export function memberExportFromItem(item: Record<string, unknown>): MemberExport {
  const field = itemFields(item, 'member export');
  const counts = item.counts === null || item.counts === undefined ? null : nestedItemFields(item, item.counts, 'member export counts');
  return {
    id: field.string('id'),
    org_id: field.string('org_id'),
    user_id: field.string('user_id'),
    status: field.oneOf('status', MEMBER_EXPORT_STATUSES),
    include_media: field.boolean('include_media'),
    requested_by: field.string('requested_by'),
    created_at: field.string('created_at'),
    updated_at: field.string('updated_at'),
    started_at: field.nullableString('started_at'),
    finished_at: field.nullableString('finished_at'),
    expires_at: field.nullableString('expires_at'),
    object_key: field.nullableString('object_key'),
    size_bytes: item.size_bytes === null || item.size_bytes === undefined ? null : field.number('size_bytes'),
    counts: counts && {
      recordings: counts.number('recordings'),
      media_files: counts.number('media_files'),
      assigned_action_items: counts.number('assigned_action_items'),
      audit_entries: counts.number('audit_entries'),
      api_keys: counts.number('api_keys'),
    },
    error: field.nullableString('error'),
    run_event_id: field.nullableString('run_event_id'),
  };
}

/** The finished export as of `now`: completed or failed, kept for the retention from then. */
export function finishedExport(
  record: MemberExport,
  now: Date,
  outcome: { status: 'completed'; sizeBytes: number; counts: MemberExportCounts; objectKey: string } | { status: 'failed'; error: string },
): MemberExport {
  const at = now.toISOString();
  const expires = new Date(now.getTime() + MEMBER_EXPORT_RETENTION_DAYS * 86_400_000).toISOString();
  return {
    ...record,
    status: outcome.status,
    updated_at: at,
    finished_at: at,
    expires_at: expires,
    ...(outcome.status === 'completed'
      ? { size_bytes: outcome.sizeBytes, counts: outcome.counts, object_key: outcome.objectKey, error: null }
      : { error: outcome.error }),
  };
}
