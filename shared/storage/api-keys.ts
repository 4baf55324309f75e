import { GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  apiKeyFromItem,
  apiKeyItem,
  apiKeySecretFromItem,
  apiKeySecretItem,
  secretRecordOf,
  type ApiKeyRecord,
  type ApiKeySecretRecord,
} from './api-key-items';
import type { TableContext } from './dynamo';
import type { RateLimit } from '../core/rate-limits';
import { keys } from './keys';
import { batchGetAll, queryAll } from './query-all';
import { appliedUnlessConditionFails, commitParts, type TransactionPart } from './transactions';

/** Looks a secret up by its hash: the authorizer's one read for API keys. */
export async function getApiKeySecret(db: TableContext, keyHash: string): Promise<ApiKeySecretRecord | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.apiKeySecret(keyHash) }));
  return Item ? apiKeySecretFromItem(Item) : undefined;
}

/** A key's current secret by the key's id alone (GSI2), for the operator CLI, which knows no organization. */
export async function findApiKeySecretById(db: TableContext, keyId: string): Promise<ApiKeySecretRecord | undefined> {
  const { Items } = await db.client.send(
    new QueryCommand({
      TableName: db.tableName,
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK = :sk',
      ExpressionAttributeValues: { ':pk': keys.apiKeyIdIndex(keyId).GSI2PK, ':sk': 'APIKEY' },
    }),
  );
  const [item] = Items ?? [];
  return item ? apiKeySecretFromItem(item) : undefined;
}

/**
 * One page of the table's current key secrets (each indexed by its key's id in GSI2),
 * optionally of one organization only: a Scan of GSI2, which reads the whole index page by
 * page. Only for the operator's one-time adoption of keys stored before keys were managed
 * (`voice-org key adopt`), never on a request path: nothing else indexes those secrets.
 */
export async function scanCurrentApiKeySecrets(
  db: TableContext,
  { orgId, startKey }: { orgId?: string; startKey?: Record<string, unknown> },
): Promise<{ secrets: ApiKeySecretRecord[]; next?: Record<string, unknown> }> {
  const { Items = [], LastEvaluatedKey } = await db.client.send(
    new ScanCommand({
      TableName: db.tableName,
      IndexName: 'GSI2',
      FilterExpression: `begins_with(GSI2PK, :prefix) AND GSI2SK = :sk${orgId ? ' AND org_id = :org' : ''}`,
      ExpressionAttributeValues: {
        ':prefix': keys.apiKeyIdIndexPrefix,
        ':sk': keys.apiKeyIdIndex('').GSI2SK,
        ...(orgId ? { ':org': orgId } : {}),
      },
      ExclusiveStartKey: startKey,
    }),
  );
  return { secrets: Items.map(apiKeySecretFromItem), next: LastEvaluatedKey };
}

/** Which of these keys have their managed item: their ids. One BatchGetItem per 100. */
export async function managedApiKeyIds(db: TableContext, wanted: { org_id: string; key_id: string }[]): Promise<Set<string>> {
  const items = await batchGetAll(
    db,
    wanted.map((key) => keys.apiKey(key.org_id, key.key_id)),
  );
  return new Set(items.map((item) => String(item.key_id)));
}

/** One managed key of an organization, or undefined. */
export async function getApiKey(db: TableContext, orgId: string, keyId: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.apiKey(orgId, keyId) }));
  return Item ? apiKeyFromItem(Item) : undefined;
}

/** Where a page of keys starts: after the key with this creation time and id (newest first). */
export interface ApiKeyPosition {
  created_at: string;
  key_id: string;
}

/**
 * A page of an organization's keys, newest first: every key, or one member's personal keys.
 * One query of `limit` items (plus one to tell whether more follow).
 */
