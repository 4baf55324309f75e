import { ConflictError, NotFoundError } from '../../core/errors';
import { pagePagination, type PagePagination } from '../../core/page-pagination';
import { newId } from '../../ids';
import type { CreateTemplateBody, ListTemplatesQuery, UpdateTemplateBody } from '../../schemas/templates';
import type { TableContext } from '../../storage/dynamo';
import { getOrganization, type DefaultTemplateMove } from '../../storage/organizations';
import type { TemplateRecord } from '../../storage/template-items';
import { deleteTemplate, getTemplate, listTemplates, putTemplate, readTemplatePage } from '../../storage/templates';
import { retryOnWriteConflict } from '../../storage/write-retries';

export interface TemplateDeps {
  db: TableContext;
  now: () => Date;
}

/** The Template resource of the spec. */
export function templateView(template: TemplateRecord) {
  return {
    id: template.id,
    name: template.name,
    description: template.description,
    sections: template.sections.map(({ title, prompt }) => ({ title, prompt })),
    is_default: template.is_default ?? false,
    created_at: template.created_at,
    updated_at: template.updated_at,
  };
}

function notFound(templateId: string): NotFoundError {
  return new NotFoundError('TEMPLATE_NOT_FOUND', `Template ${templateId} does not exist in this organization.`);
}

/** A page of an organization's templates, with the spec's page-based pagination object. */
export interface TemplatePage {
  templates: ReturnType<typeof templateView>[];
  pagination: PagePagination;
}

/**
 * One page of the organization's templates, ordered by name (case-insensitive), then id.
 * Pages are bounded (ListTemplatesQuery) because a page of the largest templates must fit
 * in one Lambda response; docs/data-model.md, "Size budgets", has the arithmetic.
 *
 * Once every template carries its order keys (the organization's `templates_index_at`), the
 * total is the organization's `template_count` and the page is read from the ordered index,
 * whatever the page number (readTemplatePage): page 1 beside the organization, a later page
 * after it (its count says which end is nearer). Before (an organization from before issue
 * 26, until `voice-org reindex`), every template is read and ordered here, as the old index
 * keys `<name>#<id>` sort '#' after ' ' or '!', so a name did not come before the longer
 * names it begins.
 */
export async function listOrganizationTemplates(
  deps: TemplateDeps,
  orgId: string,
  { page, limit }: ListTemplatesQuery,
): Promise<TemplatePage> {
  const offset = (page - 1) * limit;
  const [organization, firstPage] = await Promise.all([
    getOrganization(deps.db, orgId),
    offset === 0 ? readTemplatePage(deps.db, orgId, { offset, limit, total: limit }) : undefined,
  ]);
  if (organization?.templates_index_at) {
    const total = organization.template_count;
    const templates = firstPage ?? (await readTemplatePage(deps.db, orgId, { offset, limit, total }));
    return { templates: templates.map(templateView), pagination: pagePagination(page, limit, total) };
  }
  const all = (await listTemplates(deps.db, orgId)).sort(byName);
  return { templates: all.slice(offset, offset + limit).map(templateView), pagination: pagePagination(page, limit, all.length) };
}

/** List templates' order: lower-case names as JavaScript compares them, then ids (keys.templateOrderKey sorts the same). */
function byName(a: TemplateRecord, b: TemplateRecord): number {
  const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** One template of the organization, or 404 TEMPLATE_NOT_FOUND. */
export async function readTemplate(deps: TemplateDeps, orgId: string, templateId: string) {
  const template = await getTemplate(deps.db, orgId, templateId);
  if (!template) throw notFound(templateId);
  return templateView(template);
}

/** Template writes retry a lost race on the default (or the template) this many times before 409 CONCURRENT_UPDATE. */
const TEMPLATE_WRITE_ATTEMPTS = 10;
const concurrentUpdate = () => new ConflictError('CONCURRENT_UPDATE', 'The templates changed while this request ran, too often: retry it.');

/** What making `templateId` the default, or not, moves: undefined when the organization's default stays as it is. */
function defaultMoveFor(
  currentDefault: string | undefined,
  templateId: string,
  wanted: boolean | undefined,
): DefaultTemplateMove | undefined {
  if (wanted === undefined || wanted === (currentDefault === templateId)) return undefined;
  return { from: currentDefault, to: wanted ? templateId : undefined };
}

/**
 * Creates a template under a new id; the body is already validated (CreateTemplateBody bounds
 * its size). `is_default: true` makes it the organization's default in the same transaction,
 * and the previous default stops being it.
 */
export async function createTemplate(
  deps: TemplateDeps,
  orgId: string,
  body: Omit<CreateTemplateBody, 'is_default'> & { is_default?: boolean },
) {
  const now = deps.now().toISOString();
  const { is_default: isDefault, ...fields } = body;
  const template: TemplateRecord = { id: newId('tpl'), org_id: orgId, ...fields, is_default: isDefault, created_at: now, updated_at: now };
  await retryOnWriteConflict(
    async () => {
      const defaultMove = isDefault
        ? { from: (await getOrganization(deps.db, orgId, { consistent: true }))?.default_template_id, to: template.id }
        : undefined;
      await putTemplate(deps.db, template, 'create', { defaultMove });
    },
    { attempts: TEMPLATE_WRITE_ATTEMPTS, exhausted: concurrentUpdate },
  );
  return templateView(template);
}

/**
 * Changes only the fields given; `sections` replaces the whole list, in the order given.
 * `is_default` moves the organization's default atomically (docs/summaries.md): true makes
 * this one the default and the previous one stops being it; false on the default leaves none.
 * A race with another change of the default is planned again on fresh data.
 */
export async function updateTemplate(deps: TemplateDeps, orgId: string, templateId: string, changes: UpdateTemplateBody) {
  const { is_default: wanted, ...fields } = changes;
  return retryOnWriteConflict(
    async () => {
      const [current, organization] = await Promise.all([
        getTemplate(deps.db, orgId, templateId, { consistent: true }),
        wanted === undefined ? undefined : getOrganization(deps.db, orgId, { consistent: true }),
      ]);
      if (!current) throw notFound(templateId);
      const defaultMove = defaultMoveFor(organization?.default_template_id, templateId, wanted);
      const next: TemplateRecord = {
        ...current,
        ...fields,
        is_default: defaultMove ? defaultMove.to === templateId : current.is_default,
        updated_at: deps.now().toISOString(),
      };
      await putTemplate(deps.db, next, 'replace', { wasDefault: current.is_default, defaultMove });
      return templateView(next);
    },
    { attempts: TEMPLATE_WRITE_ATTEMPTS, exhausted: concurrentUpdate },
  );
}

/**
 * Deletes a template for good. Summaries made with it keep their own copy of its id and
 * name, so they are unaffected. Deleting the default leaves the organization without one.
 */
export async function removeTemplate(deps: TemplateDeps, orgId: string, templateId: string): Promise<void> {
  await retryOnWriteConflict(
    async () => {
      const current = await getTemplate(deps.db, orgId, templateId, { consistent: true });
      if (!current) throw notFound(templateId);
      await deleteTemplate(deps.db, orgId, templateId, deps.now().toISOString(), current.is_default);
    },
    { attempts: TEMPLATE_WRITE_ATTEMPTS, exhausted: concurrentUpdate },
  );
}
