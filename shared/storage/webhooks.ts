import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { changeStamp } from './change-stamp';
import type { TableContext } from './dynamo';
import { keys } from './keys';
import { tombstonePart } from './tombstones';
import { appliedUnlessConditionFails, commitParts, isConditionFailure, WriteConflict } from './transactions';
import { webhookFromItem, webhookItem, type StoredSecret, type WebhookRecord } from './webhook-items';

/** One endpoint, or undefined. */
export async function getWebhook(db: TableContext, orgId: string, webhookId: string): Promise<WebhookRecord | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.webhook(orgId, webhookId) }));
  return Item ? webhookFromItem(Item) : undefined;
}

/** Every endpoint of an organization, by id: one query of at most the endpoint limit's items. */
export async function listWebhooks(db: TableContext, orgId: string): Promise<WebhookRecord[]> {
  const { Items = [] } = await db.client.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.organization(orgId).PK, ':prefix': keys.webhookPrefix },
    }),
  );
  return Items.map(webhookFromItem);
}

/** The parts of an endpoint's creation and deletion: the endpoint, the organization's count, the tombstone. */
export type WebhookPart = 'webhook' | 'count' | 'tombstone';

/**
 * Adds an endpoint and counts it, in one transaction: a WriteConflict at `count` when the
 * organization already has `limit` endpoints.
 */
export async function insertWebhook(db: TableContext, webhook: WebhookRecord, limit: number): Promise<void> {
  await commitParts<WebhookPart>(db, [
    {
      name: 'count',
      write: {
        Update: {
          TableName: db.tableName,
          Key: keys.webhookCount(webhook.org_id),
          UpdateExpression: 'ADD endpoints :one',
          ConditionExpression: 'attribute_not_exists(endpoints) OR endpoints < :limit',
          ExpressionAttributeValues: { ':one': 1, ':limit': limit },
        },
      },
    },
    {
      name: 'webhook',
      write: { Put: { TableName: db.tableName, Item: webhookItem(webhook), ConditionExpression: 'attribute_not_exists(PK)' } },
    },
  ]);
}

/** Removes an endpoint, uncounts it and leaves its tombstone: a WriteConflict at `webhook` when there is none. */
export async function removeWebhook(db: TableContext, orgId: string, webhookId: string, deletedAt: string): Promise<void> {
  await commitParts<WebhookPart>(db, [
    {
      name: 'webhook',
      write: { Delete: { TableName: db.tableName, Key: keys.webhook(orgId, webhookId), ConditionExpression: 'attribute_exists(PK)' } },
    },
    {
      name: 'count',
      write: {
        Update: {
          TableName: db.tableName,
          Key: keys.webhookCount(orgId),
          UpdateExpression: 'ADD endpoints :minusOne',
          ExpressionAttributeValues: { ':minusOne': -1 },
        },
      },
    },
    tombstonePart(db, { resource: 'webhook', org_id: orgId, id: webhookId, deleted_at: deletedAt }),
  ]);
}

/** What a request may change on an endpoint (the fields it names; the others stay). */
export interface WebhookChanges {
  url?: string;
  description?: string;
  events?: WebhookRecord['events'];
  enabled?: boolean;
  disabled_reason?: WebhookRecord['disabled_reason'];
  secrets?: StoredSecret[];
  /** Set on re-enabling: the failures before it no longer count toward disabling. */
  clearFailing?: boolean;
}

/**
 * Changes the named fields of an endpoint, stamped, and returns it as it now is. Only those
 * fields are written, so the dispatcher's concurrent bookkeeping (failing_since) is never
 * overwritten with a stale read. A WriteConflict at `webhook` when the endpoint is gone.
 */
export async function updateWebhookFields(
  db: TableContext,
  orgId: string,
  webhookId: string,
  changes: WebhookChanges,
  updatedAt: string,
): Promise<WebhookRecord> {
  const { clearFailing, ...fields } = changes;
  const values: Record<string, unknown> = { ...fields, updated_at: updatedAt, ...changeStamp() };
  const names = Object.keys(values);
  const set = names.map((name) => `#${name} = :${name}`).join(', ');
  try {
    const { Attributes } = await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.webhook(orgId, webhookId),
        UpdateExpression: `SET ${set}${clearFailing ? ' REMOVE failing_since' : ''}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
        ExpressionAttributeValues: Object.fromEntries(names.map((name) => [`:${name}`, values[name]])),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return webhookFromItem(Attributes ?? {});
  } catch (error) {
    if (isConditionFailure(error)) throw new WriteConflict<WebhookPart>(['webhook'], { cause: error });
    throw error;
  }
}

/**
 * Notes a failed attempt: the endpoint is failing since now, unless it already was. Not a
 * change of the endpoint anyone made (no stamp, no event). Returns since when it fails.
 */
export async function markWebhookFailing(db: TableContext, orgId: string, webhookId: string, now: string): Promise<string | undefined> {
  try {
    const { Attributes } = await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.webhook(orgId, webhookId),
        UpdateExpression: 'SET failing_since = if_not_exists(failing_since, :now)',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':now': now },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return typeof Attributes?.failing_since === 'string' ? Attributes.failing_since : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined; // deleted meanwhile
    throw error;
  }
}

/** Notes a successful attempt: whatever failed before no longer counts. */
export async function clearWebhookFailing(db: TableContext, orgId: string, webhookId: string): Promise<void> {
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.webhook(orgId, webhookId),
        UpdateExpression: 'REMOVE failing_since',
        ConditionExpression: 'attribute_exists(PK)',
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * Disables an endpoint that has been failing since at or before `cutoff`, stamped (by the
 * service): true when this call disabled it; false when it was already disabled, was
 * re-enabled or succeeded meanwhile, or is gone.
 */
export async function disableFailingWebhook(
  db: TableContext,
  orgId: string,
  webhookId: string,
  cutoff: string,
  now: string,
): Promise<boolean> {
  return appliedUnlessConditionFails(
    db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.webhook(orgId, webhookId),
        UpdateExpression: 'SET enabled = :false, disabled_reason = :failing, updated_at = :now, last_change = :stamp',
        ConditionExpression: 'enabled = :true AND failing_since <= :cutoff',
        ExpressionAttributeValues: {
          ':false': false,
          ':true': true,
          ':failing': 'failing',
          ':now': now,
          ':cutoff': cutoff,
          ':stamp': changeStamp().last_change,
        },
      }),
    ),
  );
}