export async function listApiKeys(
  db: TableContext,
  orgId: string,
  { userId, limit, after }: { userId?: string; limit: number; after?: ApiKeyPosition },
): Promise<{ keys: ApiKeyRecord[]; hasMore: boolean }> {
  const index = userId
    ? { name: 'GSI2', pk: 'GSI2PK', sk: 'GSI2SK', partition: keys.memberApiKeysIndex(orgId, userId).GSI2PK }
    : { name: 'GSI1', pk: 'GSI1PK', sk: 'GSI1SK', partition: keys.apiKeysIndex(orgId).GSI1PK };
  const startKey = after && {
    ...keys.apiKey(orgId, after.key_id),
    [index.pk]: index.partition,
    [index.sk]: `${after.created_at}#${after.key_id}`,
  };
  const { Items = [] } = await db.client.send(
    new QueryCommand({
      TableName: db.tableName,
      IndexName: index.name,
      KeyConditionExpression: `${index.pk} = :pk`,
      ExpressionAttributeValues: { ':pk': index.partition },
      ScanIndexForward: false,
      Limit: limit + 1,
      ExclusiveStartKey: startKey,
    }),
  );
  return { keys: Items.slice(0, limit).map(apiKeyFromItem), hasMore: Items.length > limit };
}

/** Every personal key of a member, revoked ones included (a member has few). */
export async function listMemberApiKeys(db: TableContext, orgId: string, userId: string): Promise<ApiKeyRecord[]> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    IndexName: 'GSI2',
    KeyConditionExpression: 'GSI2PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.memberApiKeysIndex(orgId, userId).GSI2PK },
  });
  return items.map(apiKeyFromItem);
}

/** The parts of a key's transactions: the managed key, its current secret, the secret it replaces, the one before. */
export type ApiKeyPart = 'key' | 'secret' | 'replaced' | 'retired';

/**
 * Stores a new key and its secret in one transaction: a WriteConflict at `secret` when the
 * same secret is already stored, at `key` when the key id is taken.
 */
export async function insertApiKey(db: TableContext, key: ApiKeyRecord): Promise<void> {
  await commitParts<ApiKeyPart>(db, [
    { name: 'key', write: { Put: { TableName: db.tableName, Item: apiKeyItem(key), ConditionExpression: 'attribute_not_exists(PK)' } } },
    {
      name: 'secret',
      write: {
        Put: { TableName: db.tableName, Item: apiKeySecretItem(secretRecordOf(key)), ConditionExpression: 'attribute_not_exists(PK)' },
      },
    },
  ]);
}

