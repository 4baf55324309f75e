import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { templateFromItem, templateItem, type TemplateRecord } from './template-items';
import { keys } from './keys';
import { changeStamp } from './change-stamp';
import { markTemplateOrderComplete, templateCountChange, type DefaultTemplateMove } from './organizations';
import { queryAll, queryPage } from './query-all';
import { tombstonePart } from './tombstones';
import { commitParts, isConditionFailure, WriteConflict, type TransactItem, type TransactionPart } from './transactions';

/** One template, or undefined; `consistent` when the read plans a conditional write. */
export async function getTemplate(
  db: TableContext,
  orgId: string,
  templateId: string,
  options: { consistent?: boolean } = {},
): Promise<TemplateRecord | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({
      TableName: db.tableName,
      Key: keys.template(orgId, templateId),
      ...(options.consistent ? { ConsistentRead: true } : {}),
    }),
  );
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
 * One page of an organization's templates in List templates' order, once every template
 * carries its order keys (`templates_index_at`), given their number (the organization's
 * `template_count`): whatever the page number, the page's own templates, plus for a page
 * away from both ends the keys-only index entries (GSI3, about 150 bytes a template) up to
 * its first template from the nearer end. Page 1 and the last page are one Query of GSI1.
 */
export async function readTemplatePage(
  db: TableContext,
  orgId: string,
  { offset, limit, total }: { offset: number; limit: number; total: number },
): Promise<TemplateRecord[]> {
  if (offset === 0) return templatesFrom(db, orgId, undefined, limit);
  if (offset >= total) return [];
  const pageSize = Math.min(limit, total - offset);
  const fromEnd = total - offset - pageSize;
  if (fromEnd === 0) return (await templatesFrom(db, orgId, undefined, pageSize, true)).reverse();
  const first = await orderKeyAt(db, orgId, offset, total);
  return first === undefined ? [] : templatesFrom(db, orgId, first, limit);
}

/** The order key of the template at `offset`, read from GSI3's keys from the nearer end (undefined when the index holds fewer). */
async function orderKeyAt(db: TableContext, orgId: string, offset: number, total: number): Promise<string | undefined> {
  const fromStart = offset < total - offset;
  const wanted = fromStart ? offset + 1 : total - offset;
  const entries = await queryPage(
    db,
    {
      TableName: db.tableName,
      IndexName: 'GSI3',
      KeyConditionExpression: 'GSI3PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.templateKeysIndex(orgId).GSI3PK },
      ProjectionExpression: 'GSI3SK',
      ScanIndexForward: fromStart,
    },
    { offset: 0, limit: wanted },
  );
  const key = entries.length === wanted ? entries[wanted - 1].GSI3SK : undefined;
  return typeof key === 'string' ? key : undefined;
}

/** Up to `limit` templates in order from the one whose order key is `first` (from the first without it), or backwards from the last: one Query of GSI1. */
async function templatesFrom(
  db: TableContext,
  orgId: string,
  first: string | undefined,
  limit: number,
  backwards = false,
): Promise<TemplateRecord[]> {
  const items = await queryPage(
    db,
    {
      TableName: db.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: first === undefined ? 'GSI1PK = :pk' : 'GSI1PK = :pk AND GSI1SK >= :first',
      ExpressionAttributeValues: { ':pk': keys.templatesIndex(orgId).GSI1PK, ...(first === undefined ? {} : { ':first': first }) },
      ScanIndexForward: !backwards,
    },
    { offset: 0, limit },
  );
  return items.map(templateFromItem);
}

/**
 * Gives every template of an organization its List templates order keys (GSI1's, and GSI3's
 * keys-only entry), for templates written before them, and marks them complete on the
 * organization (`voice-org reindex`, the fixture loader). Reads every template; writes only
 * those whose keys differ, each only while it has the name read (a template renamed or
 * deleted meanwhile was written with its keys, or needs none). A template written by code
 * from before the name-order keys while it runs may be missed: run it once that code is gone.
 */
export async function rebuildTemplateOrderKeys(
  db: TableContext,
  orgId: string,
  now: string,
): Promise<{ templates: number; rewritten: number }> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :template)',
    ExpressionAttributeValues: { ':pk': keys.template(orgId, '').PK, ':template': keys.template(orgId, '').SK },
  });
  let rewritten = 0;
  for (const item of items) {
    const template = templateFromItem(item);
    const wanted: Record<string, string> = {
      ...keys.templatesIndex(orgId, template.name, template.id),
      ...keys.templateKeysIndex(orgId, template.name, template.id),
    };
    if (Object.entries(wanted).every(([name, value]) => item[name] === value)) continue;
    try {
      await db.client.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: keys.template(orgId, template.id),
          UpdateExpression: `SET ${Object.keys(wanted)
            .map((name) => `${name} = :${name}`)
            .join(', ')}`,
          ConditionExpression: 'attribute_exists(PK) AND #name = :name',
          ExpressionAttributeNames: { '#name': 'name' },
          ExpressionAttributeValues: {
            ':name': template.name,
            ...Object.fromEntries(Object.entries(wanted).map(([name, value]) => [`:${name}`, value])),
          },
        }),
      );
      rewritten++;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  await markTemplateOrderComplete(db, orgId, now, items.length);
  return { templates: items.length, rewritten };
}

