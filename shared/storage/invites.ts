import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '../auth/access';
import type { TableContext } from './dynamo';
import { keys, withoutKeys } from './keys';
import { queryAll } from './query-all';
import { TABLE } from './table-definition';

/** Stored invite states; `expired` is derived (pending past expires_at). */
export type StoredInviteStatus = 'pending' | 'accepted' | 'revoked';

export interface InviteRecord {
  id: string;
  org_id: string;
  email: string;
  role: Role;
  status: StoredInviteStatus;
  created_at: string;
  updated_at: string;
  expires_at: string;
  invited_by: string;
  token_hash: string;
  accepted_at?: string;
  accepted_by?: string;
  revoked_at?: string;
}

/** Epoch seconds for the TTL attribute: DynamoDB removes the item some time after. */
export const ttlOf = (isoTimestamp: string) => ({ [TABLE.ttlAttribute]: Math.floor(Date.parse(isoTimestamp) / 1000) });

/** The invite item; pending and revoked invites expire from the table, accepted ones stay. */
export function inviteItem(invite: InviteRecord) {
  return {
    ...keys.invite(invite.org_id, invite.id),
    ...keys.invitesIndex(invite.org_id, invite.created_at, invite.id),
    ...invite,
    ...(invite.status === 'accepted' ? {} : ttlOf(invite.expires_at)),
  };
}

/**
 * Transaction part that writes an invite's next state, only if it is still pending with the
 * token it was read with (so revoke, resend and accept cannot both win).
 */
export function replacePendingInvite(db: TableContext, next: InviteRecord, readTokenHash: string) {
  return {
    Put: {
      TableName: db.tableName,
      Item: inviteItem(next),
      ConditionExpression: '#status = :pending AND token_hash = :hash',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pending': 'pending', ':hash': readTokenHash },
    },
  };
}

export function tokenItem(invite: InviteRecord) {
  return { ...keys.inviteToken(invite.token_hash), org_id: invite.org_id, invite_id: invite.id, ...ttlOf(invite.expires_at) };
}

export function emailGuardItem(invite: InviteRecord) {
  return { ...keys.inviteEmailGuard(invite.org_id, invite.email), invite_id: invite.id, expires_at: invite.expires_at, ...ttlOf(invite.expires_at) };
}

export async function getInvite(db: TableContext, orgId: string, inviteId: string): Promise<InviteRecord | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.invite(orgId, inviteId) }));
  return Item ? fromItem(Item) : undefined;
}

/** The invite a token opens, if the token is current. */
export async function findInviteByTokenHash(db: TableContext, tokenHash: string): Promise<InviteRecord | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.inviteToken(tokenHash), ConsistentRead: true }));
  if (!Item) return undefined;
  const invite = await getInvite(db, Item.org_id as string, Item.invite_id as string);
  // A token replaced by a resend opens nothing.
  return invite?.token_hash === tokenHash ? invite : undefined;
}

export async function getEmailGuard(db: TableContext, orgId: string, email: string): Promise<{ invite_id: string; expires_at: string } | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.inviteEmailGuard(orgId, email) }));
  return Item as { invite_id: string; expires_at: string } | undefined;
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
  return items.map(fromItem);
}

function fromItem(item: Record<string, unknown>): InviteRecord {
  const { [TABLE.ttlAttribute]: _ttl, ...rest } = withoutKeys(item);
  return rest as unknown as InviteRecord;
}
