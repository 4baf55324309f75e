import { TRANSCRIPT_MAX_BYTES } from '../../core/limits';
import type { DomainEvent } from '../../schemas/event-catalog';
import type { TableContext } from '../../storage/dynamo';
import type { TranscriptSegment } from '../../storage/recording-part-items';
import { getRecording, getRecordingWithParts } from '../../storage/recordings';
import {
  commitTranslationTransition,
  deleteTranslationChunks,
  writeTranslationChunks,
  type TranslationHeader,
} from '../../storage/translations';
import { isWriteConflict } from '../../storage/write-retries';
import { sameTranslationLanguage } from '../../translation/languages';
import { TranslationError, type Translator } from '../../translation/translator';
import { markdownLinesOf, markdownOf } from './summary-lines';
import {
  completedTranslation,
  failedTranslation,
  isTranslationInFlight,
  processingTranslation,
  type TranslationRecording,
} from './translation-changes';

export interface TranslationRunDeps {
  db: TableContext;
  now: () => Date;
  translator: Translator;
  /** The recording's latest completed summary (the summaries' storage provides it); undefined when it has none. */
  latestSummary(orgId: string, recordingId: string): Promise<{ id: string; markdown: string } | undefined>;
}

/** What a run did with its event; `retry` asks for the message back later (throttling). */
type FinalKind = 'completed' | 'failed' | 'ignored' | 'discarded';
export type TranslationRunOutcome = { kind: FinalKind; characters?: number } | { kind: 'retry'; afterSeconds: number };

/** A run whose recording moved under it: re-read and commit again, not translate again. */
const COMMIT_ATTEMPTS = 10;

/**
 * The translation consumer (`recording.translation_queued`): marks the translation processing,
 * translates the transcript's turns (and the latest summary's lines) with the engine, writes the
 * translated segments as a chunk set, then commits the recording (completed) with the language's
 * header in one transaction, and deletes the language's previous set. An unsupported pair or a
 * text the engine refuses fails the translation with its reason; throttling asks for the
 * message back later (never a hot loop); any other error is thrown for the queue to retry, and
 * on the last delivery fails the translation with TRANSLATION_FAILED. Idempotent: an event whose
 * translation is no longer the recording's latest, or no longer queued or running, changes
 * nothing; a recording deleted or trashed meanwhile discards the run and its chunks (a trashed
 * one keeps its translation failed, so that a restore finds nothing stuck).
 */
