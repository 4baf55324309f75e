import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { itemFields } from './item-fields';
import { keys } from './keys';
import { batchGetAll } from './query-all';
import type { TransactItem } from './transactions';

/**
 * Billed transcription minutes per UTC month (docs/data-model.md): one counter for the
 * organization and one per member, under the organization's usage partition, moved by ADD in
 * the transaction that completes a transcription; and the organization's monthly allowance
 * (`transcription_minutes_allowance` on its item, set by `org set-limits`).
 */

/** The ADDs of one completion: the organization's month and the recorder's. */
export function transcriptionUsageParts(
  db: TableContext,
  orgId: string,
  userId: string,
  usage: { month: string; minutes: number },
): TransactItem[] {
  const add = (Key: Record<string, string>, fields: Record<string, string>): TransactItem => ({
    Update: {
      TableName: db.tableName,
      Key,
      UpdateExpression:
        'ADD transcription_minutes :minutes SET #month = :month' +
        Object.keys(fields)
          .map((name) => `, ${name} = :${name}`)
          .join(''),
      ExpressionAttributeNames: { '#month': 'month' },
      ExpressionAttributeValues: {
        ':minutes': usage.minutes,
        ':month': usage.month,
        ...Object.fromEntries(Object.entries(fields).map(([name, value]) => [`:${name}`, value])),
      },
    },
  });
  return [
    add(keys.transcriptionUsage(orgId, usage.month), { org_id: orgId }),
    add(keys.memberTranscriptionUsage(orgId, usage.month, userId), { org_id: orgId, user_id: userId }),
  ];
}

/** What a transcription may still use this month: the organization's allowance (null: none) and its minutes so far. */
export interface TranscriptionBudget {
  allowance: number | null;
  used: number;
  /** False when the organization does not exist. */
  organizationExists: boolean;
}

/** An organization's allowance and month's usage: one BatchGetItem of two items. */
export async function readTranscriptionBudget(db: TableContext, orgId: string, month: string): Promise<TranscriptionBudget> {
  const usageKey = keys.transcriptionUsage(orgId, month);
  const budget: TranscriptionBudget = { allowance: null, used: 0, organizationExists: false };
  for (const item of await batchGetAll(db, [keys.organization(orgId), usageKey])) {
    const fields = itemFields(item, 'transcription budget');
    if (item.PK === usageKey.PK) budget.used = fields.number('transcription_minutes');
    else {
      budget.organizationExists = true;
      budget.allowance = fields.optionalNumber('transcription_minutes_allowance') ?? null;
    }
  }
  return budget;
}

/** A member's billed minutes of a month (0 when none). */
export function memberMinutesFromItem(item: Record<string, unknown> | undefined): number {
  return item ? itemFields(item, 'member transcription usage').number('transcription_minutes') : 0;
}

/** One page of a month's members with usage, by user id, after `afterUserId` when given. */
export async function listMemberUsage(
  db: TableContext,
  orgId: string,
  month: string,
  page: { limit: number; afterUserId?: string },
): Promise<{ members: { user_id: string; transcription_minutes: number }[]; more: boolean }> {
  const prefix = keys.memberTranscriptionUsagePrefix(month);
  const { PK } = keys.transcriptionUsage(orgId, month);
  const { Items, LastEvaluatedKey } = await db.client.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': PK, ':prefix': prefix },
      ...(page.afterUserId !== undefined ? { ExclusiveStartKey: { PK, SK: `${prefix}${page.afterUserId}` } } : {}),
      Limit: page.limit,
    }),
  );
  const members = (Items ?? []).map((item) => {
    const fields = itemFields(item, 'member transcription usage');
    return { user_id: fields.string('user_id'), transcription_minutes: fields.number('transcription_minutes') };
  });
  // A full page may be the last one: DynamoDB says so only by the next (empty) read, which the next page's caller pays.
  return { members, more: LastEvaluatedKey !== undefined };
}

/**
 * Sets an organization's monthly allowance of transcription minutes, or removes it with null
 * (ConditionalCheckFailed when the organization does not exist).
 */
export async function setTranscriptionAllowance(db: TableContext, orgId: string, minutes: number | null, now: string): Promise<void> {
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.organization(orgId),
      UpdateExpression:
        minutes === null
          ? 'REMOVE transcription_minutes_allowance SET updated_at = :now'
          : 'SET transcription_minutes_allowance = :allowance, updated_at = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':now': now, ...(minutes === null ? {} : { ':allowance': minutes }) },
    }),
  );
}
