import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TranslationRunDeps } from '../../shared/domain/translations/run-translation';
import type { TableContext } from '../../shared/storage/dynamo';
import { recordingItem, type Recording, type RecordingTranslation } from '../../shared/storage/recording-items';
import { partItems, type TranscriptSegment } from '../../shared/storage/recording-part-items';
import { batchWriteAll } from '../../shared/storage/query-all';
import type { Translator } from '../../shared/translation/translator';

/** What the translation suites share: a transcribed recording written as is, and an in-memory translator that records its calls. */

export const TURNS: TranscriptSegment[] = [
  { speaker: 'Speaker 1', text: 'The budget for the new office is approved.', start: 0.5, end: 3.2 },
  { speaker: 'Speaker 2', text: 'Maria will send the contract by Friday.', start: 3.4, end: 6.1 },
  { speaker: 'Speaker 1', text: 'We need to review the schedule.', start: 6.5, end: 8.9 },
];

/**
 * A transcribed recording (its transcript items), written directly: an INSERT gives only
 * `recording.created`, so a translation written already queued starts no consumer of the
 * deployment's, and the test runs the consumer's domain function itself.
 */
export async function putTranscribedRecording(
  db: TableContext,
  input: {
    orgId: string;
    userId: string;
    id: string;
    at: string;
    language?: string;
    segments?: TranscriptSegment[];
    translation?: RecordingTranslation;
  },
): Promise<Recording> {
  const segments = input.segments ?? TURNS;
  const recording: Recording = {
    id: input.id,
    org_id: input.orgId,
    recorded_by: input.userId,
    title: 'Weekly call',
    description: '',
    duration: 9,
    language: input.language ?? 'en-US',
    tags: [],
    folder_id: null,
    state: 'ready',
    created_at: input.at,
    updated_at: input.at,
    recording_at: input.at,
    related: { transcript: true, summary: false, action_items: false, translation: false },
    ...(input.translation ? { translation: input.translation } : {}),
  };
  const header = {
    id: `${input.id}_transcript`,
    language: recording.language,
    segment_count: segments.length,
    chunk_count: 0,
    created_at: input.at,
    updated_at: input.at,
  };
  await batchWriteAll(
    db,
    partItems(input.orgId, input.id, { transcript: { header, segments } }).map((Item) => ({ PutRequest: { Item } })),
  );
  await db.client.send(new PutCommand({ TableName: db.tableName, Item: recordingItem(recording) }));
  return recording;
}

/** A queued translation as Translate recording writes it. */
export const queuedRun = (id: string, to = 'es', attempt = 1, at = '2030-04-01T10:00:00.000Z'): RecordingTranslation => ({
  id,
  status: 'queued',
  from_language: 'en',
  to_language: to,
  attempt,
  created_at: at,
  updated_at: at,
});

/** An in-memory translator: each text becomes `[to] text`, or what `behave` does instead (throw, change the table...). */
export function fakeTranslator(
  behave?: (texts: string[], from: string, to: string) => Promise<string[] | undefined>,
): Translator & { calls: { texts: string[]; from: string; to: string }[] } {
  const calls: { texts: string[]; from: string; to: string }[] = [];
  return {
    calls,
    async translate(texts, from, to) {
      calls.push({ texts, from, to });
      const answer = behave ? await behave(texts, from, to) : undefined;
      return answer ?? texts.map((text) => (text ? `[${to}] ${text}` : ''));
    },
  };
}

export function runDepsAt(
  db: TableContext,
  clock: { now: Date },
  translator: Translator,
  summary?: { id: string; markdown: string },
): TranslationRunDeps {
  return { db, now: () => clock.now, translator, latestSummary: async () => summary };
}
