import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync, inflateSync } from 'node:zlib';
import type { Emulator } from './emulators';
import { deleteAlias, getAliases, putAlias, updateAliases } from './search/aliases';
import { bulk } from './search/bulk';
import { Catalog } from './search/catalog';
import { documentRoute } from './search/document-routes';
import { illegalArgument, SearchError } from './search/search-error';
import { count, deleteByQuery, search } from './search/search-request';

/**
 * A local stand-in of the OpenSearch REST API for `npm start` and the tests, so that the product's
 * search adapter runs unchanged on the official @opensearch-project/opensearch client against it
 * with its endpoint. MiniSearch is the engine. It does a subset: index create/exists/delete,
 * aliases, _bulk (index, create, delete), single documents, _search, _count, _delete_by_query,
 * and a query DSL subset (search/query.ts). Whatever is outside it (an endpoint, a query clause,
 * an option) answers 400 naming it, in OpenSearch's error shape, so that nothing is quietly
 * answered differently from a cluster. Indices live in `dataDir` (search/catalog.ts) and are
 * saved before each write is answered.
 */
export interface SearchEmulatorOptions {
  host: string;
  /** 0 (the default) for any free port. */
  port?: number;
  dataDir: string;
  /**
   * Answer as an OpenSearch Serverless vector search collection does, where the deployment's
   * adapter runs: no _delete_by_query, and no document ids chosen by the client (the collection
   * generates them). Off, the stand-in is plain OpenSearch (its own tests use ids).
   */
  serverlessVectorCollection?: boolean;
}

interface Reply {
  status: number;
  body?: unknown;
}

const CLUSTER_INFO = {
  name: 'voice-org-local',
  cluster_name: 'voice-org-local',
  cluster_uuid: 'voice-org-local-search-stand-in',
  version: {
    distribution: 'opensearch',
    number: '2.17.0',
    build_type: 'tar',
    build_hash: 'local',
    build_date: '2024-09-13T00:00:00.000000Z',
    build_snapshot: false,
    lucene_version: '9.11.1',
    minimum_wire_compatibility_version: '7.10.0',
    minimum_index_compatibility_version: '7.0.0',
  },
  tagline: 'The OpenSearch Project: https://opensearch.org/',
};

/** Query parameters each kind of request accepts; any other is refused as OpenSearch refuses an unknown one. */
const WRITE_PARAMS = ['refresh', 'timeout', 'wait_for_active_shards'];
const ADMIN_PARAMS = ['timeout', 'master_timeout', 'cluster_manager_timeout', 'wait_for_active_shards'];
const ANY_PARAMS = ['pretty', 'human', 'error_trace'];

function checkParams(params: URLSearchParams, allowed: readonly string[], path: string): void {
  for (const key of params.keys())
    if (!allowed.includes(key) && !ANY_PARAMS.includes(key))
      throw illegalArgument(`request [${path}] contains unrecognized parameter: [${key}]`);
  const refresh = params.get('refresh');
  if (refresh !== null && !['', 'true', 'false', 'wait_for'].includes(refresh))
    throw illegalArgument(`Unknown value for refresh: [${refresh}].`);
}

function parseJson(text: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SearchError(400, 'parse_exception', `Failed to parse the request body as JSON: ${(error as Error).message}`);
  }
}

/** An index's description for GET /{index}: settings nested again as OpenSearch shows them. */
function describe(catalog: Catalog, expression: string): Reply {
  const body: Record<string, unknown> = {};
  for (const index of catalog.resolve(expression)) {
    const settings: Record<string, unknown> = {};
    const flat: Record<string, unknown> = {
      'index.number_of_shards': '1',
      'index.number_of_replicas': '1',
      ...index.meta.settings,
      'index.creation_date': String(index.meta.creationDate),
      'index.uuid': index.meta.uuid,
      'index.provided_name': index.name,
    };
    for (const [key, value] of Object.entries(flat)) {
      const parts = key.split('.');
      let at = settings;
      for (const part of parts.slice(0, -1)) at = (at[part] ??= {}) as Record<string, unknown>;
      at[parts[parts.length - 1]] = value;
    }
    body[index.name] = {
      aliases: Object.fromEntries(index.meta.aliases.map((alias) => [alias, {}])),
      mappings: index.meta.mappings,
      settings,
    };
  }
  return { status: 200, body };
}

