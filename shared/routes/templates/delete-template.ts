import { SuccessOnly } from '../../schemas/envelopes';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const deleteTemplateRoute = defineRoute({
  name: 'deleteTemplate',
  method: 'DELETE',
  path: '/api/v1/organization/{orgId}/templates/{templateId}',
  handler: 'functions/templates/delete-template',
  summary: 'Delete a summarization template for good',
  access: orgRoute('admin', 'templates:write'),
  permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const deleteTemplateDocs = (): OperationDocs => ({
  description: 'Deletes a template for good; summaries already made with it keep its id and name.',
  responses: { 200: SuccessOnly },
  errors: { 404: ['TEMPLATE_NOT_FOUND'] },
  examples: { responses: { 200: { success: true } } },
  sample: (ids) => ({ credential: 'orgKey', path: { templateId: ids.templateId }, status: 200 }),
});
