import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { emailGuardFromItem, inviteFromItem, type InviteEmailGuard, type InviteRecord } from './invite-items';
import { itemFields } from './item-fields';
import { keys } from './keys';
import { queryAll } from './query-all';

/**
 * One invite of an organization, or undefined.
 *
 * @param options.consistent a strongly consistent read: what the last committed write left
 */
export async function getInvite(
  db: TableContext,
  orgId: string,
  inviteId: string,
  options: { consistent?: boolean } = {},
): Promise<InviteRecord | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.invite(orgId, inviteId), ConsistentRead: options.consistent }),
  );
  return Item ? inviteFromItem(Item) : undefined;
}

/** The invite a token opens, if the token is current. */
export async function findInviteByTokenHash(db: TableContext, tokenHash: string): Promise<InviteRecord | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.inviteToken(tokenHash), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  const lookup = itemFields(Item, 'invite token');
  const invite = await getInvite(db, lookup.string('org_id'), lookup.string('invite_id'));
  // A token replaced by a resend opens nothing.
  return invite?.token_hash === tokenHash ? invite : undefined;
}

/** Which invite holds an email's pending slot in an organization, if any (an expired holder included). */
export async function getEmailGuard(db: TableContext, orgId: string, email: string): Promise<InviteEmailGuard | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.inviteEmailGuard(orgId, email) }));
  return Item ? emailGuardFromItem(Item) : undefined;
}

/** Every invite of an organization, newest first (an organization keeps few: see the data model). */
export async function listInvites(db: TableContext, orgId: string): Promise<InviteRecord[]> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.invitesIndex(orgId).GSI1PK },
    ScanIndexForward: false,
  });
  return items.map(inviteFromItem);
}
