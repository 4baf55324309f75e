import { randomBytes } from 'node:crypto';
import type { Catalog } from './catalog';
import { objectAt } from './search-error';

/**
 * Single documents: PUT/POST /{index}/_doc/{id} (and POST /{index}/_doc for a generated id),
 * PUT /{index}/_create/{id}, GET/HEAD and DELETE /{index}/_doc/{id}, answered as OpenSearch does.
 * Answers undefined for a path or method it does not handle, which the router refuses.
 */
type Reply = { status: number; body?: unknown };

export function documentRoute(
  catalog: Catalog,
  method: string,
  target: string,
  operation: '_doc' | '_create',
  rest: string[],
  json: () => unknown,
): (() => Reply) | undefined {
  const id = rest[0];
  if (rest.length > 1) return undefined;
  const write = (documentId: string, create: boolean) => (): Reply => {
    const index = catalog.writeTarget(target);
    const source = objectAt(json(), 'document');
    const put = index.put(documentId, source, create);
    catalog.save([index], put.mappingsChanged);
    const { _id, _version, _seq_no } = put.document;
    const result = put.created ? 'created' : 'updated';
    return {
      status: put.created ? 201 : 200,
      body: { _index: index.name, _id, _version, result, _shards: { total: 2, successful: 1, failed: 0 }, _seq_no, _primary_term: 1 },
    };
  };
  if (operation === '_create') return id !== undefined && (method === 'PUT' || method === 'POST') ? write(id, true) : undefined;
  if (id === undefined) return method === 'POST' ? write(randomBytes(15).toString('base64url'), false) : undefined;
  if (method === 'PUT' || method === 'POST') return write(id, false);
  if (method === 'GET' || method === 'HEAD')
    return () => {
      const index = catalog.writeTarget(target);
      const document = index.docs.get(id);
      if (!document) return { status: 404, body: { _index: index.name, _id: id, found: false } };
      const { _version, _seq_no, _source } = document;
      return { status: 200, body: { _index: index.name, _id: id, _version, _seq_no, _primary_term: 1, found: true, _source } };
    };
  if (method === 'DELETE')
    return () => {
      const index = catalog.writeTarget(target);
      const removed = index.remove(id);
      if (removed) catalog.save([index], false);
      const body = {
        _index: index.name,
        _id: id,
        _version: removed?._version ?? 1,
        result: removed ? 'deleted' : 'not_found',
        _shards: { total: 2, successful: 1, failed: 0 },
        _seq_no: removed?._seq_no ?? index.seqNo,
        _primary_term: 1,
      };
      return { status: removed ? 200 : 404, body };
    };
  return undefined;
}
