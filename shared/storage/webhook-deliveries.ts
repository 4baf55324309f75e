import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryStatus } from '../schemas/webhooks';
import type { TableContext } from './dynamo';
import { keys } from './keys';
import { isConditionFailure, WriteConflict } from './transactions';
import { deliveryFromItem, deliveryItem, type DeliveryRecord } from './webhook-items';

/**
 * Webhook deliveries: one item per event and endpoint, under the endpoint's own partition.
 * The dispatcher claims a delivery for one attempt at a time (a lease), so two copies of
 * its queued message never send it at once.
 */

/** A delivery, or undefined. */
export async function getDelivery(
  db: TableContext,
  orgId: string,
  webhookId: string,
  deliveryId: string,
): Promise<DeliveryRecord | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.delivery(orgId, webhookId, deliveryId) }));
  return Item ? deliveryFromItem(Item) : undefined;
}

/**
 * Writes a new delivery once: its id is fixed by the event and the endpoint, so an event
 * fanned out twice finds it there. Returns false for such a duplicate.
 */
export async function insertDeliveryOnce(db: TableContext, delivery: DeliveryRecord, expiresAtEpoch: number): Promise<boolean> {
  try {
    await db.client.send(
      new PutCommand({
        TableName: db.tableName,
        Item: deliveryItem(delivery, expiresAtEpoch),
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** A page of one endpoint's deliveries, newest first, and the id to continue after when there may be more. */
export async function queryDeliveries(
  db: TableContext,
  query: { orgId: string; webhookId: string; status?: DeliveryStatus; limit: number; after?: string },
): Promise<{ deliveries: DeliveryRecord[]; last?: string }> {
  const { orgId, webhookId, status, limit, after } = query;
  const input = status
    ? {
        IndexName: 'GSI1',
        KeyConditionExpression: after ? 'GSI1PK = :pk AND GSI1SK < :after' : 'GSI1PK = :pk',
        ExpressionAttributeValues: {
          ':pk': keys.deliveriesByStatus(orgId, webhookId, status).GSI1PK,
          ...(after ? { ':after': after } : {}),
        },
      }
    : {
        // The partition holds deliveries only: below the last id read is the rest of the list.
        KeyConditionExpression: after ? 'PK = :pk AND SK < :before' : 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: {
          ':pk': keys.deliveries(orgId, webhookId).PK,
          ...(after ? { ':before': keys.delivery(orgId, webhookId, after).SK } : { ':prefix': keys.deliveries(orgId, webhookId).SKPrefix }),
        },
      };
  // One more than the page tells whether another page follows, at the cost of one item.
  const { Items = [] } = await db.client.send(
    new QueryCommand({ TableName: db.tableName, ...input, ScanIndexForward: false, Limit: limit + 1 }),
  );
  const deliveries = Items.slice(0, limit).map(deliveryFromItem);
  return { deliveries, ...(Items.length > limit ? { last: deliveries[deliveries.length - 1].id } : {}) };
}

/**
 * Puts a delivery back to pending for an attempt now, under a new dispatch id (its change is
 * the stream's cue). A WriteConflict at `delivery` when it is gone or an attempt holds it.
 */
export async function requestDeliveryRetry(
  db: TableContext,
  delivery: DeliveryRecord,
  dispatchId: string,
  now: string,
): Promise<DeliveryRecord> {
  try {
    const { Attributes } = await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.delivery(delivery.org_id, delivery.webhook_id, delivery.id),
        UpdateExpression: 'SET #status = :pending, GSI1PK = :index, dispatch_id = :dispatch, next_attempt_at = :now',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(lease) OR lease.#until < :now)',
        ExpressionAttributeNames: { '#status': 'status', '#until': 'until' },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':index': keys.deliveriesByStatus(delivery.org_id, delivery.webhook_id, 'pending').GSI1PK,
          ':dispatch': dispatchId,
          ':now': now,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return deliveryFromItem(Attributes ?? {});
  } catch (error) {
    if (isConditionFailure(error)) throw new WriteConflict(['delivery'], { cause: error });
    throw error;
  }
}

/** Why a delivery could not be claimed for an attempt. */
export type ClaimRefusal = 'gone' | 'stale' | 'settled' | 'leased';

/**
 * Claims a delivery for one attempt under this dispatch: it must still be pending under the
 * same dispatch id, and no other attempt may hold it. Returns the claimed delivery, or why not.
 */
export async function claimDelivery(
  db: TableContext,
  ref: { orgId: string; webhookId: string; deliveryId: string; dispatchId: string },
  lease: { token: string; until: string },
  now: string,
): Promise<{ delivery: DeliveryRecord } | { refused: ClaimRefusal; leasedUntil?: string }> {
  const key = keys.delivery(ref.orgId, ref.webhookId, ref.deliveryId);
  try {
    const { Attributes } = await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: key,
        UpdateExpression: 'SET lease = :lease',
        ConditionExpression: 'dispatch_id = :dispatch AND #status = :pending AND (attribute_not_exists(lease) OR lease.#until < :now)',
        ExpressionAttributeNames: { '#status': 'status', '#until': 'until' },
        ExpressionAttributeValues: { ':lease': lease, ':dispatch': ref.dispatchId, ':pending': 'pending', ':now': now },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { delivery: deliveryFromItem(Attributes ?? {}) };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const current = await getDelivery(db, ref.orgId, ref.webhookId, ref.deliveryId);
    if (!current) return { refused: 'gone' };
    if (current.dispatch_id !== ref.dispatchId) return { refused: 'stale' };
    if (current.status !== 'pending') return { refused: 'settled' };
    return { refused: 'leased', leasedUntil: current.lease?.until };
  }
}

/** What one attempt changed: its outcome, and the delivery's status after it. */
export interface AttemptRecord {
  status: DeliveryStatus;
  attemptedAt: string;
  nextAttemptAt: string | null;
  responseStatus: number | null;
  responseMs: number | null;
  error: DeliveryRecord['error'];
}

/**
 * Records an attempt and releases the lease, if this attempt still holds it; false when it
 * no longer does (it outlived its lease and another attempt took over). `counted: false`
 * settles the delivery without a request (its endpoint was disabled): no attempt is added.
 */
export async function recordAttempt(
  db: TableContext,
  delivery: DeliveryRecord,
  leaseToken: string,
  attempt: AttemptRecord,
  { counted = true } = {},
): Promise<boolean> {
  const outcome = counted ? ', attempts = attempts + :one, last_attempt_at = :at, response_status = :code, response_ms = :ms' : '';
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.delivery(delivery.org_id, delivery.webhook_id, delivery.id),
        UpdateExpression: `SET #status = :status, GSI1PK = :index, next_attempt_at = :next, #error = :error${outcome} REMOVE lease`,
        ConditionExpression: 'lease.#token = :token',
        ExpressionAttributeNames: { '#status': 'status', '#error': 'error', '#token': 'token' },
        ExpressionAttributeValues: {
          ':status': attempt.status,
          ':index': keys.deliveriesByStatus(delivery.org_id, delivery.webhook_id, attempt.status).GSI1PK,
          ':next': attempt.nextAttemptAt,
          ':error': attempt.error,
          ':token': leaseToken,
          ...(counted ? { ':one': 1, ':at': attempt.attemptedAt, ':code': attempt.responseStatus, ':ms': attempt.responseMs } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
