import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { itemFields } from './item-fields';
import { keys } from './keys';
import { batchGetAll, queryAll } from './query-all';
import { summaryPart } from './summary-items';
import { isConditionFailure } from './transactions';

/**
 * Action items that name a member, in the organization's recordings. No index lists action
 * items by assignee, so they are found from the recordings: the organization's recordings
 * index (live and trash, only the fields that say which parts exist) and one BatchGetItem of
 * the summaries and legacy action-item parts it names. The cost is every recording and
 * every summary of the organization (docs/governance.md), paid by the erasure job, never by
 * a request.
 */

/** An item that holds action items: a summary (`action_items`) or a fixture's legacy part (`items`). */
export interface ActionItemHolder {
  key: { PK: string; SK: string };
  recordingId: string;
  field: 'action_items' | 'items';
  items: Record<string, unknown>[];
  /** Its `updated_at` when it has one: the rewrite holds only while the item is as read. */
  updatedAt: string | undefined;
}

/**
 * Every recording of the organization, live and in the trash, from its recordings index (GSI1),
 * with only the attributes named (and those holding `only`, when given): the erasure's rewrites
 * read the organization so, off the request path.
 */
export async function organizationRecordingRows(
  db: TableContext,
  orgId: string,
  attributes: readonly string[],
  only?: string,
): Promise<Record<string, unknown>[]> {
  const names = Object.fromEntries(attributes.map((name) => [`#${name}`, name]));
  const rows = await Promise.all(
    (['LIVE', 'TRASH'] as const).map((bin) =>
      queryAll(db, {
        TableName: db.tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ...(only ? { FilterExpression: `attribute_exists(#${only})` } : {}),
        ExpressionAttributeValues: { ':pk': keys.recordingsIndex(orgId, bin).GSI1PK },
        ProjectionExpression: Object.keys(names).join(', '),
        ExpressionAttributeNames: names,
      }),
    ),
  );
  return rows.flat();
}

/** Every summary item and legacy action-item part of the organization's recordings (live and trashed). */
export async function organizationActionItemHolders(db: TableContext, orgId: string): Promise<ActionItemHolder[]> {
  const recordings = await organizationRecordingRows(db, orgId, ['id', 'summaries', 'related']);
  const wanted: { PK: string; SK: string }[] = [];
  for (const recording of recordings) {
    const id = itemFields(recording, 'recording').string('id');
    for (const digest of itemFields(recording, 'recording').list('summaries')) {
      const summaryId = (digest as Record<string, unknown>).id;
      if (typeof summaryId === 'string') wanted.push(keys.recordingPart(orgId, id, summaryPart(summaryId)));
    }
    if ((recording.related as Record<string, unknown> | undefined)?.action_items) wanted.push(keys.recordingPart(orgId, id, 'ACTIONS'));
  }
  const items = await batchGetAll(db, wanted);
  return items.flatMap((item): ActionItemHolder[] => {
    const field = String(item.SK).endsWith('#ACTIONS') ? 'items' : 'action_items';
    const list = itemFields(item, 'action items holder').list(field);
    const recordingId = /^REC#([^#]+)#/.exec(String(item.SK))?.[1];
    if (!recordingId || !list.length) return [];
    return [
      {
        key: { PK: String(item.PK), SK: String(item.SK) },
        recordingId,
        field,
        items: list as Record<string, unknown>[],
        updatedAt: typeof item.updated_at === 'string' ? item.updated_at : undefined,
      },
    ];
  });
}

/**
 * Writes a holder's action items back, only while it is as read (its `updated_at`, or its
 * list unchanged for a legacy part). False when it changed meanwhile: read it again.
 */
export async function replaceActionItems(db: TableContext, holder: ActionItemHolder, items: Record<string, unknown>[]): Promise<boolean> {
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: holder.key,
        UpdateExpression: 'SET #field = :items',
        ConditionExpression: holder.updatedAt === undefined ? '#field = :read' : 'updated_at = :read',
        ExpressionAttributeNames: { '#field': holder.field },
        ExpressionAttributeValues: { ':items': items, ':read': holder.updatedAt ?? holder.items },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