export async function runTranslation(
  deps: TranslationRunDeps,
  event: Pick<DomainEvent, 'type' | 'org_id' | 'resource' | 'data'>,
  delivery: { last: boolean },
): Promise<TranslationRunOutcome> {
  if (event.type !== 'recording.translation_queued')
    throw new Error(`The translation consumer handles recording.translation_queued only, not ${event.type}`);
  const translationId = typeof event.data.translation_id === 'string' ? event.data.translation_id : '';
  const orgId = event.org_id;
  const recordingId = event.resource.id;
  const current = async (): Promise<TranslationRecording | 'discarded' | 'ignored'> => {
    const recording = await getRecording(deps.db, orgId, recordingId, { consistent: true });
    if (!recording) return 'discarded';
    if (recording.translation?.id !== translationId || !isTranslationInFlight(recording)) return 'ignored';
    if (recording.deleted_at) {
      await failInTrash(recording as TranslationRecording);
      return 'discarded';
    }
    return recording as TranslationRecording;
  };
  /**
   * A recording moved to the trash while translated: its translation ends failed, so that a
   * restore does not find it processing for ever (and refusing others). A conflict means it
   * moved again: the next delivery, or the next request, sees it as it is then.
   */
  const failInTrash = async (recording: TranslationRecording) => {
    const failure = {
      code: 'TRANSLATION_FAILED',
      reason: 'The recording was moved to the trash while it was translated; ask again once it is restored.',
    };
    try {
      await commitTranslationTransition(deps.db, { before: recording, after: failedTranslation(recording, deps.now(), failure) });
    } catch (error) {
      if (!isWriteConflict(error)) throw error;
    }
  };

  let recording = await current();
  if (typeof recording === 'string') return { kind: recording };
  if (recording.translation.status === 'queued') {
    const processing = processingTranslation(recording, deps.now());
    try {
      await commitTranslationTransition(deps.db, { before: recording, after: processing });
      recording = processing;
    } catch (error) {
      if (!isWriteConflict(error)) throw error;
      // Changed meanwhile (an update of the recording): carry on with it as it is now.
      recording = await current();
      if (typeof recording === 'string') return { kind: recording };
    }
  }
  const run = recording.translation;

  /** Commits the run's end on the recording as it is now (re-read after a conflict); a run no longer wanted is discarded. */
  const finish = async (
    plan: (recording: TranslationRecording) => TranslationRecording,
    header?: TranslationHeader,
  ): Promise<FinalKind> => {
    let latest: TranslationRecording | 'discarded' | 'ignored' = recording;
    for (let attempt = 1; ; attempt++) {
      if (typeof latest === 'string') {
        if (header) await deleteTranslationChunks(deps.db, orgId, recordingId, run.to_language, { onlySet: run.attempt });
        return latest;
      }
      try {
        await commitTranslationTransition(deps.db, { before: latest, after: plan(latest), header });
        return header ? 'completed' : 'failed';
      } catch (error) {
        if (!isWriteConflict(error) || attempt >= COMMIT_ATTEMPTS) throw error;
        latest = await current();
      }
    }
  };

  try {
    const { parts } = await getRecordingWithParts(deps.db, orgId, recordingId);
    const segments: TranscriptSegment[] = parts.transcript?.segments ?? [];
    if (!parts.transcript) throw new TranslationError('TRANSLATION_FAILED', 'The recording has no transcript any more.');
    const summary = await deps.latestSummary(orgId, recordingId);
    const summaryLines = summary ? markdownLinesOf(summary.markdown) : [];
    const texts = [...segments.map((segment) => segment.text), ...summaryLines.map((line) => line.text)];
    const sameLanguage = sameTranslationLanguage(run.from_language, run.to_language);
    // What the engine bills: the characters sent (none when the language is the transcript's own).
    const characters = sameLanguage ? 0 : texts.reduce((sum, text) => sum + text.length, 0);
    const translated = sameLanguage ? texts : await deps.translator.translate(texts, run.from_language, run.to_language);
    if (translated.length !== texts.length) throw new Error(`The translator answered ${translated.length} texts for ${texts.length}`);
    const translatedSegments = segments.map((segment, index) => ({ ...segment, text: translated[index] }));
    // The transcript's own bound (docs/transcription.md): every export of it stays under Lambda's 6 MB response, a translation's too.
    if (Buffer.byteLength(JSON.stringify(translatedSegments)) > TRANSCRIPT_MAX_BYTES) {
      throw new TranslationError(
        'TRANSLATION_FAILED',
        `The translated transcript is over ${TRANSCRIPT_MAX_BYTES / 1_000_000} MB, the bound of a transcript.`,
      );
    }
    const chunkCount = await writeTranslationChunks(deps.db, orgId, recordingId, run.to_language, run.attempt, translatedSegments);
    const at = deps.now().toISOString();
    const header: TranslationHeader = {
      id: run.id,
      language: run.to_language,
      from_language: run.from_language,
      segment_count: translatedSegments.length,
      chunk_count: chunkCount,
      chunk_set: run.attempt,
      summary: summary ? { id: summary.id, markdown: markdownOf(summaryLines, translated.slice(segments.length)) } : null,
      created_at: at,
      updated_at: at,
    };
    const kind = await finish((latest) => completedTranslation(latest, deps.now(), translatedSegments.length), header);
    if (kind === 'completed') await deleteTranslationChunks(deps.db, orgId, recordingId, run.to_language, { keepSet: run.attempt });
    return { kind, characters };
  } catch (error) {
    if (error instanceof TranslationError && error.retryAfterSeconds !== undefined) {
      // Throttled on the last delivery: nothing will bring the message back, so the translation fails rather than stay processing.
      if (!delivery.last) return { kind: 'retry', afterSeconds: error.retryAfterSeconds };
    }
    if (error instanceof TranslationError) {
      const code = error.code === 'TRANSLATION_THROTTLED' ? 'TRANSLATION_FAILED' : error.code;
      return { kind: await finish((latest) => failedTranslation(latest, deps.now(), { code, reason: error.message })) };
    }
    if (!delivery.last) throw error;
    const reason = `the translation engine failed (${error instanceof Error ? error.name : 'error'}); ask for the translation again.`;
    return { kind: await finish((latest) => failedTranslation(latest, deps.now(), { code: 'TRANSLATION_FAILED', reason })) };
  }
}
