import type { Caller } from '../../auth/policy';
import { ConflictError, ForbiddenError } from '../../core/errors';
import { DEFAULT_SETTINGS } from '../../core/settings-catalog';
import type { TranscribeBody } from '../../schemas/transcription';
import type { TableContext } from '../../storage/dynamo';
import type { Recording } from '../../storage/recording-items';
import { getRecording } from '../../storage/recordings';
import { commitTranscriptionTransition } from '../../storage/transcriptions';
import { getRecorderSettings } from '../../storage/member-settings';
import { readTranscriptionBudget } from '../../storage/transcription-usage';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { transcriptionLanguageFor } from '../../transcription/languages';
import { recordingNotFound } from '../recordings/get-recording';
import { hasUploadedFile, isTranscriptionInFlight, monthOf, queuedRecording } from './transcription-changes';

export interface QueueDeps {
  db: TableContext;
  now: () => Date;
}

export const CONCURRENT = () =>
  new ConflictError('CONCURRENT_UPDATE', 'The recording kept changing while its transcription was being queued; try again.');

/** The job's language as stored: a Transcribe code, or `identify`. */
export async function jobLanguageFor(
  deps: QueueDeps,
  recording: Recording,
  requested: string | undefined,
): Promise<{ jobLanguage: string; autoTranscription: boolean; maxSpeakers: number }> {
  const settings = await getRecorderSettings(deps.db, recording.org_id, recording.recorded_by);
  const chosen = { ...DEFAULT_SETTINGS, ...settings?.settings };
  const language = transcriptionLanguageFor(requested, chosen.conversation_language);
  return {
    jobLanguage: 'languageCode' in language ? language.languageCode : 'identify',
    autoTranscription: chosen.auto_transcription,
    maxSpeakers: chosen.max_speakers,
  };
}

/** Whether the organization's monthly allowance is used up (never when it has none). */
export async function allowanceUsedUp(deps: QueueDeps, orgId: string, now: Date): Promise<{ usedUp: boolean; allowance: number | null }> {
  const budget = await readTranscriptionBudget(deps.db, orgId, monthOf(now));
  return { usedUp: budget.allowance !== null && budget.used >= budget.allowance, allowance: budget.allowance };
}

export const quotaReason = (allowance: number | null) =>
  `the organization has used its ${allowance} transcription minutes of this month (UTC); the allowance renews on the 1st.`;

/**
 * Transcribe recording (both hosts): queues a new attempt and answers the recording. Its
 * refusals are the route's (shared/routes/recordings/transcription-docs.ts). A completed or
 * failed transcription may run again: the new transcript replaces the old one when it completes.
 */
export async function transcribeRecording(deps: QueueDeps, caller: Caller, recordingId: string, body: TranscribeBody): Promise<Recording> {
  return retryOnWriteConflict(
    async () => {
      const recording = await getRecording(deps.db, caller.orgId, recordingId, { consistent: true });
      if (!recording || recording.deleted_at) throw recordingNotFound(recordingId);
      if (caller.kind === 'user_key' && recording.recorded_by !== caller.userId) throw recordingNotFound(recordingId);
      if (!hasUploadedFile(recording)) {
        const why =
          recording.upload_error !== undefined || recording.state === 'failed' ? 'its upload failed' : 'its file has not been uploaded yet';
        throw new ConflictError('RECORDING_NOT_UPLOADED', `Recording ${recordingId} cannot be transcribed: ${why}.`);
      }
      if (isTranscriptionInFlight(recording)) {
        throw new ConflictError(
          'TRANSCRIPTION_IN_PROGRESS',
          `Recording ${recordingId} is already being transcribed (${recording.transcription?.status}).`,
        );
      }
      const now = deps.now();
      const [{ usedUp, allowance }, { jobLanguage, maxSpeakers }] = await Promise.all([
        allowanceUsedUp(deps, caller.orgId, now),
        jobLanguageFor(deps, recording, body.language),
      ]);
      if (usedUp) throw new ForbiddenError('TRANSCRIPTION_QUOTA_EXCEEDED', `Transcription refused: ${quotaReason(allowance)}`);
      const queued = queuedRecording(recording, now, jobLanguage, maxSpeakers);
      await commitTranscriptionTransition(deps.db, {
        before: recording,
        after: queued,
        watch: { set: queued.transcription?.watch_due_at },
      });
      return queued;
    },
    { attempts: 10, exhausted: CONCURRENT },
  );
}

/** What the automatic transcription did with an uploaded recording. */
export type AutoQueueOutcome = 'queued' | 'quota_exceeded' | 'not_wanted' | 'ignored';
