import * as templateStore from '../../storage/templates';
import { getTemplate } from '../../storage/templates';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { TEMPLATE_WRITE_ATTEMPTS, TemplateDeps, concurrentUpdate, notFound } from './template-views';

/**
 * Deletes a template for good. Summaries made with it keep their own copy of its id and
 * name, so they are unaffected. Deleting the default leaves the organization without one.
 */
export async function deleteTemplate(deps: TemplateDeps, orgId: string, templateId: string): Promise<void> {
  await retryOnWriteConflict(
    async () => {
      const current = await getTemplate(deps.db, orgId, templateId, { consistent: true });
      if (!current) throw notFound(templateId);
      await templateStore.deleteTemplate(deps.db, orgId, templateId, deps.now().toISOString(), current.is_default);
    },
    { attempts: TEMPLATE_WRITE_ATTEMPTS, exhausted: concurrentUpdate },
  );
}
