import type { TableContext } from './dynamo';
import { keys } from './keys';
import { membershipFromItem, type Membership } from './membership-items';
import { batchGetAll } from './query-all';
import type { Recording } from './recording-items';
import { summaryFromItem, transcriptHeaderFromItem, translationFromItem, type RecordingParts } from './recording-part-items';
import { tagFromItem, type Tag } from './tags';

/** What a page of recordings is shown with: its recorders, its tags and each recording's processing results. */
export interface PageRelations {
  /** By user id; a recorder who left the organization is absent. */
  recorders: Map<string, Membership>;
  /** By tag id; a deleted tag is absent. */
  tags: Map<string, Tag>;
  /** By recording id: summary, transcript header (without segments) and translation, as flagged in `related`. */
  parts: Map<string, RecordingParts>;
}

/**
 * Reads the recorders, tags and the summary, transcript header and translation of a page
 * of recordings in one BatchGetItem round (one request per 100 keys, sent together), so a
 * page costs the same number of round trips whatever its size. Each key is asked for with
 * the mapper of its entity, so an item is read as what it was asked for.
 */
export async function readPageRelations(db: TableContext, orgId: string, recordings: Recording[]): Promise<PageRelations> {
  const relations: PageRelations = { recorders: new Map(), tags: new Map(), parts: new Map() };
  const wanted = new Map<string, { key: { PK: string; SK: string }; read: (item: Record<string, unknown>) => void }>();
  const want = (key: { PK: string; SK: string }, read: (item: Record<string, unknown>) => void) =>
    wanted.set(`${key.PK}|${key.SK}`, { key, read });
  const partsOf = (recordingId: string) => {
    let parts = relations.parts.get(recordingId);
    if (!parts) relations.parts.set(recordingId, (parts = {}));
    return parts;
  };
  for (const recording of recordings) {
    want(keys.membership(orgId, recording.recorded_by), (item) => relations.recorders.set(recording.recorded_by, membershipFromItem(item)));
    for (const tagId of recording.tags) want(keys.tag(orgId, tagId), (item) => relations.tags.set(tagId, tagFromItem(item)));
    const part = (name: string, read: (item: Record<string, unknown>, parts: RecordingParts) => void) =>
      want(keys.recordingPart(orgId, recording.id, name), (item) => read(item, partsOf(recording.id)));
    // A recording whose summaries were written lists them in its digest: only an older one's fixture summary is an item to read.
    if (recording.related.summary && !recording.summaries) part('SUMMARY', (item, parts) => (parts.summary = summaryFromItem(item)));
    if (recording.related.transcript)
      part('TRANSCRIPT', (item, parts) => (parts.transcript = { header: transcriptHeaderFromItem(item), segments: [] }));
    if (recording.related.translation) part('TRANSLATION', (item, parts) => (parts.translation = translationFromItem(item)));
  }
  for (const item of await batchGetAll(
    db,
    [...wanted.values()].map(({ key }) => key),
  )) {
    wanted.get(`${String(item.PK)}|${String(item.SK)}`)?.read(item);
  }
  return relations;
}
