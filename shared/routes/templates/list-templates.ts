import { TemplateListResponse } from '../../schemas/template-responses';
import { ListTemplatesQuery } from '../../schemas/templates';
import { page, salesTemplate } from '../demo-examples';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const listTemplatesRoute = defineRoute({
  name: 'listTemplates',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/templates',
  handler: 'functions/templates/list-templates',
  summary: "List the organization's summarization templates",
  access: orgRoute('member', 'templates:read'),
  permissions: { table: ['GetItem', 'Query'] },
  request: { query: ListTemplatesQuery },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const listTemplatesDocs = (): OperationDocs => ({
  description: "Lists the organization's summarization templates, by name; every member sees them.",
  responses: { 200: TemplateListResponse },
  errors: {},
  examples: { responses: { 200: { templates: [salesTemplate], pagination: page(1, 100) } } },
  sample: () => ({ credential: 'orgKey', status: 200 }),
});
