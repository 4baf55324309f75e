import type { Caller } from '../../auth/policy';
import { ConflictError } from '../../core/errors';
import { newId } from '../../ids';
import type { TranslateBody } from '../../schemas/translations';
import type { TableContext } from '../../storage/dynamo';
import type { RecordingTranslation } from '../../storage/recording-items';
import { getRecording } from '../../storage/recordings';
import { commitTranslationTransition } from '../../storage/translations';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { translationCodeOfTag } from '../../translation/languages';
import { recordingNotFound } from '../recordings/get-recording';
import { transcriptStatusOf } from '../transcription/transcription-changes';
import { isTranslationInFlight, queuedTranslation } from './translation-changes';

export interface TranslationRequestDeps {
  db: TableContext;
  now: () => Date;
}

const CONCURRENT = () =>
  new ConflictError('CONCURRENT_UPDATE', 'The recording kept changing while its translation was being queued; try again.');

/**
 * Translate recording (both hosts): queues a translation of the transcript (and the latest
 * summary) into `to_language` and answers the Translation, queued; the translation consumer
 * runs it (`recording.translation_queued`). Its refusals are the route's
 * (shared/routes/translations/translation-docs.ts). A transcript re-run under way counts as not
 * ready: its result would make the translation stale at once. A pair the engine cannot do fails
 * the translation, it is not refused here: only the engine knows its pairs.
 */
export async function translateRecording(
  deps: TranslationRequestDeps,
  caller: Caller,
  recordingId: string,
  body: TranslateBody,
): Promise<RecordingTranslation> {
  return retryOnWriteConflict(
    async () => {
      const recording = await getRecording(deps.db, caller.orgId, recordingId, { consistent: true });
      if (!recording || recording.deleted_at) throw recordingNotFound(recordingId);
      if (caller.kind === 'user_key' && recording.recorded_by !== caller.userId) throw recordingNotFound(recordingId);
      const status = transcriptStatusOf(recording);
      if (status !== 'completed')
        throw new ConflictError(
          'TRANSCRIPT_NOT_READY',
          `Recording ${recordingId} has no completed transcript yet (transcript_status ${status}).`,
        );
      if (isTranslationInFlight(recording)) {
        // The same language asked for again while it runs (a client retrying, two people at once): that translation, nothing new queued.
        if (recording.translation?.to_language === body.to_language) return recording.translation;
        throw new ConflictError(
          'TRANSLATION_IN_PROGRESS',
          `Recording ${recordingId} is already being translated into ${recording.translation?.to_language} (${recording.translation?.status}).`,
        );
      }
      // A language Translate does not know stays as tagged: the run fails it as an unsupported pair, with the reason.
      const from = translationCodeOfTag(recording.language) ?? (recording.language || 'unknown');
      const queued = queuedTranslation(recording, deps.now(), { id: newId('trl'), from, to: body.to_language });
      await commitTranslationTransition(deps.db, { before: recording, after: queued });
      return queued.translation;
    },
    { attempts: 10, exhausted: CONCURRENT },
  );
}
