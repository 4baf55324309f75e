import { Template } from '../../schemas/template-responses';
import { CreateTemplateBody } from '../../schemas/templates';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const createTemplateRoute = defineRoute({
  name: 'createTemplate',
  method: 'POST',
  path: '/api/v1/organization/{orgId}/templates',
  handler: 'functions/templates/create-template',
  summary: 'Create a summarization template shared with every member',
  access: orgRoute('admin', 'templates:write'),
  permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem'] },
  request: { body: CreateTemplateBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const createTemplateDocs = (): OperationDocs => ({
  description: 'Creates a summarization template shared with every member of the organization.',
  responses: { 201: Template },
  errors: {},
  examples: {
    request: {
      name: 'Weekly standup',
      description: 'What each person did, will do, and what blocks them.',
      sections: [
        { title: 'Progress', prompt: 'List what each person finished since the last standup.' },
        { title: 'Blockers', prompt: 'List what blocks anyone, and who can help.' },
      ],
    },
    responses: {
      201: {
        id: 'tpl_3b7e9d1f5a2c4e6b8d0f',
        name: 'Weekly standup',
        description: 'What each person did, will do, and what blocks them.',
        sections: [
          { title: 'Progress', prompt: 'List what each person finished since the last standup.' },
          { title: 'Blockers', prompt: 'List what blocks anyone, and who can help.' },
        ],
        is_default: false,
        created_at: '2026-11-20T10:00:00.000Z',
        updated_at: '2026-11-20T10:00:00.000Z',
      },
    },
  },
  sample: () => ({
    credential: 'orgKey',
    body: {
      name: 'Weekly standup',
      description: 'Short notes for the team channel.',
      sections: [
        { title: 'Progress', prompt: 'List what each person finished since the last standup.' },
        { title: 'Blockers', prompt: 'List blockers and who can help.' },
      ],
    },
    status: 201,
  }),
});
