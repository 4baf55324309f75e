import type { Recording } from '../storage/recording-items';
import type { ItemChange } from '../storage/stream-items';
import type { OrganizationRetention } from '../storage/retention-policy-items';
import { ENGINE_LABEL } from '../domain/speakers/speaker-names';
import { type Derived, writerOf } from './derived-events';

/**
 * Events of the organization's transcript controls (docs/events.md): its vocabulary written and
 * its redaction set. They carry counts, codes and names of entity types, never a term.
 */

/** A new version of the vocabulary (its terms written): the sync consumer gives it to Transcribe. Its status moves say nothing. */
export function vocabularyEvents(change: Extract<ItemChange, { kind: 'vocabulary' }>): Derived[] {
  const { before, after } = change;
  if (!after || before?.value.version === after.value.version) return [];
  const vocabulary = after.value;
  return [
    {
      type: 'organization.vocabulary_updated',
      resource: { type: 'organization', id: vocabulary.org_id },
      data: { version: vocabulary.version, language_code: vocabulary.language_code, term_count: vocabulary.terms.length },
      occurredAt: vocabulary.updated_at,
      stamp: writerOf(before, after),
    },
  ];
}

/** The organization's redaction setting changed (mode or entity types). */
export function redactionEvents(
  before: { value: OrganizationRetention } | undefined,
  after: { value: OrganizationRetention },
): Pick<Derived, 'type' | 'resource' | 'data' | 'occurredAt'>[] {
  const previous = before?.value.redaction;
  const redaction = after.value.redaction;
  if (!redaction) return [];
  if (previous && previous.pii === redaction.pii && JSON.stringify(previous.entity_types) === JSON.stringify(redaction.entity_types))
    return [];
  return [
    {
      type: 'organization.redaction_updated',
      resource: { type: 'organization', id: after.value.org_id },
      data: { pii: redaction.pii, entity_types: redaction.entity_types, previous_pii: previous?.pii ?? 'off' },
      occurredAt: redaction.updated_at,
    },
  ];
}

type Naming = Map<string, string>;

const namingOf = (recording: Recording): Naming =>
  new Map((recording.speakers ?? []).map((speaker) => [speaker.label, JSON.stringify([speaker.name, speaker.user_id])]));

/**
 * The speakers someone named (Update speakers), as labels and member ids only: not when a new
 * transcript brought new speakers (its completion is the transcription's event).
 */
export function speakerEvents(
  previous: Recording,
  recording: Recording,
): { type: 'recording.speakers_updated'; data: Record<string, unknown> }[] {
  if (!recording.speakers || previous.transcription?.attempt !== recording.transcription?.attempt) return [];
  if (previous.transcription?.status !== recording.transcription?.status) return [];
  const before = namingOf(previous);
  const speakers = recording.speakers;
  const changed = speakers.filter((speaker) => {
    const naming = JSON.stringify([speaker.name, speaker.user_id]);
    if (previous.speakers) return before.get(speaker.label) !== naming;
    // Stored for the first time by this naming (a transcript stored before speakers were): they were
    // read as measured, each unnamed, a single voice with the engine's label its recorder's.
    const recorders = speakers.length === 1 && ENGINE_LABEL.test(speaker.label);
    return recorders ? speaker.user_id !== recording.recorded_by : naming !== JSON.stringify([null, null]);
  });
  if (!changed.length) return [];
  return [
    {
      type: 'recording.speakers_updated',
      data: { speakers: changed.map((speaker) => ({ label: speaker.label, user_id: speaker.user_id })) },
    },
  ];
}
