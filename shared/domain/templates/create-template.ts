import { newId } from '../../ids';
import type { CreateTemplateBody } from '../../schemas/templates';
import { getOrganization } from '../../storage/organizations';
import type { TemplateRecord } from '../../storage/template-items';
import { putTemplate } from '../../storage/templates';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { TemplateDeps, TEMPLATE_WRITE_ATTEMPTS, concurrentUpdate, templateView } from './template-views';

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
