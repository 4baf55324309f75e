import type { UpdateTemplateBody } from '../../schemas/templates';
import { getOrganization } from '../../storage/organizations';
import type { TemplateRecord } from '../../storage/template-items';
import { getTemplate, putTemplate } from '../../storage/templates';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { TemplateDeps, notFound, defaultMoveFor, templateView, TEMPLATE_WRITE_ATTEMPTS, concurrentUpdate } from './template-views';

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
