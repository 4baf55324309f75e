import { ConflictError, NotFoundError } from '../../core/errors';
import { type PagePagination } from '../../core/page-pagination';
import type { TableContext } from '../../storage/dynamo';
import { type DefaultTemplateMove } from '../../storage/organizations';
import type { TemplateRecord } from '../../storage/template-items';

export interface TemplateDeps {
  db: TableContext;
  now: () => Date;
}

/** The Template resource of the spec. */
export function templateView(template: TemplateRecord) {
  return {
    id: template.id,
    name: template.name,
    description: template.description,
    sections: template.sections.map(({ title, prompt }) => ({ title, prompt })),
    is_default: template.is_default ?? false,
    created_at: template.created_at,
    updated_at: template.updated_at,
  };
}

export function notFound(templateId: string): NotFoundError {
  return new NotFoundError('TEMPLATE_NOT_FOUND', `Template ${templateId} does not exist in this organization.`);
}

/** A page of an organization's templates, with the spec's page-based pagination object. */
export interface TemplatePage {
  templates: ReturnType<typeof templateView>[];
  pagination: PagePagination;
}

/** List templates' order: lower-case names as JavaScript compares them, then ids (keys.templateOrderKey sorts the same). */
export function byName(a: TemplateRecord, b: TemplateRecord): number {
  const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Template writes retry a lost race on the default (or the template) this many times before 409 CONCURRENT_UPDATE. */
export const TEMPLATE_WRITE_ATTEMPTS = 10;
export const concurrentUpdate = () =>
  new ConflictError('CONCURRENT_UPDATE', 'The templates changed while this request ran, too often: retry it.');

/** What making `templateId` the default, or not, moves: undefined when the organization's default stays as it is. */
export function defaultMoveFor(
  currentDefault: string | undefined,
  templateId: string,
  wanted: boolean | undefined,
): DefaultTemplateMove | undefined {
  if (wanted === undefined || wanted === (currentDefault === templateId)) return undefined;
  return { from: currentDefault, to: wanted ? templateId : undefined };
}