/**
 * The parts of a template write: the template item, whose condition says whether it exists (and is or is not
 * the default, as read), the organization (its count, its default) and the default it replaces.
 */
export type TemplatePart = 'template' | 'organization' | 'previousDefault';

/** The condition that the template item is the default, or is not, as it was read. */
const defaultAsRead = (isDefault: boolean | undefined) =>
  isDefault
    ? { condition: 'is_default = :isDefault', values: { ':isDefault': true } }
    : { condition: '(attribute_not_exists(is_default) OR is_default = :isDefault)', values: { ':isDefault': false } };

/**
 * Writes a new template or replaces one, and moves the organization's default when
 * `defaultMove` says so. A WriteConflict names what was not as read:
 * - `template`: the id is taken (create), or the template is gone or became or stopped being
 *   the default meanwhile (replace; `wasDefault` is what was read);
 * - `organization`: the organization does not exist, or its default is no longer `from`;
 * - `previousDefault`: the template that was the default is gone or no longer it.
 * A new template moves the organization's count in the same transaction; the template that
 * stops being the default is written with `is_default: false` in it too, so at most one is
 * the default whatever runs at once.
 */
export async function putTemplate(
  db: TableContext,
  template: TemplateRecord,
  mode: 'create' | 'replace',
  { wasDefault, defaultMove }: { wasDefault?: boolean; defaultMove?: DefaultTemplateMove } = {},
): Promise<void> {
  const asRead = defaultAsRead(wasDefault);
  const condition =
    mode === 'create'
      ? { ConditionExpression: 'attribute_not_exists(PK)' }
      : { ConditionExpression: `attribute_exists(PK) AND ${asRead.condition}`, ExpressionAttributeValues: asRead.values };
  const put = { TableName: db.tableName, Item: templateItem(template), ...condition };
  if (mode === 'replace' && !defaultMove) {
    try {
      await db.client.send(new PutCommand(put));
    } catch (error) {
      if (isConditionFailure(error)) throw new WriteConflict<TemplatePart>(['template'], { cause: error });
      throw error;
    }
    return;
  }
  const parts: TransactionPart<TemplatePart>[] = [
    { name: 'template', write: { Put: put } },
    { name: 'organization', write: templateCountChange(db, template.org_id, mode === 'create' ? 1 : 0, defaultMove) },
  ];
  const previous = defaultMove?.from;
  if (previous !== undefined && previous !== template.id)
    parts.push({ name: 'previousDefault', write: noLongerDefault(db, template.org_id, previous, template.updated_at) });
  await commitParts<TemplatePart>(db, parts);
}

/** The write that makes a template stop being the default (its change is an event: `template.updated`, `is_default`). */
function noLongerDefault(db: TableContext, orgId: string, templateId: string, now: string): TransactItem {
  return {
    Update: {
      TableName: db.tableName,
      Key: keys.template(orgId, templateId),
      UpdateExpression: 'SET is_default = :false, updated_at = :now, last_change = :stamp',
      ConditionExpression: 'attribute_exists(PK) AND is_default = :true',
      ExpressionAttributeValues: { ':false': false, ':true': true, ':now': now, ':stamp': changeStamp().last_change },
    },
  };
}

/**
 * Deletes a template, with the tombstone that makes its deletion an event and the
 * organization's count (and its default, when it was this one: the organization then has
 * none); a WriteConflict at `template` when there is none or it is no longer the default, or
 * became it, as read (`wasDefault`).
 */
export async function deleteTemplate(
  db: TableContext,
  orgId: string,
  templateId: string,
  deletedAt: string,
  wasDefault = false,
): Promise<void> {
  const asRead = defaultAsRead(wasDefault);
  await commitParts<TemplatePart | 'tombstone'>(db, [
    {
      name: 'template',
      write: {
        Delete: {
          TableName: db.tableName,
          Key: keys.template(orgId, templateId),
          ConditionExpression: `attribute_exists(PK) AND ${asRead.condition}`,
          ExpressionAttributeValues: asRead.values,
        },
      },
    },
    { name: 'organization', write: templateCountChange(db, orgId, -1, wasDefault ? { from: templateId, to: undefined } : undefined) },
    tombstonePart(db, { resource: 'template', org_id: orgId, id: templateId, deleted_at: deletedAt }),
  ]);
}

/**
 * The organization's default template (automatic summaries, a summary asked for without a
 * template): the one its `default_template_id` names; undefined when it has none.
 */
export async function getDefaultTemplate(db: TableContext, orgId: string): Promise<TemplateRecord | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.organization(orgId), ProjectionExpression: 'default_template_id' }),
  );
  const templateId: unknown = Item?.default_template_id;
  if (typeof templateId !== 'string') return undefined;
  const template = await getTemplate(db, orgId, templateId);
  return template?.is_default ? template : undefined;
}
