import { withSpeakerNames } from '../speakers/speaker-names';
import type { ExportObjects } from '../../storage/export-objects';
import type { TableContext } from '../../storage/dynamo';
import { othersSummarizedRecordingPages, recorderRecordingPages, translationLanguages } from '../../storage/member-export-sources';
import type { Recording } from '../../storage/recording-items';
import { getRecordingWithParts } from '../../storage/recordings';
import { listSummaryItems } from '../../storage/summaries';
import { readTranslation } from '../../storage/translations';
import { RECORDING_INCLUDES } from '../../schemas/recordings';
import { renderTranscript } from '../../transcription/transcript-formats';
import { getRecording } from '../recordings/get-recording';
// A recording part's action items (fixtures' legacy parts) are shown as Get recording shows them.
import { actionItemView as partActionItemView, recordingView } from '../recordings/recording-views';
import { actionItemView, summaryView } from '../summaries/summary-views';
import { jsonEntry, type ZipEntry } from './zip-writer';

/**
 * The recordings part of a member's export: each recording they recorded in the organization
 * (live, then in the trash), shaped by the API's own views, so the files hold what Get
 * recording, List summaries and Get transcript answer; and the action items assigned to them
 * in others' recordings.
 */

export interface RecordingReadDeps {
  db: TableContext;
  objects: Pick<ExportObjects, 'openObject'>;
}

/** Recordings prepared ahead of the one being written: reads overlap, memory holds at most this many recordings' JSON. */
const READ_AHEAD = 8;

/** What the recordings part counts as it is written. */
export interface RecordingCounts {
  recordings: number;
  media_files: number;
}

/** The files of every recording the member recorded; `counts` moves as each is written. */
export async function* recordingEntries(
  deps: RecordingReadDeps,
  orgId: string,
  userId: string,
  includeMedia: boolean,
  counts: RecordingCounts,
): AsyncGenerator<ZipEntry> {
  for (const bin of ['LIVE', 'TRASH'] as const) {
    const recordings = flatten(recorderRecordingPages(deps.db, orgId, userId, bin));
    const files = mapAhead(recordings, READ_AHEAD, (recording) => recordingFiles(deps, orgId, recording, includeMedia, counts));
    for await (const entries of files) {
      yield* entries;
      counts.recordings += 1;
    }
  }
}

async function recordingFiles(
  deps: RecordingReadDeps,
  orgId: string,
  recording: Recording,
  includeMedia: boolean,
  counts: RecordingCounts,
): Promise<ZipEntry[]> {
  const folder = `recordings/${recording.id}`;
  const [view, summaries, translations] = await Promise.all([
    recordingViewOf(deps.db, orgId, recording),
    recording.summaries?.length ? listSummaryItems(deps.db, orgId, recording.id) : [],
    translationsOf(deps.db, orgId, recording.id, recording.speakers),
  ]);
  summaries.sort((a, b) => (a.created_at === b.created_at ? b.id.localeCompare(a.id) : b.created_at.localeCompare(a.created_at)));
  const entries = [
    jsonEntry(`${folder}/recording.json`, view),
    jsonEntry(`${folder}/summaries.json`, { summaries: summaries.map(summaryView) }),
    ...translations.map((translation) => jsonEntry(`${folder}/translations/${translation.language}.json`, translation)),
  ];
  const uploaded = recording.upload?.uploaded_at ? recording.upload : undefined;
  if (includeMedia && uploaded) {
    entries.push({
      name: `${folder}/media/${uploaded.s3_key.split('/').at(-1)}`,
      // Opened when its turn comes, not while the recording is read ahead: one download is open at a time.
      content: () => deps.objects.openObject(uploaded.s3_key),
      compress: false,
      written: () => (counts.media_files += 1),
    });
  }
  return entries;
}

/**
 * Get recording with every include, as the route answers it; a recording in the trash (which
 * Get recording does not show) the same way, with when it went there and when it is purged.
 */
async function recordingViewOf(db: TableContext, orgId: string, recording: Recording) {
  if (!recording.deleted_at) {
    const { recording: current, parts, speakers } = await getRecording(db, orgId, recording.id, RECORDING_INCLUDES);
    return recordingView(current, parts, [...RECORDING_INCLUDES], undefined, speakers);
  }
  const { recording: current, parts } = await getRecordingWithParts(db, orgId, recording.id);
  return {
    ...recordingView(current ?? recording, parts, [...RECORDING_INCLUDES]),
    deleted_at: recording.deleted_at,
    purge_at: recording.purge_at ?? null,
  };
}

/** Each language's translation: its header, translated summary, and transcript as Get transcript answers with `language` and `format=json`. */
async function translationsOf(db: TableContext, orgId: string, recordingId: string, speakers: Recording['speakers']) {
  const languages = await translationLanguages(db, orgId, recordingId);
  const translations = await Promise.all(languages.map((language) => readTranslation(db, orgId, recordingId, language)));
  return translations.flatMap((translation) => {
    if (!translation) return [];
    const { header, segments } = translation;
    const rendered = renderTranscript('json', {
      recordingId,
      language: header.language,
      segments: withSpeakerNames(segments, speakers),
      speakers,
    });
    return [
      {
        id: header.id,
        language: header.language,
        from_language: header.from_language,
        created_at: header.created_at,
        updated_at: header.updated_at,
        summary: header.summary,
        transcript: JSON.parse(rendered.body) as unknown,
      },
    ];
  });
}

/**
 * The action items that name the member (`assignee_user_id`) in others' live recordings, a
 * page of recordings at a time: the summaries' items, or a fixture's action items part.
 */
export async function* assignedActionItemPages(db: TableContext, orgId: string, userId: string): AsyncGenerator<unknown[]> {
  for await (const page of othersSummarizedRecordingPages(db, orgId, userId)) {
    const found = await Promise.all(
      page.map(async (recording) => {
        if (recording.summaryIds.length) {
          const summaries = await listSummaryItems(db, orgId, recording.id);
          return summaries.flatMap((summary) =>
            summary.action_items
              .filter((item) => item.assignee_user_id === userId)
              .map((item) => ({
                recording_id: recording.id,
                recorded_by: recording.recorded_by,
                summary_id: summary.id,
                ...actionItemView(item),
              })),
          );
        }
        const { parts } = await getRecordingWithParts(db, orgId, recording.id);
        // A fixture's items name their assignee by user id (their mapper leaves assignee_user_id out).
        return (parts.action_items ?? [])
          .filter((item) => (item.assignee_user_id ?? item.assignee) === userId)
          .map((item) => ({
            recording_id: recording.id,
            recorded_by: recording.recorded_by,
            summary_id: null,
            ...partActionItemView(item),
          }));
      }),
    );
    const items = found.flat();
    if (items.length) yield items;
  }
}

async function* flatten<T>(pages: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const page of pages) yield* page;
}

/**
 * `map` over a source with up to `ahead` calls in flight, answers in the source's order: the
 * reads of the next recordings overlap the writing of the current one.
 */
export async function* mapAhead<T, R>(source: AsyncIterable<T>, ahead: number, map: (value: T) => Promise<R>): AsyncGenerator<R> {
  const pending: Promise<R>[] = [];
  for await (const value of source) {
    const next = map(value);
    // Never an unhandled rejection while it waits its turn: awaited below, in order.
    next.catch(() => undefined);
    pending.push(next);
    if (pending.length >= ahead) yield await pending.shift()!;
  }
  while (pending.length) yield await pending.shift()!;
}
