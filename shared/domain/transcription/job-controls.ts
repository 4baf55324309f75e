import type { TableContext } from '../../storage/dynamo';
import { getOrganization } from '../../storage/organizations';
import type { TranscriptRedaction } from '../../storage/recording-items';
import { getVocabulary } from '../../storage/transcript-settings';
import { TRANSCRIBE_REDACTION_LANGUAGES } from '../../transcription/transcribe-jobs';
import { vocabularyNameOf } from '../../transcription/custom-vocabularies';
import { redactedTypesOf } from '../transcript-settings/redaction';

/**
 * What the organization's controls ask of a job as it starts (docs/transcript-controls.md): its
 * vocabulary when one in the job's language is ready (else the attempt says `pending` and runs
 * without it), and Transcribe's own redaction where Transcribe has it (en-US, es-US, a language
 * asked for); everywhere else the finisher redacts with the service's redactor.
 */
export interface JobControls {
  vocabularyName?: string;
  vocabulary?: 'applied' | 'pending';
  redaction?: TranscriptRedaction;
}

export async function jobControlsFor(db: TableContext, orgId: string, jobLanguage: string): Promise<JobControls> {
  const [org, vocabulary] = await Promise.all([getOrganization(db, orgId), getVocabulary(db, orgId, { withTerms: false })]);
  const controls: JobControls = {};
  if (vocabulary && (vocabulary.term_count ?? 0) > 0 && vocabulary.language_code === jobLanguage) {
    const ready = vocabulary.status === 'ready' && vocabulary.status_version === vocabulary.version;
    // A failed vocabulary will not become ready: the job runs without it and says nothing pends.
    if (ready) Object.assign(controls, { vocabularyName: vocabularyNameOf(orgId), vocabulary: 'applied' });
    else if (vocabulary.status !== 'failed' || vocabulary.status_version !== vocabulary.version) controls.vocabulary = 'pending';
  }
  const types = redactedTypesOf(org?.redaction);
  if (types.length && TRANSCRIBE_REDACTION_LANGUAGES.includes(jobLanguage))
    controls.redaction = { engine: 'transcribe', entity_types: types };
  return controls;
}
