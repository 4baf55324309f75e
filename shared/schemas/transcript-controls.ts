import * as v from 'valibot';
import { TRANSCRIBE_LANGUAGE_CODES } from '../core/transcription-languages';
import { PII_ENTITY_TYPES } from '../core/pii-entity-types';
import { admitsAtMost, Id } from './common';

// Local, as recordings.ts has it: a route's bundle carries its request schemas' module alone, not the envelopes.
const described = <S extends v.GenericSchema>(schema: S, description: string) => v.pipe(schema, v.description(description));

/* The requests of the organization's transcript controls: speakers, vocabulary, redaction (docs/transcript-controls.md). */

/** Bounds of the transcript controls (Transcribe's own where it has them). */
export const TRANSCRIPT_CONTROL_LIMITS = {
  speakerName: 100,
  speakerLabel: 64,
  speakersPerRequest: 30,
  terms: 500,
  phrase: 256,
  soundsLike: 10,
  displayAs: 256,
} as const;

const L = TRANSCRIPT_CONTROL_LIMITS;

const Label = described(
  v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(L.speakerLabel), admitsAtMost(L.speakerLabel)),
  "The engine's label of the speaker, as the transcript's turns and `speakers` show it (`Speaker 1`, …).",
);

const SpeakerAsMember = v.strictObject({
  label: Label,
  user_id: described(Id, 'An active member of the organization: their display name becomes the name.'),
});

const SpeakerAsName = v.strictObject({
  label: Label,
  name: described(
    v.nullable(
      v.pipe(
        v.string('must be a string or null'),
        v.trim(),
        v.minLength(1, 'must not be empty'),
        v.maxLength(L.speakerName, `must be at most ${L.speakerName} characters`),
        admitsAtMost(L.speakerName),
      ),
    ),
    `A name (1–${L.speakerName} characters) for someone who is not a member, such as \`Client\`; null returns to the label.`,
  ),
});

export const UpdateSpeakersBody = v.strictObject({
  speakers: described(
    v.pipe(
      v.array(v.union([SpeakerAsMember, SpeakerAsName], 'must be {label, user_id} or {label, name}')),
      v.minLength(1, 'must name at least one speaker'),
      v.maxLength(L.speakersPerRequest, `must name at most ${L.speakersPerRequest} speakers`),
    ),
    'The speakers to name, each by label: `{label, user_id}` names a member, `{label, name}` anyone else, `{label, name: null}` returns to the label. Speakers not listed keep their names.',
  ),
});
export type UpdateSpeakersBody = v.InferOutput<typeof UpdateSpeakersBody>;

const TermText = (max: number, what: string) =>
  v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max, `must be at most ${max} characters`),
    admitsAtMost(max),
    v.description(what),
  );

const Term = v.strictObject({
  phrase: TermText(
    L.phrase,
    `The word or phrase, as Transcribe's vocabularies take it: at most ${L.phrase} characters, letters of the language's character set, spaces, apostrophes, hyphens and periods (numbers spelled out).`,
  ),
  sounds_like: described(
    v.optional(
      v.pipe(
        v.array(TermText(L.phrase, 'One way it sounds, in word-like pieces separated by spaces or hyphens (`hal vor sen`).')),
        v.maxLength(L.soundsLike, `must list at most ${L.soundsLike} pronunciations`),
      ),
    ),
    'How it sounds, when its spelling does not say so: each entry one pronunciation.',
  ),
  display_as: described(
    v.optional(TermText(L.displayAs, 'How it is written in transcripts (`Halvorsen AS`, `K8s`); digits and symbols allowed.')),
    'How it is written in transcripts; the phrase when absent.',
  ),
});

export const UpdateVocabularyBody = v.strictObject({
  terms: described(
    v.pipe(v.array(Term), v.maxLength(L.terms, `must hold at most ${L.terms} terms`)),
    `The organization's terms (at most ${L.terms}, 50 KB in all as Transcribe's vocabulary file): they replace the previous ones; an empty list removes the vocabulary.`,
  ),
  language_code: described(
    v.optional(v.picklist(TRANSCRIBE_LANGUAGE_CODES, 'must be a language code Amazon Transcribe knows, such as en-US'), 'en-US'),
    "The language of the terms (default `en-US`): Transcribe's vocabularies are of one language, and apply to jobs in that language.",
  ),
});
export type UpdateVocabularyBody = v.InferOutput<typeof UpdateVocabularyBody>;

export const REDACTION_ENTITY_CHOICES = [...PII_ENTITY_TYPES, 'ALL'] as const;

export const UpdateRedactionBody = v.strictObject({
  pii: described(
    v.picklist(['off', 'redact'], 'must be off or redact'),
    '`redact`: every transcript completed from now on keeps only its redacted text; `off` (the default): transcripts are kept as spoken.',
  ),
  entity_types: described(
    v.optional(
      v.pipe(
        v.array(v.picklist(REDACTION_ENTITY_CHOICES, `must be among ${REDACTION_ENTITY_CHOICES.join(', ')}`)),
        v.minLength(1, 'must list at least one entity type'),
        v.maxLength(REDACTION_ENTITY_CHOICES.length),
        v.check((types) => new Set(types).size === types.length, 'must not list an entity type twice'),
      ),
      ['ALL'],
    ),
    "Amazon Transcribe's PII entity types to redact, or `ALL` (the default).",
  ),
});
export type UpdateRedactionBody = v.InferOutput<typeof UpdateRedactionBody>;
