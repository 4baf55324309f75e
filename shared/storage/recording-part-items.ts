import { itemFields, nestedItemFields } from './item-fields';
import { keys } from './keys';
import { summaryItem, type SummaryRecord } from './summary-items';

/**
 * A recording's related items (transcript, summary, action items, translation): types, item
 * builders and the explicit mappers. No DynamoDB client here, as in recording-items.ts.
 */
type Item = Record<string, unknown>;

export interface TranscriptSegment {
  speaker: string;
  text: string;
  start: number;
  end: number;
}
export interface Summary {
  markdown: string;
  /** The template it was made with; kept when the template is deleted. */
  template_id?: string | null;
  template_name?: string | null;
  created_at: string;
  updated_at: string;
}
export interface ActionItem {
  id: string;
  text: string;
  assignee: string | null;
  /** Set on a written summary's items (shared/storage/summary-items.ts); a fixture's have none. */
  assignee_user_id?: string | null;
  due_date: string | null;
  completed: boolean;
  timestamp?: number | null;
}
export interface Translation {
  id: string;
  created_at: string;
  updated_at: string;
  detected_language: string;
  to_language: string;
  processing_status: string;
  error_message: string;
}
export interface TranscriptHeader {
  id: string;
  language: string;
  segment_count: number;
  chunk_count: number;
  /**
   * The set its chunks were written under (`TRANSCRIPT#<set>#<index>`: the transcription's
   * attempt); absent, they are `TRANSCRIPT#<index>` (fixtures). A re-run writes a new set
   * before its header points to it, so a reader never mixes two transcripts.
   */
  chunk_set?: number;
  created_at: string;
  updated_at: string;
}

/** Everything a recording's related items hold. */
export interface RecordingParts {
  transcript?: { header: TranscriptHeader; segments: TranscriptSegment[] };
  summary?: Summary;
  action_items?: ActionItem[];
  translation?: Translation;
  /** Written summaries' items (the fixture loader writes its summaries so: docs/summaries.md); their digests are on the recording. */
  summaries?: SummaryRecord[];
}

/** Transcript segments per chunk item: keeps each chunk far below DynamoDB's 400 KB item limit. */
export const TRANSCRIPT_CHUNK_BYTES = 200_000;

/** Maps a stored summary item; the template it was made with may be absent or null. */
export function summaryFromItem(item: Item): Summary {
  const fields = itemFields(item, 'summary');
  return {
    markdown: fields.string('markdown'),
    template_id: fields.nullableString('template_id'),
    template_name: fields.nullableString('template_name'),
    created_at: fields.string('created_at'),
    updated_at: fields.string('updated_at'),
  };
}

/** Maps a stored action items item (its `items` list, in order). */
export function actionItemsFromItem(item: Item): ActionItem[] {
  return itemFields(item, 'action items')
    .list('items')
    .map((entry) => {
      const fields = nestedItemFields(item, entry, 'action item');
      return {
        id: fields.string('id'),
        text: fields.string('text'),
        assignee: fields.nullableString('assignee'),
        due_date: fields.nullableString('due_date'),
        completed: fields.boolean('completed'),
      };
    });
}

/** Maps a stored translation item. */
export function translationFromItem(item: Item): Translation {
  const fields = itemFields(item, 'translation');
  return {
    id: fields.string('id'),
    created_at: fields.string('created_at'),
    updated_at: fields.string('updated_at'),
    detected_language: fields.string('detected_language'),
    to_language: fields.string('to_language'),
    processing_status: fields.string('processing_status'),
    error_message: fields.string('error_message'),
  };
}

/** Maps a stored transcript header item (the segments are in its chunk items). */
export function transcriptHeaderFromItem(item: Item): TranscriptHeader {
  const fields = itemFields(item, 'transcript header');
  const header: TranscriptHeader = {
    id: fields.string('id'),
    language: fields.string('language'),
    segment_count: fields.number('segment_count'),
    chunk_count: fields.number('chunk_count'),
    created_at: fields.string('created_at'),
    updated_at: fields.string('updated_at'),
  };
  const chunkSet = fields.optionalNumber('chunk_set');
  if (chunkSet !== undefined) header.chunk_set = chunkSet;
  return header;
}

/** The part name of a transcript chunk: `TRANSCRIPT#<index>`, or `TRANSCRIPT#<set>#<index>` in a set (both 4 digits from 1). */
export function transcriptChunkPart(index: number, chunkSet?: number): string {
  const pad = (n: number) => String(n).padStart(4, '0');
  return chunkSet === undefined ? `TRANSCRIPT#${pad(index)}` : `TRANSCRIPT#${pad(chunkSet)}#${pad(index)}`;
}

/** Maps a stored transcript chunk item: its segments, in order. */
export function transcriptChunkFromItem(item: Item): TranscriptSegment[] {
  return itemFields(item, 'transcript chunk')
    .list('segments')
    .map((entry) => {
      const fields = nestedItemFields(item, entry, 'transcript segment');
      return { speaker: fields.string('speaker'), text: fields.string('text'), start: fields.number('start'), end: fields.number('end') };
    });
}

/** The related items of a recording (transcript split into chunks). */
export function partItems(orgId: string, recordingId: string, parts: RecordingParts) {
  const items: Record<string, unknown>[] = [];
  const key = (part: string) => keys.recordingPart(orgId, recordingId, part);
  if (parts.summary) items.push({ ...key('SUMMARY'), ...parts.summary });
  if (parts.action_items) items.push({ ...key('ACTIONS'), items: parts.action_items });
  if (parts.translation) items.push({ ...key('TRANSLATION'), ...parts.translation });
  for (const summary of parts.summaries ?? []) items.push(summaryItem(summary));
  if (parts.transcript) {
    const chunks = chunkSegments(parts.transcript.segments);
    items.push({
      ...key('TRANSCRIPT'),
      ...parts.transcript.header,
      segment_count: parts.transcript.segments.length,
      chunk_count: chunks.length,
    });
    chunks.forEach((segments, index) => items.push({ ...key(transcriptChunkPart(index + 1)), segments }));
  }
  return items;
}

/** Segments in chunks of at most TRANSCRIPT_CHUNK_BYTES each (a segment's JSON plus some overhead). */
export function chunkSegments(segments: TranscriptSegment[]): TranscriptSegment[][] {
  const chunks: TranscriptSegment[][] = [];
  let current: TranscriptSegment[] = [];
  let size = 0;
  for (const segment of segments) {
    const segmentSize = Buffer.byteLength(JSON.stringify(segment)) + 16;
    if (current.length && size + segmentSize > TRANSCRIPT_CHUNK_BYTES) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(segment);
    size += segmentSize;
  }
  if (current.length) chunks.push(current);
  return chunks;
}
