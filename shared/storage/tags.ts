import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { itemFields } from './item-fields';
import { keys } from './keys';
import { batchGetAll } from './query-all';

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

/** Maps a stored tag item (StoredItemError when it lacks a field it needs). */
export function tagFromItem(item: Record<string, unknown>): Tag {
  const fields = itemFields(item, 'tag');
  return {
    tag_id: fields.string('tag_id'),
    org_id: fields.string('org_id'),
    user_id: fields.string('user_id'),
    name: fields.string('name'),
    color: fields.string('color'),
    created_at: fields.string('created_at'),
    updated_at: fields.string('updated_at'),
  };
}

/** One tag of an organization, or undefined. */
export async function getTag(db: TableContext, orgId: string, tagId: string): Promise<Tag | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.tag(orgId, tagId) }));
  return Item ? tagFromItem(Item) : undefined;
}

/** The tags of an organization with these ids, in one BatchGetItem per 100 ids; unknown ids are left out. */
export async function getTags(db: TableContext, orgId: string, tagIds: string[]): Promise<Tag[]> {
  if (!tagIds.length) return [];
  return (
    await batchGetAll(
      db,
      tagIds.map((id) => keys.tag(orgId, id)),
    )
  ).map(tagFromItem);
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
