import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { keys } from './keys';
import { queryAll } from './query-all';
import { isConditionFailure } from './transactions';
import { listWebhooks } from './webhooks';

/**
 * Webhook deliveries keep the event they send (`payload`) until their TTL. The invitation events
 * carry the invitee's email, so an erasure redacts it in the organization's stored deliveries:
 * found by a filter on each endpoint's partition (at most 10 endpoints, 30 days of deliveries),
 * rewritten only while the payload is the one read. Answers how many it rewrote.
 */
export async function redactDeliveryPayloads(db: TableContext, orgId: string, text: string, replacement: string): Promise<number> {
  let rewritten = 0;
  for (const webhook of await listWebhooks(db, orgId)) {
    const items = await queryAll(db, {
      TableName: db.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      FilterExpression: 'contains(payload, :text)',
      ExpressionAttributeValues: {
        ':pk': keys.deliveries(orgId, webhook.id).PK,
        ':prefix': keys.deliveries(orgId, webhook.id).SKPrefix,
        ':text': text,
      },
      ProjectionExpression: 'PK, SK, payload',
    });
    for (const item of items) {
      const payload = String(item.payload);
      try {
        await db.client.send(
          new UpdateCommand({
            TableName: db.tableName,
            Key: { PK: item.PK, SK: item.SK },
            UpdateExpression: 'SET payload = :redacted',
            ConditionExpression: 'payload = :read',
            ExpressionAttributeValues: { ':redacted': payload.split(text).join(replacement), ':read': payload },
          }),
        );
        rewritten++;
      } catch (error) {
        // Gone by TTL, or rewritten by a previous run of the same step: nothing left to redact in it.
        if (!isConditionFailure(error)) throw error;
      }
    }
  }
  return rewritten;
}
