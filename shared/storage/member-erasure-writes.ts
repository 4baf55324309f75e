import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { listMemberApiKeys } from './api-keys';
import type { TableContext } from './dynamo';
import { listInvites } from './invites';
import { itemFields } from './item-fields';
import { keys } from './keys';
import { commitWithMemberSearch, memberSearchChangeOf } from './member-search';
import type { Membership } from './membership-items';
import { getMembership, listMembershipsOfUser } from './memberships';
import { activeMemberCountChange } from './organizations';
import { batchWriteAll, queryAll } from './query-all';
import type { TransactionPart } from './transactions';
import { getUser } from './users';

/**
 * What an erasure removes of a member, found by key or index (never a Scan) and deleted by
 * key. Every function here is idempotent: run again, it finds less or nothing and deletes that.
 */

type Key = { PK: string; SK: string };
const keyOf = (item: Record<string, unknown>): Key => ({ PK: String(item.PK), SK: String(item.SK) });

/** Deletes items by key, 25 at a time (BatchWriteItem, unprocessed ones resent); absent ones are no error. */
export async function deleteByKeys(db: TableContext, itemKeys: readonly Key[]): Promise<number> {
  await batchWriteAll(
    db,
    itemKeys.map((Key) => ({ DeleteRequest: { Key } })),
  );
  return itemKeys.length;
}

/** The member's recordings in the organization, live and in the trash (GSI2 of the recorder), by id. */
export async function memberRecordingIds(db: TableContext, orgId: string, userId: string): Promise<string[]> {
  const bins = await Promise.all(
    (['LIVE', 'TRASH'] as const).map((bin) =>
      queryAll(db, {
        TableName: db.tableName,
        IndexName: 'GSI2',
        KeyConditionExpression: 'GSI2PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.recorderRecordingsIndex(orgId, userId, bin).GSI2PK },
        ProjectionExpression: '#id',
        ExpressionAttributeNames: { '#id': 'id' },
      }),
    ),
  );
  return bins.flat().map((item) => itemFields(item, 'recording').string('id'));
}

/** The member's settings, profile, profile versions and preferences: one Query of `MEMBER#<user>#…` in the organization's partition. */
export async function memberSettingsKeys(db: TableContext, orgId: string, userId: string): Promise<Key[]> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.organization(orgId).PK, ':prefix': `${keys.membership(orgId, userId).SK}#` },
    ProjectionExpression: 'PK, SK',
  });
  return items.map(keyOf);
}

/** The member's tags (GSI1 of the member's tags) and their link partitions (left empty once the member's recordings are gone). */
export async function memberTagKeys(db: TableContext, orgId: string, userId: string): Promise<{ tags: Key[]; links: Key[] }> {
  const tags = await queryAll(db, {
    TableName: db.tableName,
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.memberTagsIndex(orgId, userId).GSI1PK },
    ProjectionExpression: 'PK, SK, tag_id',
  });
  const links = await Promise.all(
    tags.map((tag) =>
      queryAll(db, {
        TableName: db.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.recordingTagLink(orgId, itemFields(tag, 'tag').string('tag_id')).PK },
        ProjectionExpression: 'PK, SK',
      }),
    ),
  );
  return { tags: tags.map(keyOf), links: links.flat().map(keyOf) };
}

/** The member's personal keys: each managed key item with its current secret and a grace-period one. */
export async function memberApiKeyKeys(db: TableContext, orgId: string, userId: string): Promise<{ keyCount: number; items: Key[] }> {
  const memberKeys = await listMemberApiKeys(db, orgId, userId);
  const items = memberKeys.flatMap((key) => [
    keys.apiKey(orgId, key.key_id),
    keys.apiKeySecret(key.secret_hash),
    ...(key.previous_secret ? [keys.apiKeySecret(key.previous_secret.hash)] : []),
  ]);
  return { keyCount: memberKeys.length, items };
}

/**
 * The organization's invitations to an email, whatever their status (an accepted one keeps
 * the address too), with their token lookups and the email guard: the invites index holds
 * the organization's invitations (pending and revoked ones leave by TTL), read whole.
 */
