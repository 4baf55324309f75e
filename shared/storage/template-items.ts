import { changeStamp } from './change-stamp';
import { itemFields, StoredItemError } from './item-fields';
import { keys } from './keys';

/* Templates as items: the type, the item builder and the explicit mapper, with no DynamoDB client (the event processor maps items and bundles none). */

/** A summarization template shared by every member of its organization. */
export interface TemplateRecord {
  id: string;
  org_id: string;
  name: string;
  description: string;
  sections: { title: string; prompt: string }[];
  /**
   * Whether it is the organization's default (automatic summaries use it): true on at most one
   * template, the one the organization's `default_template_id` names, both written in one
   * transaction. Absent on templates from before defaults: false.
   */
  is_default?: boolean;
  created_at: string;
  updated_at: string;
}

/** The table item of a template: its keys, its name-order index keys (GSI1, and GSI3 keys only) and its fields (exported for the item-size budget test). */
export const templateItem = (template: TemplateRecord) => ({
  ...keys.template(template.org_id, template.id),
  ...keys.templatesIndex(template.org_id, template.name, template.id),
  ...keys.templateKeysIndex(template.org_id, template.name, template.id),
  ...template,
  ...changeStamp(),
});

/** Maps a stored template item (StoredItemError when it lacks a field it needs). */
export function templateFromItem(item: Record<string, unknown>): TemplateRecord {
  const fields = itemFields(item, 'template');
  return {
    id: fields.string('id'),
    org_id: fields.string('org_id'),
    name: fields.string('name'),
    description: fields.string('description'),
    sections: fields.list('sections').map((section, index) => {
      if (typeof section !== 'object' || section === null || Array.isArray(section)) {
        throw new StoredItemError(`Stored template ${String(item.PK)}|${String(item.SK)}: sections[${index}] is not a map`);
      }
      // The section's own fields, read with the template's keys so an error names the item.
      const sectionFields = itemFields({ ...section, PK: item.PK, SK: item.SK }, `template section ${index}`);
      return { title: sectionFields.string('title'), prompt: sectionFields.string('prompt') };
    }),
    is_default: fields.optionalBoolean('is_default') ?? false,
    created_at: fields.string('created_at'),
    updated_at: fields.string('updated_at'),
  };
}
