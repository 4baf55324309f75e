import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { templateFromItem, templateItem, type TemplateRecord } from './template-items';
import { keys } from './keys';
import { queryAll } from './query-all';
import { tombstonePart } from './tombstones';
import { commitParts, isConditionFailure, WriteConflict } from './transactions';

export * from './template-items';

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
