import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { templateFromItem, templateItem, type TemplateRecord } from './template-items';
import { keys } from './keys';
import { markDerivedIndexComplete } from './organizations';
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
 * the page): each at most about 40 KB, so only for an organization whose templates may not
 * all carry their order keys yet (no `templates_index_at`).
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

/**
 * One page of an organization's templates in List templates' order, and their number, once
 * every template carries its order keys (`templates_index_at`). The number is a COUNT of
 * GSI3, which holds keys only (about 150 bytes a template, 2,000 templates in about 35 read
 * units); the page is read from GSI1 starting at its first template's key, found in GSI3's
 * keys for a page past the first: whatever the page number, the page's own templates and
 * the keys. Page 1 is one round trip (the page beside the count), a later page two.
 */
export async function readTemplatePage(db: TableContext, orgId: string, { offset, limit }: { offset: number; limit: number }): Promise<{ templates: TemplateRecord[]; total: number }> {
  const partition = { ':pk': keys.templateKeysIndex(orgId).GSI3PK };
  if (offset === 0) {
    const [templates, total] = await Promise.all([templatesFrom(db, orgId, undefined, limit), countOf(db, { TableName: db.tableName, IndexName: 'GSI3', KeyConditionExpression: 'GSI3PK = :pk', ExpressionAttributeValues: partition })]);
    return { templates, total };
  }
  const order = await queryAll(db, { TableName: db.tableName, IndexName: 'GSI3', KeyConditionExpression: 'GSI3PK = :pk', ExpressionAttributeValues: partition, ProjectionExpression: 'GSI3SK' });
  const first = order[offset]?.GSI3SK;
  return { templates: typeof first === 'string' ? await templatesFrom(db, orgId, first, limit) : [], total: order.length };
}

/** Up to `limit` templates in order from the one whose order key is `first` (from the first without it): one Query of GSI1. */
async function templatesFrom(db: TableContext, orgId: string, first: string | undefined, limit: number): Promise<TemplateRecord[]> {
  const templates: TemplateRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      new QueryCommand({
        TableName: db.tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: first === undefined ? 'GSI1PK = :pk' : 'GSI1PK = :pk AND GSI1SK >= :first',
        ExpressionAttributeValues: { ':pk': keys.templatesIndex(orgId).GSI1PK, ...(first === undefined ? {} : { ':first': first }) },
        Limit: limit - templates.length,
        ExclusiveStartKey: startKey,
      }),
    );
    templates.push(...(page.Items ?? []).map(templateFromItem));
    startKey = page.LastEvaluatedKey;
  } while (startKey && templates.length < limit);
  return templates;
}

/** How many entries a query matches: COUNT queries, which return no items (a keys-only index keeps what they read small). */
async function countOf(db: TableContext, input: ConstructorParameters<typeof QueryCommand>[0]): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(new QueryCommand({ ...input, Select: 'COUNT', ExclusiveStartKey: startKey }));
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return count;
}

/**
 * Gives every template of an organization its List templates order keys (GSI1's, and GSI3's
 * keys-only entry), for templates written before them, and marks them complete on the
 * organization (`voice-org reindex`, the fixture loader). Reads every template; writes only
 * those whose keys differ, each only while it has the name read (a template renamed or
 * deleted meanwhile was written with its keys, or needs none). A template written by code
 * from before issue 26 while it runs may be missed: run it once that code is gone.
 */
export async function rebuildTemplateOrderKeys(db: TableContext, orgId: string, now: string): Promise<{ templates: number; rewritten: number }> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :template)',
    ExpressionAttributeValues: { ':pk': keys.template(orgId, '').PK, ':template': keys.template(orgId, '').SK },
  });
  let rewritten = 0;
  for (const item of items) {
    const template = templateFromItem(item);
    const wanted: Record<string, string> = { ...keys.templatesIndex(orgId, template.name, template.id), ...keys.templateKeysIndex(orgId, template.name, template.id) };
    if (Object.entries(wanted).every(([name, value]) => item[name] === value)) continue;
    try {
      await db.client.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: keys.template(orgId, template.id),
          UpdateExpression: `SET ${Object.keys(wanted).map((name) => `${name} = :${name}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(PK) AND #name = :name',
          ExpressionAttributeNames: { '#name': 'name' },
          ExpressionAttributeValues: { ':name': template.name, ...Object.fromEntries(Object.entries(wanted).map(([name, value]) => [`:${name}`, value])) },
        }),
      );
      rewritten++;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  await markDerivedIndexComplete(db, orgId, 'templates_index_at', now);
  return { templates: items.length, rewritten };
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