/** Stores the managed item of a key whose secret item exists without one (a key the CLI or a fixture stored before keys were managed). */
export async function adoptApiKey(db: TableContext, key: ApiKeyRecord): Promise<void> {
  // Not stamped: nobody created the key now, so its stream record makes no api_key.created event.
  const { last_change: _unstamped, ...item } = apiKeyItem(key);
  await db.client.send(new PutCommand({ TableName: db.tableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' }));
}

/** The managed key's write, only if it is still as it was read: same current secret, not revoked. */
function keyReplacement(db: TableContext, current: ApiKeyRecord, next: ApiKeyRecord): TransactionPart<ApiKeyPart> {
  return {
    name: 'key',
    write: {
      Put: {
        TableName: db.tableName,
        Item: apiKeyItem(next),
        ConditionExpression: 'secret_hash = :current AND attribute_not_exists(revoked_at)',
        ExpressionAttributeValues: { ':current': current.secret_hash },
      },
    },
  };
}

/**
 * Replaces a key's secret with `next.secret_hash`, in one transaction: the new secret is
 * stored, the replaced one works until `next.previous_secret.retires_at` (or is deleted when
 * there is no grace period), and a secret an earlier rotation left in its grace period stops
 * working now. A WriteConflict at `key` when the key was revoked or rotated meanwhile.
 */
export async function rotateApiKeySecret(db: TableContext, current: ApiKeyRecord, next: ApiKeyRecord): Promise<void> {
  const replaced = next.previous_secret;
  const parts: TransactionPart<ApiKeyPart>[] = [
    keyReplacement(db, current, next),
    {
      name: 'secret',
      write: {
        Put: { TableName: db.tableName, Item: apiKeySecretItem(secretRecordOf(next)), ConditionExpression: 'attribute_not_exists(PK)' },
      },
    },
    replaced
      ? {
          name: 'replaced',
          write: {
            Put: { TableName: db.tableName, Item: apiKeySecretItem({ ...secretRecordOf(current), retires_at: replaced.retires_at }) },
          },
        }
      : { name: 'replaced', write: { Delete: { TableName: db.tableName, Key: keys.apiKeySecret(current.secret_hash) } } },
  ];
  if (current.previous_secret)
    parts.push({ name: 'retired', write: { Delete: { TableName: db.tableName, Key: keys.apiKeySecret(current.previous_secret.hash) } } });
  await commitParts(db, parts);
}

/**
 * Revokes a key in one transaction: the managed key and its current secret are marked
 * revoked (the secret item stays, so a fixture cannot bring it back), a secret still in its
 * grace period is deleted. A WriteConflict at `key` when it was revoked or rotated meanwhile.
 */
export async function revokeApiKeySecrets(db: TableContext, current: ApiKeyRecord, next: ApiKeyRecord): Promise<void> {
  const parts: TransactionPart<ApiKeyPart>[] = [
    keyReplacement(db, current, next),
    {
      name: 'secret',
      write: {
        Update: {
          TableName: db.tableName,
          Key: keys.apiKeySecret(current.secret_hash),
          UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :now)',
          ExpressionAttributeValues: { ':now': next.revoked_at },
        },
      },
    },
  ];
  if (current.previous_secret)
    parts.push({ name: 'retired', write: { Delete: { TableName: db.tableName, Key: keys.apiKeySecret(current.previous_secret.hash) } } });
  await commitParts(db, parts);
}

/**
 * Gives a key its own rate limit, or removes it (null), in one transaction: the managed key and
 * each secret that still works (the current one, and a replaced one in its grace period), since
 * the authorizer reads the limit from the secret. A WriteConflict at `key` when the key was
 * revoked or rotated meanwhile.
 */
export async function setApiKeyRateLimit(db: TableContext, current: ApiKeyRecord, next: ApiKeyRecord, now: Date): Promise<void> {
  const limitOf = (keyHash: string, name: ApiKeyPart): TransactionPart<ApiKeyPart> => ({
    name,
    write: { Update: secretRateLimitUpdate(db, keyHash, next.rate_limit) },
  });
  const parts = [keyReplacement(db, current, next), limitOf(current.secret_hash, 'secret')];
  const replaced = current.previous_secret;
  if (replaced && Date.parse(replaced.retires_at) > now.getTime()) parts.push(limitOf(replaced.hash, 'replaced'));
  await commitParts(db, parts);
}

/** Gives a secret that has no managed key (an operator key stored before keys were managed) its own rate limit, or removes it. */
export async function setApiKeySecretRateLimit(db: TableContext, keyHash: string, limit: RateLimit | null): Promise<void> {
  await db.client.send(new UpdateCommand(secretRateLimitUpdate(db, keyHash, limit)));
}

/** The write of an existing secret's own rate limit (REMOVE for null), alone or in a key's transaction. */
function secretRateLimitUpdate(db: TableContext, keyHash: string, limit: RateLimit | null) {
  return {
    TableName: db.tableName,
    Key: keys.apiKeySecret(keyHash),
    UpdateExpression: limit ? 'SET rate_limit = :limit' : 'REMOVE rate_limit',
    ConditionExpression: 'attribute_exists(PK)',
    ...(limit ? { ExpressionAttributeValues: { ':limit': limit } } : {}),
  };
}

/** Marks a secret revoked that has no managed key (an operator key stored before keys were managed). */
export async function markApiKeySecretRevoked(db: TableContext, keyHash: string, now: string): Promise<void> {
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.apiKeySecret(keyHash),
      UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :now)',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':now': now },
    }),
  );
}

/**
 * Records that a key was used, unless it already was since `staleBefore`: one conditional
 * write, which fails (and is ignored) when the use is already recorded or the key has no
 * managed item. It is not stamped: a use is not a change anyone made.
 */
export async function recordApiKeyUse(
  db: TableContext,
  orgId: string,
  keyId: string,
  usedAt: string,
  staleBefore: string,
): Promise<boolean> {
  return appliedUnlessConditionFails(
    db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.apiKey(orgId, keyId),
        UpdateExpression: 'SET last_used_at = :now',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(last_used_at) OR last_used_at < :stale)',
        ExpressionAttributeValues: { ':now': usedAt, ':stale': staleBefore },
      }),
    ),
  );
}
