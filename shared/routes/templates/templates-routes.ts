import { createTemplateDocs, createTemplateRoute } from './create-template';
import { deleteTemplateDocs, deleteTemplateRoute } from './delete-template';
import { getTemplateDocs, getTemplateRoute } from './get-template';
import { listTemplatesDocs, listTemplatesRoute } from './list-templates';
import { updateTemplateDocs, updateTemplateRoute } from './update-template';

/** Summarization templates. In manifest order: the order of the OpenAPI document, the stack and the sample requests. */
export const TEMPLATES_ROUTES = [
  { route: listTemplatesRoute, docs: listTemplatesDocs },
  { route: getTemplateRoute, docs: getTemplateDocs },
  { route: createTemplateRoute, docs: createTemplateDocs },
  { route: updateTemplateRoute, docs: updateTemplateDocs },
  { route: deleteTemplateRoute, docs: deleteTemplateDocs },
] as const;