function route(
  catalog: Catalog,
  serverless: boolean,
  method: string,
  segments: string[],
  params: URLSearchParams,
  text: string,
  path: string,
): Reply {
  const json = () => parseJson(text);
  const is = (...methods: string[]) => methods.includes(method);
  const ok = (allowedParams: readonly string[], answer: () => unknown): Reply => {
    checkParams(params, allowedParams, path);
    return { status: 200, body: answer() };
  };
  // The first segment names indices unless it is an API name (`_bulk`, `_search`, `_alias`...).
  const indexSegment = segments[0] !== undefined && (!segments[0].startsWith('_') || segments[0] === '_all');
  const target = indexSegment ? segments[0] : undefined;
  const [operation, ...rest] = indexSegment ? segments.slice(1) : segments;

  if (!segments.length && is('GET', 'HEAD')) return ok([], () => CLUSTER_INFO);
  if (operation === '_bulk' && !rest.length && is('POST', 'PUT'))
    return ok(WRITE_PARAMS, () => {
      const result = bulk(catalog, text, target, serverless);
      catalog.save(result.changed, result.mappingsChanged);
      return result.response;
    });
  if (operation === '_search' && !rest.length && is('GET', 'POST'))
    return ok(['size', 'from', 'track_total_hits', 'timeout'], () => search(catalog.resolve(target), json(), params));
  if (operation === '_count' && !rest.length && is('GET', 'POST')) return ok([], () => count(catalog.resolve(target), json()));
  if (operation === '_refresh' && !rest.length && is('GET', 'POST'))
    return ok([], () => {
      const total = catalog.resolve(target).length;
      return { _shards: { total, successful: total, failed: 0 } };
    });
  if (!target && operation === '_aliases' && !rest.length && is('POST')) return ok(ADMIN_PARAMS, () => updateAliases(catalog, json()));
  if ((operation === '_alias' || (target && operation === '_aliases' && rest.length)) && rest.length <= 1) {
    const name = rest[0];
    if (is('GET', 'HEAD')) {
      checkParams(params, [], path);
      return getAliases(catalog, target, name);
    }
    if (target && name !== undefined && is('PUT', 'POST')) return ok(ADMIN_PARAMS, () => putAlias(catalog, target, name, json()));
    if (target && name !== undefined && is('DELETE')) return ok(ADMIN_PARAMS, () => deleteAlias(catalog, target, name));
  }
  if (target && operation === '_delete_by_query' && !rest.length && is('POST') && !serverless)
    return ok(['refresh', 'conflicts', 'timeout', 'wait_for_completion'], () => {
      if (params.get('wait_for_completion') === 'false')
        throw illegalArgument('the local stand-in runs _delete_by_query to completion only');
      const result = deleteByQuery(catalog.resolve(target), json());
      catalog.save(result.changed, false);
      return result.response;
    });
  // A vector collection generates document ids: writes naming one fall through to the refusal below.
  if (target && (operation === '_doc' || operation === '_create') && !(serverless && is('PUT', 'POST') && rest.length)) {
    const reply = documentRoute(catalog, method, target, operation, rest, json);
    if (reply) {
      checkParams(params, WRITE_PARAMS, path);
      return reply();
    }
  }
  if (target && operation === undefined) {
    if (is('HEAD')) {
      checkParams(params, [], path);
      return { status: catalog.exists(target) ? 200 : 404 };
    }
    if (is('PUT')) return ok(ADMIN_PARAMS, () => catalog.create(target, json()));
    if (is('DELETE')) return ok(ADMIN_PARAMS, () => catalog.delete(target));
    if (is('GET')) {
      checkParams(params, [], path);
      return describe(catalog, target);
    }
  }
  throw new SearchError(
    400,
    'parsing_exception',
    `no handler found for uri [${path}] and method [${method}]: not supported by the local OpenSearch stand-in`,
  );
}

function bodyText(request: IncomingMessage, raw: Buffer): string {
  const encoding = String(request.headers['content-encoding'] ?? '');
  if (encoding.includes('gzip')) return gunzipSync(raw).toString('utf8');
  if (encoding.includes('deflate')) return inflateSync(raw).toString('utf8');
  return raw.toString('utf8');
}

export async function startSearchEmulator(options: SearchEmulatorOptions): Promise<Emulator> {
  const catalog = Catalog.load(options.dataDir);
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const method = request.method ?? 'GET';
      const url = new URL(request.url ?? '/', 'http://local');
      let reply: Reply;
      // Requests are handled whole, one at a time (no await in between), so a write and its saving are never interleaved with another request.
      try {
        const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
        reply = route(
          catalog,
          options.serverlessVectorCollection === true,
          method,
          segments,
          url.searchParams,
          bodyText(request, Buffer.concat(chunks)),
          url.pathname,
        );
      } catch (error) {
        reply =
          error instanceof SearchError
            ? { status: error.status, body: error.body() }
            : {
                status: 500,
                body: new SearchError(500, 'exception', `The local search stand-in failed: ${(error as Error).message}`).body(),
              };
      }
      const pretty = url.searchParams.has('pretty');
      const text = method === 'HEAD' || reply.body === undefined ? '' : JSON.stringify(reply.body, null, pretty ? 2 : undefined);
      response.writeHead(reply.status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text) });
      response.end(text);
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options.port ?? 0, options.host, resolve));
  return {
    endpoint: `http://${options.host}:${(server.address() as AddressInfo).port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
