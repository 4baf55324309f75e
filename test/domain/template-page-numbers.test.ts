import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { rebuildDerivedIndexes } from '../../shared/operator-tasks/derived-indexes';
import { createOrganization } from '../../shared/operator-tasks/directory';
import { deleteTemplate } from '../../shared/domain/templates/delete-template';
import { updateTemplate } from '../../shared/domain/templates/update-template';
import { createTemplate } from '../../shared/domain/templates/create-template';
import { listTemplates } from '../../shared/domain/templates/list-templates';
import { keys } from '../../shared/storage/keys';
import { getOrganization } from '../../shared/storage/organizations';
import type { TemplateRecord } from '../../shared/storage/template-items';
import { listTemplates as storedListTemplates } from '../../shared/storage/templates';
import { observeRequests, type ObservedRequest } from '../support/observe-requests';
import { localDeployment, unique } from '../support/api';

/**
 * List templates reads its page from the templates' order index (GSI1), whatever the page
 * number, once every template carries its order keys: their number is the organization's
 * count, and a page away from both ends starts at the key its keys-only twin (GSI3) holds at
 * its offset, read from the nearer end. Generated organizations (names that begin others, differ only in case, are equal,
 * or hold characters UTF-8 and UTF-16 order differently), written through createTemplate,
 * renamed and deleted; random page numbers and limits (past the end too): every page must be
 * the slice of every template read and ordered as before (name lower-cased, then id), with
 * the total; and no template outside the page may be read.
 */
const { db } = localDeployment();
const T0 = new Date('2026-11-27T10:00:00.000Z');
const deps = { db, now: () => T0 };
const SECTIONS = [{ title: 'Summary', prompt: 'Summarize the call.' }];
const NAME_PARTS = [
  'a',
  'A',
  'a b',
  'a!',
  'a#',
  'ab',
  'A B',
  'b',
  'İ',
  'i\u0307',
  'é',
  'É',
  '\uff01',
  '😀',
  '\ue000',
  'a\tb',
  'Standup',
  ' ',
];

const drawnName = fc
  .array(fc.constantFrom(...NAME_PARTS), { minLength: 1, maxLength: 3 })
  .map((parts) => (parts.join('').trim() ? parts.join('') : 'x'));
const drawnTemplate = fc.record({ name: drawnName, rename: fc.option(drawnName, { nil: undefined, freq: 4 }), remove: fc.boolean() });
const drawnQuery = fc.record({
  limit: fc.integer({ min: 1, max: 6 }),
  /** Where the page falls, in hundredths of the pages (past the end included): unbiased, as deep pages are the point. */
  depth: fc.noBias(fc.integer({ min: 0, max: 120 })),
});

/** List templates' order: lower-case names as JavaScript compares them, then ids. */
const byName = (a: TemplateRecord, b: TemplateRecord) => {
  const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};

async function writeOrg(drawn: { name: string; rename?: string; remove: boolean }[]): Promise<string> {
  const { org_id: orgId } = await createOrganization(db, { id: `org_tpages_${unique()}`, name: 'Template pages' }, T0);
  const created = [];
  for (const { name } of drawn) created.push(await createTemplate(deps, orgId, { name, description: '', sections: SECTIONS }));
  for (const [i, { rename, remove }] of drawn.entries()) {
    if (remove && i % 2) await deleteTemplate(deps, orgId, created[i].id);
    else if (rename !== undefined) await updateTemplate(deps, orgId, created[i].id, { name: rename });
  }
  return orgId;
}

/**
 * Each page against every template read and ordered; the templates read (GSI1 or the table:
 * GSI3 holds keys only) against `readable`, given the page's size and the organization's.
 */
