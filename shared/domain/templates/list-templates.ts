import { pagePagination } from '../../core/page-pagination';
import type { ListTemplatesQuery } from '../../schemas/templates';
import { getOrganization } from '../../storage/organizations';
import * as templateStore from '../../storage/templates';
import { readTemplatePage } from '../../storage/templates';
import { byName, TemplateDeps, TemplatePage, templateView } from './template-views';

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
export async function listTemplates(deps: TemplateDeps, orgId: string, { page, limit }: ListTemplatesQuery): Promise<TemplatePage> {
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
  const all = (await templateStore.listTemplates(deps.db, orgId)).sort(byName);
  return { templates: all.slice(offset, offset + limit).map(templateView), pagination: pagePagination(page, limit, all.length) };
}
