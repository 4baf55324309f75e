import * as templateStore from '../../storage/templates';
import { TemplateDeps, notFound, templateView } from './template-views';

/** One template of the organization, or 404 TEMPLATE_NOT_FOUND. */
export async function getTemplate(deps: TemplateDeps, orgId: string, templateId: string) {
  const template = await templateStore.getTemplate(deps.db, orgId, templateId);
  if (!template) throw notFound(templateId);
  return templateView(template);
}
