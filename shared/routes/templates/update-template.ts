import { Template } from '../../schemas/template-responses';
import { UpdateTemplateBody } from '../../schemas/templates';
import { salesTemplate } from '../demo-examples';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const updateTemplateRoute = defineRoute({
  name: 'updateTemplate',
  method: 'PATCH',
  path: '/api/v1/organization/{orgId}/templates/{templateId}',
  handler: 'functions/templates/update-template',
  summary: 'Change a summarization template (sections replace the whole list)',
  access: orgRoute('admin', 'templates:write'),
  permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem'] },
  request: { body: UpdateTemplateBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const updateTemplateDocs = (): OperationDocs => ({
  description: 'Changes only the fields given; `sections` replaces the whole list, in the order given.',
  responses: { 200: Template },
  errors: { 404: ['TEMPLATE_NOT_FOUND'] },
  examples: {
    request: { description: 'For customer calls: needs, objections, pricing and next steps.' },
    responses: {
      200: {
        ...salesTemplate,
        description: 'For customer calls: needs, objections, pricing and next steps.',
        updated_at: '2026-11-20T10:00:00.000Z',
      },
    },
  },
  sample: (ids) => ({
    credential: 'orgKey',
    path: { templateId: ids.templateId },
    body: { description: 'For customer calls: needs, objections, next steps, risks.' },
    status: 200,
  }),
});
