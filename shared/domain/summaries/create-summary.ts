import type { Caller } from '../../auth/policy';
import { ConflictError, NotFoundError } from '../../core/errors';
import { MAX_SUMMARIES_PER_RECORDING } from '../../core/limits';
import type { TableContext } from '../../storage/dynamo';
import type { Recording } from '../../storage/recording-items';
import { getRecording } from '../../storage/recordings';
import { commitSummaryTransition } from '../../storage/summaries';
import type { SummaryRecord } from '../../storage/summary-items';
import { getDefaultTemplate, getTemplate } from '../../storage/templates';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { BUILT_IN_TEMPLATE } from '../../summarization/built-in-template';
import { recordingNotFound } from '../recordings/get-recording';
import { isSummaryInFlight, queuedSummary, withDigest, type TemplateSnapshot } from './summary-changes';

export interface SummaryQueueDeps {
  db: TableContext;
  now: () => Date;
  /** A new summary's id (`sum_…`). */
  newSummaryId: () => string;
}

export const CONCURRENT = () =>
  new ConflictError('CONCURRENT_UPDATE', 'The recording kept changing while its summary was being queued; try again.');

/** The template a summary is made with: the one named, else the organization's default, else the built-in one (template_id null). */
export async function templateFor(db: TableContext, orgId: string, templateId: string | undefined): Promise<TemplateSnapshot> {
  if (templateId !== undefined) {
    const template = await getTemplate(db, orgId, templateId);
    if (!template) throw new NotFoundError('TEMPLATE_NOT_FOUND', `Template ${templateId} does not exist in this organization.`);
    return { id: template.id, name: template.name, sections: template.sections };
  }
  const fallback = await getDefaultTemplate(db, orgId);
  return fallback
    ? { id: fallback.id, name: fallback.name, sections: fallback.sections }
    : { id: null, name: BUILT_IN_TEMPLATE.name, sections: BUILT_IN_TEMPLATE.sections };
}

/** Whether the recording has a completed transcript to summarize (a re-run in flight keeps the previous one). */
export function hasCompletedTranscript(recording: Recording): boolean {
  return recording.related.transcript;
}

/** Why a summary with this template cannot be queued now, if it cannot. */
export function refusalOf(recording: Recording, template: TemplateSnapshot, now: Date): ConflictError | undefined {
  const digests = recording.summaries ?? [];
  if (digests.some((digest) => digest.template_id === template.id && isSummaryInFlight(digest, now))) {
    return new ConflictError(
      'SUMMARY_IN_PROGRESS',
      `Recording ${recording.id} already has a summary with template ${template.id ?? `"${template.name}"`} queued or running.`,
    );
  }
  if (digests.length >= MAX_SUMMARIES_PER_RECORDING) {
    return new ConflictError(
      'SUMMARY_LIMIT_REACHED',
      `Recording ${recording.id} has ${MAX_SUMMARIES_PER_RECORDING} summaries, the most allowed: delete one first.`,
    );
  }
  return undefined;
}

/**
 * Create summary (both hosts): queues a summary of the recording's transcript with the template
 * named (else the default, else the built-in one). Its refusals are the route's
 * (shared/routes/summaries/summary-docs.ts). The checks are made true by the commit's condition on the
 * recording as read: two requests at once never both pass them.
 */
export async function createSummary(
  deps: SummaryQueueDeps,
  caller: Caller,
  recordingId: string,
  body: { template_id?: string } | undefined,
): Promise<SummaryRecord> {
  const readable = async () => {
    const recording = await getRecording(deps.db, caller.orgId, recordingId, { consistent: true });
    if (!recording || recording.deleted_at) throw recordingNotFound(recordingId);
    if (caller.kind === 'user_key' && recording.recorded_by !== caller.userId) throw recordingNotFound(recordingId);
    if (!hasCompletedTranscript(recording))
      throw new ConflictError('TRANSCRIPT_NOT_READY', `Recording ${recordingId} has no completed transcript yet.`);
    return recording;
  };
  // The recording's refusals come before the template's; its first read serves the first attempt.
  let firstRead: Recording | undefined = await readable();
  const template = await templateFor(deps.db, caller.orgId, body?.template_id);
  const id = deps.newSummaryId();
  return retryOnWriteConflict(
    async () => {
      const recording = firstRead ?? (await readable());
      firstRead = undefined;
      const now = deps.now();
      const refusal = refusalOf(recording, template, now);
      if (refusal) throw refusal;
      const summary = queuedSummary(recording, id, template, now);
      await commitSummaryTransition(deps.db, {
        before: recording,
        after: withDigest(recording, summary, now),
        put: { summary, expect: 'new' },
      });
      return summary;
    },
    { attempts: 10, exhausted: CONCURRENT },
  );
}

/** What the automatic summary did with a completed transcription. */
export type AutoSummaryOutcome = 'queued' | 'ignored' | 'in_progress' | 'limit_reached';
