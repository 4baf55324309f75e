import type { Actor } from '../../shared/schemas/event-catalog';
import { vocabularyItem } from '../../shared/storage/transcript-setting-items';
import type { SampleSetup } from './sample-setup';

type Item = Record<string, unknown>;

/** The stream's INSERT of an organization's first vocabulary (its `organization.vocabulary_updated`), set by its owner. */
export function vocabularyStreamInsert(
  setup: SampleSetup,
  at: { changed: string },
  stampFor: (name: string, actor: Actor | null) => Item,
): { after: Item } {
  const { ids } = setup;
  const item = vocabularyItem({
    org_id: ids.orgId,
    language_code: 'en-US',
    terms: [{ phrase: 'Halvorsen', sounds_like: ['hal vor sen'], display_as: 'Halvorsen AS' }],
    version: 1,
    status: 'pending',
    status_version: 1,
    updated_at: at.changed,
    updated_by: ids.ownerId,
    status_at: at.changed,
  });
  return { after: { ...item, ...stampFor('vocabulary-set', { kind: 'user', id: ids.ownerId }) } };
}
