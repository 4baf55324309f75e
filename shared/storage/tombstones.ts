import { changeStamp } from './change-stamp';
import { itemFields } from './item-fields';
import { keys } from './keys';
import { TABLE } from './table-definition';
import type { TransactionPart } from './transactions';
import type { TableContext } from './dynamo';

/** What a tombstone records of a resource deleted for good. */
export interface Tombstone {
  resource: 'recording' | 'template' | 'webhook';
  org_id: string;
  id: string;
  deleted_at: string;
  /** The recording's recorder, for the event's data. */
  recorded_by?: string;
}

/** How long a tombstone stays: long enough for the stream (24 h) to have delivered it. */
const TOMBSTONE_DAYS = 7;

/**
 * The transaction part that writes a tombstone beside a delete: its INSERT in the stream is
 * the deletion's event, stamped with who deleted (the REMOVE of the deleted item cannot be).
 */
export function tombstonePart(db: TableContext, tombstone: Tombstone): TransactionPart<'tombstone'> {
  const expires = Math.floor(Date.parse(tombstone.deleted_at) / 1000) + TOMBSTONE_DAYS * 86_400;
  return {
    name: 'tombstone',
    write: {
      Put: {
        TableName: db.tableName,
        Item: {
          ...keys.tombstone(tombstone.org_id, tombstone.resource, tombstone.id),
          ...tombstone,
          ...changeStamp(),
          [TABLE.ttlAttribute]: expires,
        },
      },
    },
  };
}

/** Reads a tombstone item (from a stream image). */
export function tombstoneFromItem(item: Record<string, unknown>): Tombstone {
  const field = itemFields(item, 'tombstone');
  return {
    resource: field.oneOf('resource', ['recording', 'template', 'webhook'] as const),
    org_id: field.string('org_id'),
    id: field.string('id'),
    deleted_at: field.string('deleted_at'),
    ...(item.recorded_by !== undefined ? { recorded_by: field.string('recorded_by') } : {}),
  };
}
