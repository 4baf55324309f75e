import * as v from 'valibot';
import { Timestamp } from './common';
import { described, envelope, NullableString } from './envelopes';
import { Speaker } from './recording-responses';
import { REDACTION_ENTITY_CHOICES } from './transcript-controls';

/* The responses of the organization's transcript controls, for the OpenAPI document and the contract check. */

export const SpeakersResponse = v.strictObject({
  recording_id: described(v.string(), 'The recording.'),
  speakers: described(v.array(Speaker), 'Every speaker of its transcript, as now named.'),
});

/** Update speakers, public host: the same in the envelope. */
export const PublicSpeakersResponse = envelope(described(SpeakersResponse, "The recording's speakers, as now named."));

export const VocabularyResponse = v.strictObject({
  language_code: described(v.string(), 'The language of the terms.'),
  terms: described(
    v.array(
      v.strictObject({
        phrase: described(v.string(), 'The word or phrase.'),
        sounds_like: described(v.optional(v.array(v.string())), 'How it sounds, when given.'),
        display_as: described(v.optional(v.string()), 'How it is written in transcripts, when given.'),
      }),
    ),
    'The terms, as last set.',
  ),
  term_count: described(v.number(), 'How many terms.'),
  status: described(
    v.picklist(['ready', 'pending', 'failed']),
    '`ready`: transcriptions in its language use it; `pending`: Transcribe is preparing this version (jobs started meanwhile run without it); `failed`: Transcribe refused it or the account has no vocabulary left (see `reason`); transcription is never blocked.',
  ),
  reason: described(NullableString, 'Why it failed; null unless `failed`.'),
  version: described(v.number(), 'Counts the times the terms were set (0: never).'),
  updated_at: described(v.nullable(Timestamp), 'When the terms were last set; null when never.'),
  updated_by: described(NullableString, 'Who set them (a user id, or an organization API key id); null when no one did.'),
});

export const RedactionResponse = v.strictObject({
  pii: described(
    v.picklist(['off', 'redact']),
    '`redact`: transcripts completed from now on keep only their redacted text; `off`: kept as spoken.',
  ),
  entity_types: described(v.array(v.picklist(REDACTION_ENTITY_CHOICES)), 'The entity types redacted (`ALL`: every one).'),
  updated_at: described(v.nullable(Timestamp), 'When it was last set; null when never.'),
  updated_by: described(NullableString, 'Who set it (a user id, or an organization API key id); null when no one did.'),
});
