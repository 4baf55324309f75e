import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isScope, type Scope } from '../auth/access';
import type { TableContext } from './dynamo';
import { itemFields } from './item-fields';
import { keys } from './keys';

/** A stored API key. Only the SHA-256 hash of the secret is kept; the plaintext is shown once. */
export interface ApiKeyRecord {
  key_id: string;
  key_hash: string;
  org_id: string;
  /** Present on personal keys (pk_user_...), absent on organization keys. */
  user_id?: string;
  scopes: Scope[];
  created_at: string;
  revoked_at?: string;
}

/**
 * Reads a stored API key. Organization keys have no `user_id`, live keys no `revoked_at`.
 * A scope this code no longer knows grants nothing, so it is dropped rather than refused:
 * the key keeps working with the scopes it still has.
 */
export function apiKeyFromItem(item: Record<string, unknown>): ApiKeyRecord {
  const field = itemFields(item, 'API key');
  return {
    key_id: field.string('key_id'),
    key_hash: field.string('key_hash'),
    org_id: field.string('org_id'),
    user_id: field.optionalString('user_id'),
    scopes: field.stringList('scopes').filter(isScope),
    created_at: field.string('created_at'),
    revoked_at: field.optionalString('revoked_at'),
  };
}

/** Looks a key up by the hash of its secret: the authorizer's one read for API keys. */
export async function getApiKeyByHash(db: TableContext, keyHash: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.apiKey(keyHash) }));
  return Item ? apiKeyFromItem(Item) : undefined;
}

/** Looks a key up by its public id (revocation), through GSI2. */
export async function getApiKeyById(db: TableContext, keyId: string): Promise<ApiKeyRecord | undefined> {
  const { Items } = await db.client.send(
    new QueryCommand({
      TableName: db.tableName,
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK = :sk',
      ExpressionAttributeValues: { ':pk': keys.apiKeyIdIndex(keyId).GSI2PK, ':sk': 'APIKEY' },
    }),
  );
  const [item] = Items ?? [];
  return item ? apiKeyFromItem(item) : undefined;
}

/** Stores a new key; fails with ConditionalCheckFailed if the same secret is already stored. */
export async function insertApiKey(db: TableContext, record: ApiKeyRecord): Promise<void> {
  await db.client.send(
    new PutCommand({
      TableName: db.tableName,
      Item: { ...keys.apiKey(record.key_hash), ...keys.apiKeyIdIndex(record.key_id), ...record },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

/** Marks a stored key revoked; a key revoked before keeps its first revocation time. */
export async function markApiKeyRevoked(db: TableContext, keyHash: string, now: string): Promise<void> {
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.apiKey(keyHash),
      UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :now)',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':now': now },
    }),
  );
}
