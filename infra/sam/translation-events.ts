import type { Actor } from '../../shared/schemas/event-catalog';
import { recordingItem, type Recording } from '../../shared/storage/recording-items';
import type { SampleSetup } from './sample-setup';

/**
 * The translation's part of the sample pipeline events (infra/sam/pipeline-events.ts): the
 * recording change that gives `recording.translation_queued` (the translation consumer's cue),
 * as Translate recording's sample request (the sample recording into Spanish) writes it.
 */
type Item = Record<string, unknown>;

export function translationStreamChange(
  setup: SampleSetup,
  at: { earlier: string; changed: string },
  stampFor: (name: string, actor: Actor | null) => Item,
): { before: Item; after: Item } {
  const { ids } = setup;
  const transcribed: Recording = {
    id: ids.recordingId,
    org_id: ids.orgId,
    recorded_by: ids.memberId,
    title: 'Weekly standup',
    description: '',
    duration: 312,
    language: 'en',
    tags: [],
    folder_id: null,
    state: 'ready',
    created_at: at.earlier,
    updated_at: at.earlier,
    recording_at: at.earlier,
    related: { transcript: true, summary: true, action_items: true, translation: false },
  };
  const queued: Recording = {
    ...transcribed,
    updated_at: at.changed,
    translation: {
      id: 'trl_5f0c2a9e8b7d6c5b4a39',
      status: 'queued',
      from_language: 'en',
      to_language: 'es',
      attempt: 1,
      created_at: at.changed,
      updated_at: at.changed,
    },
  };
  return {
    before: { ...recordingItem(transcribed), ...stampFor('recording-seeded', null) },
    after: { ...recordingItem(queued), ...stampFor('translation-queued', null) },
  };
}
