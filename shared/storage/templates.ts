import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { changeStamp } from './change-stamp';
import { itemFields, StoredItemError } from './item-fields';
import { keys } from './keys';
import { queryAll } from './query-all';
import { tombstonePart } from './tombstones';
import { commitParts, isConditionFailure, WriteConflict } from './transactions';

/** A summarization template shared by every member of its organization. */
export interface TemplateRecord {
  id: string;
  org_id: string;
  name: string;
  description: string;
  sections: { title: string; prompt: string }[];
  created_at: string;
  updated_at: string;
}

/** The table item of a template: its keys, its name-order index keys and its fields (exported for the item-size budget test). */
export const templateItem = (template: TemplateRecord) => ({
  ...keys.template(template.org_id, template.id),
  ...keys.templatesIndex(template.org_id, template.name, template.id),
  ...template,
  ...changeStamp(),
});

/** Maps a stored template item (StoredItemError when it lacks a field it needs). */
export function templateFromItem(item: Record<string, unknown>): TemplateRecord {
  const fields = itemFields(item, 'template');
  return {
    id: fields.string('id'),
    org_id: fields.string('org_id'),
    name: fields.string('name'),
    description: fields.string('description'),
    sections: fields.list('sections').map((section, index) => {
      if (typeof section !== 'object' || section === null || Array.isArray(section)) {
        throw new StoredItemError(`Stored template ${String(item.PK)}|${String(item.SK)}: sections[${index}] is not a map`);
      }
      // The section's own fields, read with the template's keys so an error names the item.
      const sectionFields = itemFields({ ...section, PK: item.PK, SK: item.SK }, `template section ${index}`);
      return { title: sectionFields.string('title'), prompt: sectionFields.string('prompt') };
    }),
    created_at: fields.string('created_at'),
    updated_at: fields.string('updated_at'),
  };
}

/** One template, or undefined. */
export async function getTemplate(db: TableContext, orgId: string, templateId: string): Promise<TemplateRecord | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.template(orgId, templateId) }));
  return Item ? templateFromItem(Item) : undefined;
}

/**
 * Every template of an organization, in index order (the domain orders them exactly and cuts
 * the page). Reads them all: an organization keeps few, each at most about 40 KB.
 */
export async function listTemplates(db: TableContext, orgId: string): Promise<TemplateRecord[]> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.templatesIndex(orgId).GSI1PK },
  });
  return items.map(templateFromItem);
}

/** The one part of a template write: the template item, whose condition says whether it exists. */
export type TemplatePart = 'template';

/** Sends a conditional write; a failed condition becomes a WriteConflict naming the template. */
async function conditionally(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (isConditionFailure(error)) throw new WriteConflict<TemplatePart>(['template'], { cause: error });
    throw error;
  }
}

/**
 * Writes a new template or replaces one. A WriteConflict at `template` when the template
 * is not as the mode expects: the id is taken (create), or the template is gone (replace).
 */
export async function putTemplate(db: TableContext, template: TemplateRecord, mode: 'create' | 'replace'): Promise<void> {
  await conditionally(() =>
    db.client.send(
      new PutCommand({
        TableName: db.tableName,
        Item: templateItem(template),
        ConditionExpression: mode === 'create' ? 'attribute_not_exists(PK)' : 'attribute_exists(PK)',
      }),
    ),
  );
}

/**
 * Deletes a template, with the tombstone that makes its deletion an event; a WriteConflict
 * at `template` when there is none.
 */
export async function deleteTemplate(db: TableContext, orgId: string, templateId: string, deletedAt: string): Promise<void> {
  await commitParts(db, [
    { name: 'template', write: { Delete: { TableName: db.tableName, Key: keys.template(orgId, templateId), ConditionExpression: 'attribute_exists(PK)' } } },
    tombstonePart(db, { resource: 'template', org_id: orgId, id: templateId, deleted_at: deletedAt }),
  ]);
}
