import type { TableContext } from './dynamo';
import { itemFields, nestedItemFields } from './item-fields';
import { keys } from './keys';
import { batchWriteAll, queryAll } from './query-all';
import type { Recording } from './recording-items';
import { chunkSegments, transcriptChunkFromItem, type TranscriptSegment } from './recording-part-items';
import { recordingPutAsRead } from './recording-writes';
import { commitParts, type TransactionPart } from './transactions';

/**
 * A recording's translations as items (docs/translations.md, docs/data-model.md): the
 * recording's `translation` (the latest request), and per language a header and the
 * translated transcript's chunks, under the recording's translations partition. A run writes
 * its chunks as a set named after its attempt, then commits the recording and the header that
 * points to the set; the previous set of that language goes after.
 */

/** The translated latest summary, stored with the translation (null when the recording had none). */
export interface TranslatedSummary {
  id: string;
  markdown: string;
}

/** A language's translation header: which run wrote it, where its chunks are, and the translated summary. */
export interface TranslationHeader {
  /** The translation's id (the run that wrote it). */
  id: string;
  language: string;
  from_language: string;
  segment_count: number;
  chunk_count: number;
  chunk_set: number;
  summary: TranslatedSummary | null;
  created_at: string;
  updated_at: string;
}

const pad = (n: number) => String(n).padStart(4, '0');
const chunkKey = (language: string, set: number, index: number) => `${language}#${pad(set)}#${pad(index)}`;

function headerFromItem(item: Record<string, unknown>): TranslationHeader {
  const fields = itemFields(item, 'translation header');
  let summary: TranslatedSummary | null = null;
  if (item.summary !== undefined && item.summary !== null) {
    const summaryFields = nestedItemFields(item, item.summary, 'translated summary');
    summary = { id: summaryFields.string('id'), markdown: summaryFields.string('markdown') };
  }
  return {
    id: fields.string('id'),
    language: fields.string('language'),
    from_language: fields.string('from_language'),
    segment_count: fields.number('segment_count'),
    chunk_count: fields.number('chunk_count'),
    chunk_set: fields.number('chunk_set'),
    summary,
    created_at: fields.string('created_at'),
    updated_at: fields.string('updated_at'),
  };
}

/** One transition of a recording's translation, planned by the domain. */
export interface TranslationTransition {
  /** The recording as read: the write relies on its `updated_at` and bin still being these. */
  before: Recording;
  after: Recording;
  /** A completion's header, pointing to the chunk set written before the commit. */
  header?: TranslationHeader;
}

export type TranslationPart = 'recording' | 'header';

/** Commits a transition all-or-nothing: the recording only while unchanged since read (same bin), and the language's header. */
export async function commitTranslationTransition(db: TableContext, transition: TranslationTransition): Promise<void> {
  const { before, after } = transition;
  const inTrash = before.deleted_at !== undefined;
  const parts: TransactionPart<TranslationPart>[] = [
    { name: 'recording', write: recordingPutAsRead(db, before, after, inTrash ? 'TRASH' : 'LIVE') },
  ];
  const { header } = transition;
  if (header)
    parts.push({
      name: 'header',
      write: {
        Put: { TableName: db.tableName, Item: { ...keys.recordingTranslation(after.org_id, after.id, header.language), ...header } },
      },
    });
  await commitParts(db, parts);
}

/** Writes a translated transcript's segments as the chunks of one set (before the header that points to them). Returns how many chunks. */
export async function writeTranslationChunks(
  db: TableContext,
  orgId: string,
  recordingId: string,
  language: string,
  chunkSet: number,
  segments: TranscriptSegment[],
): Promise<number> {
  const chunks = chunkSegments(segments);
  await batchWriteAll(
    db,
    chunks.map((chunk, index) => ({
      PutRequest: { Item: { ...keys.recordingTranslation(orgId, recordingId, chunkKey(language, chunkSet, index + 1)), segments: chunk } },
    })),
  );
  return chunks.length;
}

/** The items of one language (header and every chunk set), in key order: one query. */
async function languageItems(db: TableContext, orgId: string, recordingId: string, language: string, options: { keysOnly?: boolean } = {}) {
  const { PK } = keys.recordingTranslation(orgId, recordingId, language);
  return queryAll(db, {
    TableName: db.tableName,
    // `es` up to `es#~`: the header and its chunks, never another language's (`es-MX` sorts after `es#~`).
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': PK, ':from': language, ':to': `${language}#~` },
    ...(options.keysOnly ? { ProjectionExpression: 'PK, SK' } : {}),
    ConsistentRead: true,
  });
}

/** Deletes a language's chunks but one set (a run committed), or one set (a run discarded). Idempotent. */
export async function deleteTranslationChunks(
  db: TableContext,
  orgId: string,
  recordingId: string,
  language: string,
  which: { keepSet: number } | { onlySet: number },
): Promise<number> {
  const items = await languageItems(db, orgId, recordingId, language, { keysOnly: true });
  const setPrefix = (set: number) => `${language}#${pad(set)}#`;
  const doomed = items
    .map((item) => ({ PK: String(item.PK), SK: String(item.SK) }))
    .filter(
      ({ SK }) =>
        SK !== language && ('keepSet' in which ? !SK.startsWith(setPrefix(which.keepSet)) : SK.startsWith(setPrefix(which.onlySet))),
    );
  await batchWriteAll(
    db,
    doomed.map((Key) => ({ DeleteRequest: { Key } })),
  );
  return doomed.length;
}

/** A language's translation: its header and the translated segments of the header's set; undefined when there is none. One query. */
export async function readTranslation(
  db: TableContext,
  orgId: string,
  recordingId: string,
  language: string,
): Promise<{ header: TranslationHeader; segments: TranscriptSegment[] } | undefined> {
  const items = await languageItems(db, orgId, recordingId, language);
  const headerItem = items.find((item) => item.SK === language);
  if (!headerItem) return undefined;
  const header = headerFromItem(headerItem);
  const prefix = `${language}#${pad(header.chunk_set)}#`;
  const segments = items
    .filter((item) => String(item.SK).startsWith(prefix))
    .sort((a, b) => String(a.SK).localeCompare(String(b.SK)))
    .flatMap((item) => transcriptChunkFromItem(item));
  return { header, segments };
}

/** Deletes every translation item of a recording deleted for good. Idempotent; returns how many went. */
export async function deleteAllTranslations(db: TableContext, orgId: string, recordingId: string): Promise<number> {
  const { PK } = keys.recordingTranslation(orgId, recordingId, '');
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': PK },
    ProjectionExpression: 'PK, SK',
    ConsistentRead: true,
  });
  await batchWriteAll(
    db,
    items.map((item) => ({ DeleteRequest: { Key: { PK: String(item.PK), SK: String(item.SK) } } })),
  );
  return items.length;
}
