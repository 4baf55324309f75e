import { randomBytes } from 'node:crypto';
import type { Catalog } from './catalog';
import type { SearchIndex, StoredDocument } from './search-index';
import { illegalArgument, SearchError, textOf, unsupported } from './search-error';

/**
 * POST /_bulk: NDJSON pairs of an action line and (for index and create) a document line. Each
 * item succeeds or fails on its own, as on a cluster (`errors` says whether any failed); a line
 * that is not an action, or an action the stand-in does not do (update), fails the whole request.
 * Writes are visible to the next search at once, so `refresh` changes nothing.
 */
type Item = Record<string, Record<string, unknown>>;

const SHARDS = { total: 2, successful: 1, failed: 0 };

function parseLine(line: string, number: number): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Answered below with the line's number.
  }
  throw new SearchError(400, 'x_content_parse_exception', `[${number}:1] Malformed bulk line, expected a JSON object`);
}

/** OpenSearch's auto-generated ids: 20 URL-safe base64 characters. */
function generatedId(): string {
  return randomBytes(15).toString('base64url');
}

function written(index: SearchIndex, document: StoredDocument, result: string, status: number): Record<string, unknown> {
  return {
    _index: index.name,
    _id: document._id,
    _version: document._version,
    result,
    _shards: SHARDS,
    _seq_no: document._seq_no,
    _primary_term: 1,
    status,
  };
}

function failed(index: string, id: string | undefined, error: SearchError): Record<string, unknown> {
  return {
    _index: index,
    _id: id ?? null,
    status: error.status,
    error: { type: error.type, reason: error.reason, index, ...error.fields },
  };
}

/** Runs a bulk body; answers the response and the indices whose documents (and maybe mappings) changed. */
export function bulk(
  catalog: Catalog,
  text: string,
  defaultIndex: string | undefined,
  generatedIdsOnly = false,
): { response: Record<string, unknown>; changed: Set<SearchIndex>; mappingsChanged: boolean } {
  const started = Date.now();
  if (text.length && !text.endsWith('\n')) throw illegalArgument('The bulk request must be terminated by a newline [\\n]');
  const lines = text.split('\n');
  const items: Item[] = [];
  const changed = new Set<SearchIndex>();
  let mappingsChanged = false;
  let i = 0;
  const operations: { action: string; meta: Record<string, unknown>; source?: Record<string, unknown> }[] = [];
  // The whole body is parsed before anything is written, so that a malformed line changes nothing.
  while (i < lines.length) {
    if (!lines[i].trim()) {
      i++;
      continue;
    }
    const line = parseLine(lines[i], i + 1);
    const actions = Object.keys(line);
    const action = actions[0];
    if (actions.length !== 1 || !['index', 'create', 'delete', 'update'].includes(action))
      throw illegalArgument(
        `Malformed action/metadata line [${i + 1}], expected one of [create, delete, index, update] but found [${actions.join(', ')}]`,
      );
    if (action === 'update') throw unsupported(`the bulk action [update] (line ${i + 1}): index the whole document instead`);
    const meta = (line[action] ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(meta))
      if (key !== '_index' && key !== '_id')
        throw illegalArgument(`Action/metadata line [${i + 1}] contains an unknown parameter [${key}]`);
    i++;
    if (action === 'delete') {
      operations.push({ action, meta });
      continue;
    }
    if (i >= lines.length || !lines[i].trim())
      throw illegalArgument(`The bulk request's [${action}] action on line [${i}] has no document line`);
    operations.push({ action, meta, source: parseLine(lines[i], i + 1) });
    i++;
  }
  if (!operations.length) throw new SearchError(400, 'action_request_validation_exception', 'Validation Failed: 1: no requests added;');

  for (const { action, meta, source } of operations) {
    const indexName = meta._index === undefined ? (defaultIndex ?? '') : textOf(meta._index);
    const id = meta._id === undefined || meta._id === null ? undefined : textOf(meta._id);
    try {
      if (!indexName) throw new SearchError(400, 'action_request_validation_exception', 'Validation Failed: 1: index is missing;');
      const index = catalog.writeTarget(indexName);
      if (action === 'delete') {
        if (id === undefined) throw new SearchError(400, 'action_request_validation_exception', 'Validation Failed: 1: id is missing;');
        const removed = index.remove(id);
        if (removed) changed.add(index);
        const item = removed
          ? written(index, removed, 'deleted', 200)
          : {
              _index: index.name,
              _id: id,
              _version: 1,
              result: 'not_found',
              _shards: SHARDS,
              _seq_no: ++index.seqNo,
              _primary_term: 1,
              status: 404,
            };
        items.push({ delete: item });
        continue;
      }
      if (generatedIdsOnly && id !== undefined) throw illegalArgument('Document ID is not supported in create/index operation request');
      const put = index.put(id ?? generatedId(), source ?? {}, action === 'create');
      changed.add(index);
      mappingsChanged ||= put.mappingsChanged;
      items.push({ [action]: written(index, put.document, put.created ? 'created' : 'updated', put.created ? 201 : 200) });
    } catch (error) {
      if (!(error instanceof SearchError)) throw error;
      items.push({ [action]: failed(indexName, id, error) });
    }
  }
  const errors = items.some((item) => Object.values(item).some((entry) => 'error' in entry));
  return { response: { took: Date.now() - started, errors, items }, changed, mappingsChanged };
}
