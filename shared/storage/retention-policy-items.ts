import { itemFields, nestedItemFields } from './item-fields';
import { redactionFromMap, type RedactionSetting } from './transcript-setting-items';

/**
 * An organization's retention policy as stored on its item (docs/governance.md): the type and
 * the mappers, with no DynamoDB client, so the event processor reads it without the repositories.
 */

/** How long the organization keeps recordings, and who set it when. */
export interface RetentionPolicy {
  /** Days from `recording_at` (else `created_at`) after which the sweep moves a recording to the trash; null: forever. */
  recordings_days: number | null;
  updated_at: string;
  /** The user or key id that set it. */
  updated_by: string;
}

/**
 * What the event processor reads of an organization item: its retention policy and redaction setting alone (the stream
 * sees every counter move of the item; nothing else of it is an event's subject).
 */
export interface OrganizationRetention {
  org_id: string;
  updated_at: string;
  retention?: RetentionPolicy;
  redaction?: RedactionSetting;
}

export function organizationRetentionFromItem(item: Record<string, unknown>): OrganizationRetention {
  const fields = itemFields(item, 'organization');
  return {
    org_id: fields.optionalString('org_id') ?? String(item.PK).slice('ORG#'.length),
    updated_at: fields.optionalString('updated_at') ?? '',
    retention: item.retention === undefined ? undefined : retentionFromMap(item),
    redaction: item.redaction === undefined ? undefined : redactionFromMap(item),
  };
}

export function retentionFromMap(item: Record<string, unknown>): RetentionPolicy {
  const fields = nestedItemFields(item, item.retention, 'organization retention');
  return {
    recordings_days: fields.optionalNumber('recordings_days') ?? null,
    updated_at: fields.string('updated_at'),
    updated_by: fields.string('updated_by'),
  };
}
