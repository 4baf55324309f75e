import { createTemplateDocs, createTemplateRoute } from './create-template';
import { deleteTemplateDocs, deleteTemplateRoute } from './delete-template';
import { getTemplateDocs, getTemplateRoute } from './get-template';
import { listTemplatesDocs, listTemplatesRoute } from './list-templates';
import { updateTemplateDocs, updateTemplateRoute } from './update-template';
import { defineRouteArea } from '../route-definition';

/** Summarization templates. */
export const TEMPLATES_ROUTES = defineRouteArea({
  area: 'templates',
  stack: 'templates',
  routes: [
    { route: listTemplatesRoute, docs: listTemplatesDocs },
    { route: getTemplateRoute, docs: getTemplateDocs },
    { route: createTemplateRoute, docs: createTemplateDocs },
    { route: updateTemplateRoute, docs: updateTemplateDocs },
    { route: deleteTemplateRoute, docs: deleteTemplateDocs },
  ],
});
