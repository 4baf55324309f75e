import { Template } from '../../schemas/template-responses';
import { salesTemplate } from '../demo-examples';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const getTemplateRoute = defineRoute({
  name: 'getTemplate',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/templates/{templateId}',
  handler: 'functions/templates/get-template',
  summary: 'Read a summarization template',
  access: orgRoute('member', 'templates:read'),
  permissions: { table: ['GetItem', 'Query'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const getTemplateDocs = (): OperationDocs => ({
  description: 'Reads a summarization template.',
  responses: { 200: Template },
  errors: { 404: ['TEMPLATE_NOT_FOUND'] },
  examples: { responses: { 200: salesTemplate } },
  sample: (ids) => ({ credential: 'orgKey', path: { templateId: ids.templateId }, status: 200 }),
});
