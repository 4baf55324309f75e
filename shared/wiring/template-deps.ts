import type { TemplateDeps } from '../domain/templates/template-views';
import { table } from '../storage/dynamo';

/** The templates area's composition root: the table and the clock, built on first use and kept for the warm function. */

let templates: TemplateDeps | undefined;

export function templateDeps(): TemplateDeps {
  return (templates ??= { db: table(), now: () => new Date() });
}