export async function invitationKeys(db: TableContext, orgId: string, email: string): Promise<{ inviteCount: number; items: Key[] }> {
  const invites = (await listInvites(db, orgId)).filter((invite) => invite.email.toLowerCase() === email.toLowerCase());
  const items = invites.flatMap((invite) => [
    keys.invite(orgId, invite.id),
    ...(invite.token_hash ? [keys.inviteToken(invite.token_hash)] : []),
  ]);
  if (invites.length) items.push(keys.inviteEmailGuard(orgId, email.toLowerCase()));
  return { inviteCount: invites.length, items };
}

/** A member's exports (their partition; the files are the caller's to delete under their prefix). */
export async function memberExportKeys(db: TableContext, orgId: string, userId: string): Promise<Key[]> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.memberExport(orgId, userId).PK },
    ProjectionExpression: 'PK, SK',
  });
  return items.map(keyOf);
}

/**
 * Deletes a membership for good, whatever its status: the item (and so its GSI1 and GSI2
 * entries), the organization's active member count when it was active, and its member search
 * entry, in one transaction conditioned on the membership as read. Answers 0 when none was left.
 */
export async function deleteMembershipForGood(db: TableContext, orgId: string, userId: string, now: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const current = await getMembership(db, orgId, userId, { consistent: true });
    if (!current) return 0;
    try {
      await commitWithMemberSearch(db, membershipDeletionParts(db, current, now), [
        memberSearchChangeOf({ ...current, status: 'removed' }),
      ]);
      return 1;
    } catch (error) {
      if (attempt >= 5) throw error;
    }
  }
}

function membershipDeletionParts(db: TableContext, current: Membership, now: string): TransactionPart<'membership' | 'organization'>[] {
  return [
    {
      name: 'membership',
      write: {
        Delete: {
          TableName: db.tableName,
          Key: keys.membership(current.org_id, current.user_id),
          ConditionExpression: '#status = :status AND updated_at = :updated',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': current.status, ':updated': current.updated_at },
        },
      },
    },
    ...(current.status === 'active'
      ? [{ name: 'organization' as const, write: activeMemberCountChange(db, current.org_id, -1, now) }]
      : []),
  ];
}

/** What is left of a user once no membership of theirs is: the user item (with its email) and their identity links. */
export interface UserRemains {
  email: string | undefined;
  links: Key[];
}

/**
 * The user's own items, once no membership of the user is left anywhere (undefined while they
 * are a member of an organization): the identity links (GSI2 of the user) and the user item,
 * whose email names the email guard.
 */
export async function userRemains(db: TableContext, userId: string): Promise<UserRemains | undefined> {
  if ((await listMembershipsOfUser(db, userId)).length) return undefined;
  const links = await queryAll(db, {
    TableName: db.tableName,
    IndexName: 'GSI2',
    KeyConditionExpression: 'GSI2PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.userIdentitiesIndex(userId).GSI2PK },
    ProjectionExpression: 'PK, SK',
  });
  return { email: (await getUser(db, userId))?.email, links: links.map(keyOf) };
}

/** Deletes the user's items: identity links, the email guard (only while it names this user), then the user item. */
export async function deleteUserRemains(db: TableContext, userId: string, remains: UserRemains): Promise<void> {
  await deleteByKeys(db, remains.links);
  if (remains.email !== undefined) await deleteIf(db, keys.userEmail(remains.email), 'user_id = :user', { ':user': userId });
  await deleteIf(db, keys.user(userId), 'attribute_exists(PK)', {});
}

/** Deletes one item under a condition; 0 when the condition does not hold (someone else's item, or gone). */
async function deleteIf(db: TableContext, Key: Key, condition: string, values: Record<string, unknown>): Promise<number> {
  try {
    await db.client.send(
      new DeleteCommand({
        TableName: db.tableName,
        Key,
        ConditionExpression: condition,
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
      }),
    );
    return 1;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return 0;
    throw error;
  }
}