async function checkPages(
  orgId: string,
  queries: (total: number) => { page: number; limit: number }[],
  readable: (pageSize: number, total: number) => number,
) {
  const whole = (await storedListTemplates(db, orgId)).sort(byName).map((t) => t.id);
  for (const { page, limit } of queries(whole.length)) {
    const where = `page ${page} of limit ${limit}, ${whole.length} templates`;
    const requests: ObservedRequest[] = [];
    observeRequests(db, 'template-pages-test', (request) => requests.push(request));
    let answer: Awaited<ReturnType<typeof listTemplates>>;
    try {
      answer = await listTemplates(deps, orgId, { page, limit });
    } finally {
      db.client.middlewareStack.remove('template-pages-test');
    }
    const slice = whole.slice((page - 1) * limit, page * limit);
    expect({ where, ids: answer.templates.map((t) => t.id), total: answer.pagination.total }).toEqual({
      where,
      ids: slice,
      total: whole.length,
    });
    const templatesRead = requests
      .filter((r) => r.command === 'Query' && r.input.IndexName !== 'GSI3')
      .reduce((sum, r) => sum + r.itemsRead, 0);
    const bound = readable(limit, whole.length);
    if (templatesRead > bound) throw new Error(`${where}: read ${templatesRead} templates, at most ${bound} expected`);
    // The keys-only index is read only to find where a page starts, from the nearer end; never to count.
    const offset = (page - 1) * limit;
    const keysRead = requests.filter((r) => r.command === 'Query' && r.input.IndexName === 'GSI3').reduce((sum, r) => sum + r.itemsRead, 0);
    const keysBound = offset === 0 ? 0 : Math.min(offset + 1, Math.max(whole.length - offset, 0));
    if (keysRead > keysBound) throw new Error(`${where}: read ${keysRead} keys of GSI3, at most ${keysBound} expected`);
  }
}

const pagesOf = (queries: { limit: number; depth: number }[]) => (total: number) =>
  queries.map(({ limit, depth }) => ({ limit, page: 1 + Math.floor((depth / 100) * Math.ceil(total / limit)) }));
const everyPage = (total: number) =>
  [1, 2, 3].flatMap((limit) => Array.from({ length: Math.ceil(total / limit) + 1 }, (_, i) => ({ limit, page: i + 1 })));

describe('List templates: pages from the ordered index', () => {
  it("answers the slice of every template read and ordered, reading only the page's templates", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.noBias(fc.array(drawnTemplate, { minLength: 4, maxLength: 24 })),
        fc.array(drawnQuery, { minLength: 10, maxLength: 14 }),
        async (drawn, queries) => {
          const orgId = await writeOrg(drawn);
          await checkPages(orgId, pagesOf(queries), (limit) => limit);
        },
      ),
      { numRuns: 10, endOnFailure: true },
    );
  }, 120_000);

  it('reads every template of an organization from before the order keys, until a rebuild gives them theirs', async () => {
    const drawn = ['a b', 'a', 'A!', 'a#', 'b', 'Ab', 'a', '😀', '\uff01'].map((name, i) => ({
      name,
      remove: false,
      rename: i === 2 ? 'a!' : undefined,
    }));
    const orgId = await writeOrg(drawn);
    // As stored before the name-order keys: `<lower name>#<id>` on GSI1, no GSI3 entry, no mark on the organization.
    for (const template of await storedListTemplates(db, orgId)) {
      await db.client.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: keys.template(orgId, template.id),
          UpdateExpression: 'SET GSI1SK = :old REMOVE GSI3PK, GSI3SK',
          ExpressionAttributeValues: { ':old': `${template.name.toLowerCase()}#${template.id}` },
        }),
      );
    }
    await db.client.send(
      new UpdateCommand({ TableName: db.tableName, Key: keys.organization(orgId), UpdateExpression: 'REMOVE templates_index_at' }),
    );
    // Every template, and on page 1 the page read from the index beside the organization before it says the keys are old.
    await checkPages(orgId, everyPage, (limit, total) => total + limit);

    expect(await rebuildDerivedIndexes(db, orgId, T0, { trashRetentionDays: 30 })).toMatchObject({
      templates: { templates: 9, rewritten: 9 },
    });
    expect((await getOrganization(db, orgId))?.templates_index_at).toBe(T0.toISOString());
    await checkPages(orgId, everyPage, (limit) => limit);
    // Again: every key is as it should be, nothing is written.
    expect(await rebuildDerivedIndexes(db, orgId, T0, { force: true, trashRetentionDays: 30 })).toMatchObject({
      templates: { templates: 9, rewritten: 0 },
    });
  });
});
