import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { keys, withoutKeys } from './keys';

/** A member's tag, stored in its organization's partition so recordings can check tag ids by key. */
export interface Tag {
  tag_id: string;
  org_id: string;
  user_id: string;
  name: string;
  /** Hex colour, e.g. #1f77b4. */
  color: string;
  created_at: string;
  updated_at: string;
}

export async function getTag(db: TableContext, orgId: string, tagId: string): Promise<Tag | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.tag(orgId, tagId) }));
  return Item ? (withoutKeys(Item) as Tag) : undefined;
}

/** Writes a tag whole (create or replace). */
export async function putTag(db: TableContext, tag: Tag): Promise<void> {
  await db.client.send(
    new PutCommand({
      TableName: db.tableName,
      Item: { ...keys.tag(tag.org_id, tag.tag_id), ...keys.memberTagsIndex(tag.org_id, tag.user_id, tag.name, tag.tag_id), ...tag },
    }),
  );
}
