import fc from 'fast-check';
import { defineOwn, schemaArbitrary } from './json-schema';
import { CREDENTIAL_KINDS, type CredentialKind, type FuzzOperation } from './operations';

/**
 * Request generators: for one operation of the OpenAPI document, HTTP requests built from
 * a valid request (seeded path ids, schema-valid query and body, an allowed credential)
 * with zero or more mutations on each part (path ids, query string, headers, credential,
 * body). Every mutation adds a tag (e.g. `path:long`, `body:deep`) to the request, so that
 * failures can be grouped by what was done to the request.
 *
 * Each part's first alternative is its valid form and every `oneof` cross-shrinks, so a
 * failing request shrinks towards the valid request plus only the mutations the failure needs.
 */

/** One HTTP request as it goes on the wire. */
export interface FuzzRequest {
  operationId: string;
  method: string;
  /** The path as sent (already percent-encoded, or deliberately not). */
  path: string;
  /** '' or `?…`, as sent. */
  query: string;
  /** Header name -> value(s); a list sends the header once per value. */
  headers: Record<string, string | string[]>;
  body?: string | Buffer;
  /** Which credential the Authorization header carries, for reports (tokens are not printed). */
  credential: string;
  /** The mutations applied; empty for a valid request. */
  tags: string[];
}

/** The seeded organization the fuzzer acts on. */
export interface FuzzWorld {
  /** Valid ids for each path parameter name (orgId, userId, recordingId, ...). */
  ids: Record<string, readonly string[]>;
  /** A bearer token of each credential kind, allowed on every route that takes that kind. */
  tokens: Record<CredentialKind, string>;
  /**
   * Extra values for query parameters and body properties, by name; `operationId.name` is
   * preferred to `name`. Values of body properties should satisfy the property's schema.
   */
  hints: Record<string, fc.Arbitrary<unknown>>;
}

type Part<T> = { value: T; tags: string[] };
const clean = <T>(value: T): Part<T> => ({ value, tags: [] });
const tagged =
  (tag: string) =>
  <T>(value: T): Part<T> => ({ value, tags: [tag] });

/** oneof whose values shrink towards the first alternative (the valid form). */
function weighted<T>(...alternatives: [number, fc.Arbitrary<T>][]): fc.Arbitrary<T> {
  return fc.oneof({ withCrossShrink: true }, ...alternatives.map(([weight, arbitrary]) => ({ weight, arbitrary })));
}

/** Percent-encodes UTF-8 bytes (lone surrogates become U+FFFD, as any client would send them). */
export function percentEncode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** `unit` repeated to about `min`–`max` characters (whole units: an escape is never cut); shrinks to fewer. */
const repeated = (min: number, max: number, units: readonly string[]) =>
  fc
    .tuple(fc.integer({ min, max }), fc.constantFrom(...units))
    .map(([count, unit]) => unit.repeat(Math.max(1, Math.ceil(count / unit.length))));

// ---------------------------------------------------------------------------------------
// Path ids

const PERCENT_JUNK = [
  '%00',
  '%0A',
  '%0D%0A',
  '%2F',
  '%252F',
  '%5C',
  '%3F',
  '%23',
  '%20',
  '%7F',
  '%C0%AF',
  '%EF%BF%BF',
  '%F0%9F%98%80',
  '%E2%80%AE',
  '%FF',
  '%2E',
  '%3Cscript%3E',
];
const BAD_PERCENT = ['%ZZ', '%', '%4', '%E0%A4%A', '%G0', '%%', '%u0041', '%C3%28', '%ED%A0%80', '%F8%88%80%80%80'];
const DOTS = ['..', '.', '%2e%2e', '%2E', '...', '..%2F..', '.%2e'];
const RESERVED_RAW = [
  ';',
  ',',
  '=',
  '@',
  ':',
  '!',
  '$',
  '&',
  "'",
  '(',
  ')',
  '*',
  '+',
  '~',
  '|',
  '^',
  '`',
  '{',
  '}',
  '"',
  '<',
  '>',
  '[',
  ']',
];
const LATIN1_RAW = ['é', 'ÿ', '\u00a0', '\u00ad', '©'];

function pathSegment(name: string, world: FuzzWorld): fc.Arbitrary<Part<string>> {
  const ids = world.ids[name];
  if (!ids?.length) throw new Error(`fuzz: no seeded id for path parameter ${name}`);
  const valid = fc.constantFrom(...ids);
  return weighted<Part<string>>(
    [60, valid.map((id) => clean(percentEncode(id)))],
    [2, fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/).map(tagged('path:unknown-id'))],
    [
      1,
      fc
        .string({ unit: 'binary', minLength: 1, maxLength: 40 })
        .map((s) => percentEncode(s))
        .map(tagged('path:random')),
    ],
    [
      1,
      fc
        .tuple(valid, repeated(1000, 3000, ['a', 'Z9_-', 'x']))
        .map(([id, tail]) => `${percentEncode(id)}${tail}`)
        .map(tagged('path:long')),
    ],
    [1, repeated(1000, 3000, ['%C3%A9', '%F0%9F%98%80', '%00', '%2F']).map(tagged('path:long-encoded'))],
    [1, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).map(percentEncode).map(tagged('path:unicode'))],
    [1, fc.constantFrom(...DOTS).map(tagged('path:dots'))],
    [
      1,
      fc
        .tuple(valid, fc.constantFrom(...PERCENT_JUNK), fc.boolean())
        .map(([id, junk, before]) => (before ? `${junk}${id}` : `${id}${junk}`))
        .map(tagged('path:percent-junk')),
    ],
    [
      1,
      fc
        .tuple(fc.constantFrom('', ...ids), fc.constantFrom(...BAD_PERCENT))
        .map(([id, bad]) => `${percentEncode(id)}${bad}`)
        .map(tagged('path:bad-percent')),
    ],
    [
      1,
      fc
        .tuple(valid, fc.constantFrom(...RESERVED_RAW))
        .map(([id, c]) => `${id}${c}`)
        .map(tagged('path:reserved-char')),
    ],
    [
      1,
      fc
        .tuple(valid, fc.constantFrom(...LATIN1_RAW))
        .map(([id, c]) => `${id}${c}`)
        .map(tagged('path:raw-latin1')),
    ],
  );
}

// ---------------------------------------------------------------------------------------
// Query strings

type QueryPiece = [name: string, value: string | undefined];

const PROTO_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  '__defineGetter__',
  'isPrototypeOf',
  '__proto__[admin]',
  'constructor[prototype][polluted]',
];
const WRONG_QUERY_VALUES = [
  'abc',
  '-1',
  '0',
  '1.5',
  '1e3',
  '0x10',
  '99999999999999999999',
  '-99999999999999999999',
  'true',
  'false',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '[]',
  '{}',
  '%20',
  '+',
  '',
  ',',
  ',,',
  'none,none',
  '2024-13-45',
  '2024-02-30',
  '9999-12-31',
  '0000-00-00',
  'TRUE',
  '1,2',
];
const CONTROL_ENCODED = ['%00', '%01', '%0A', '%0D', '%0D%0A', '%1F', '%7F', '%C2%85', '%E2%80%A8', '%EF%BB%BF'];

function hintFor(world: FuzzWorld, op: FuzzOperation, name: string): fc.Arbitrary<unknown> | undefined {
  return world.hints[`${op.operationId}.${name}`] ?? world.hints[name];
}

function queryValue(op: FuzzOperation, param: FuzzOperation['queryParams'][number], world: FuzzWorld): fc.Arbitrary<string> {
  const own = schemaArbitrary(param.schema, {}, `${op.operationId} query ${param.name}`).map(String);
  const hint = hintFor(world, op, param.name);
  return (hint ? fc.oneof(hint.map(String), own) : own).map(percentEncode);
}

function queryPieces(op: FuzzOperation, world: FuzzWorld): fc.Arbitrary<Part<QueryPiece[]>> {
  const model: Record<string, fc.Arbitrary<string | undefined>> = {};
  for (const param of op.queryParams) {
    const value = queryValue(op, param, world);
    model[param.name] = param.required ? value : weighted<string | undefined>([3, fc.constant(undefined)], [2, value]);
  }
  const names = op.queryParams.map((p) => p.name);
  const documented = names.length ? fc.constantFrom(...names) : fc.constant('limit');
  const valueOf = (name: string) => {
    const param = op.queryParams.find((p) => p.name === name);
    return param ? queryValue(op, param, world) : fc.constant('1');
  };
  const mutation = fc.oneof(
    fc
      .tuple(documented, fc.constantFrom(...WRONG_QUERY_VALUES).map(percentEncode))
      .map(([name, value]): Part<QueryPiece[]> => ({ value: [[name, value]], tags: ['query:wrong-type'] })),
    documented.chain((name) =>
      fc.tuple(valueOf(name), valueOf(name)).map(([a, b]): Part<QueryPiece[]> => ({
        value: [
          [name, a],
          [name, b],
        ],
        tags: ['query:repeated'],
      })),
    ),
    fc.tuple(fc.constantFrom(...PROTO_NAMES), fc.constantFrom('1', 'x', '', '%7B%7D')).map(([name, value]): Part<QueryPiece[]> => ({
      value: [[percentEncode(name).replace(/%5B/g, '[').replace(/%5D/g, ']'), value]],
      tags: ['query:proto-name'],
    })),
    fc
      .tuple(fc.stringMatching(/^[a-z_][a-zA-Z0-9_]{0,20}$/), fc.string({ maxLength: 10 }).map(percentEncode))
      .filter(([name]) => !names.includes(name))
      .map(([name, value]): Part<QueryPiece[]> => ({ value: [[name, value]], tags: ['query:unknown-name'] })),
    fc
      .tuple(documented, repeated(1000, 12000, ['9', 'a', '%C3%A9']))
      .map(([name, value]): Part<QueryPiece[]> => ({ value: [[name, value]], tags: ['query:huge'] })),
    fc
      .tuple(documented, repeated(17000, 70000, ['9', 'a']))
      .map(([name, value]): Part<QueryPiece[]> => ({ value: [[name, value]], tags: ['query:oversize'] })),
    fc
      .tuple(documented, fc.constantFrom(...CONTROL_ENCODED), fc.string({ unit: 'grapheme-ascii', maxLength: 4 }).map(percentEncode))
      .map(([name, control, rest]): Part<QueryPiece[]> => ({ value: [[name, `${rest}${control}${rest}`]], tags: ['query:control-char'] })),
    fc
      .tuple(documented, fc.constantFrom(...BAD_PERCENT))
      .map(([name, bad]): Part<QueryPiece[]> => ({ value: [[name, bad]], tags: ['query:bad-percent'] })),
    fc
      .constantFrom<QueryPiece[]>([['%ZZ', '1']], [['', '1']], [['', undefined]], [['=', '=']], [['limit', undefined]], [['a', '1=2']])
      .map((value): Part<QueryPiece[]> => ({ value, tags: ['query:malformed'] })),
    documented.map((name): Part<QueryPiece[]> => ({
      value: [
        [`${name}[]`, '1'],
        [`${name}[0]`, '2'],
      ],
      tags: ['query:bracket-name'],
    })),
    fc
      .tuple(documented, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }))
      .map(([name, value]): Part<QueryPiece[]> => ({ value: [[name, percentEncode(value)]], tags: ['query:unicode'] })),
  );
  return fc
    .tuple(fc.record(model), weighted<Part<QueryPiece[]>[]>([6, fc.constant([])], [2, fc.array(mutation, { maxLength: 3 })]))
    .map(([base, mutations]) => {
      const pieces: QueryPiece[] = names.filter((name) => base[name] !== undefined).map((name) => [name, base[name]]);
      for (const m of mutations) pieces.push(...m.value);
      return { value: pieces, tags: mutations.flatMap((m) => m.tags) };
    });
}

export function queryString(pieces: QueryPiece[]): string {
  return pieces.length ? `?${pieces.map(([name, value]) => (value === undefined ? name : `${name}=${value}`)).join('&')}` : '';
}

// ---------------------------------------------------------------------------------------
// Credentials and headers

type Credential = { label: string; authorization?: string };

function credential(op: FuzzOperation, world: FuzzWorld): fc.Arbitrary<Part<Credential>> {
  const allowed = op.allowed;
  const disallowed = CREDENTIAL_KINDS.filter((kind) => !allowed.includes(kind));
  const anyKind = fc.constantFrom(...(allowed.length ? allowed : CREDENTIAL_KINDS));
  const valid: fc.Arbitrary<Part<Credential>> = allowed.length
    ? fc.constantFrom(...allowed).map((kind) => clean({ label: kind, authorization: `Bearer ${world.tokens[kind]}` }))
    : fc.constant(clean({ label: 'none (public route)' }));
  const alternatives: [number, fc.Arbitrary<Part<Credential>>][] = [
    [40, valid],
    [1, fc.constant({ value: { label: 'none' }, tags: ['auth:none'] })],
    [
      1,
      fc
        .oneof(
          fc.constantFrom(
            'Bearer',
            'Bearer ',
            'Basic dXNlcjpwYXNz',
            'Token abc',
            'Bearer null',
            'Bearer undefined',
            'Bearer pk_',
            'Bearer pk_user_',
            'Bearer pk_org_0000000000000000000000',
            'Bearer eyJhbGciOiJub25lIn0.e30.',
            'Bearer a.b.c',
            'Bearer pk_org_' + 'z'.repeat(300),
          ),
          fc.stringMatching(/^[A-Za-z0-9._~+/=-]{1,300}$/).map((token) => `Bearer ${token}`),
        )
        .map((authorization) => ({ value: { label: 'garbage', authorization }, tags: ['auth:garbage'] })),
    ],
    [
      1,
      fc.tuple(fc.constantFrom('bearer', 'BEARER', 'BeArEr', 'Bearer ', 'Bearer\t'), anyKind).map(([scheme, kind]) => ({
        value: { label: `${kind}, scheme ${JSON.stringify(scheme)}`, authorization: `${scheme} ${world.tokens[kind]}` },
        tags: ['auth:scheme-variant'],
      })),
    ],
    [
      1,
      fc.tuple(anyKind, fc.constantFrom('x', '.', '=', 'A')).map(([kind, extra]) => ({
        value: { label: `${kind}, tampered`, authorization: `Bearer ${world.tokens[kind].slice(0, -1)}${extra}` },
        tags: ['auth:tampered'],
      })),
    ],
  ];
  if (disallowed.length) {
    alternatives.push([
      1,
      fc.constantFrom(...disallowed).map((kind) => ({
        value: { label: `${kind} (not allowed here)`, authorization: `Bearer ${world.tokens[kind]}` },
        tags: ['auth:wrong-kind'],
      })),
    ]);
  }
  return weighted(...alternatives);
}

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'APPLICATION/JSON',
  'application/merge-patch+json',
  'application/vnd.api+json',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/xml',
  'application/octet-stream',
  'application/json; charset=utf-16',
  'json',
  '*/*',
  '',
];

function contentType(op: FuzzOperation): fc.Arbitrary<Part<string | string[] | undefined>> {
  const variants = fc.constantFrom<string | undefined>(...CONTENT_TYPES, op.bodySchema ? undefined : 'application/json');
  return weighted<Part<string | string[] | undefined>>(
    [24, fc.constant(clean(op.bodySchema ? 'application/json' : undefined))],
    [3, variants.map((value) => ({ value, tags: [`ct:${value === undefined ? 'none' : value || '(empty)'}`] }))],
    [1, fc.constant({ value: ['application/json', 'text/plain'], tags: ['ct:repeated-header'] })],
  );
}

function extraHeaders(): fc.Arbitrary<Part<Record<string, string>>> {
  return weighted<Part<Record<string, string>>>(
    [30, fc.constant(clean({}))],
    [1, fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/).map((id) => clean({ 'x-correlation-id': id }))],
    [
      1,
      fc
        .oneof(fc.constantFrom('', ' ', 'a b', '<script>', '../..', 'é'), repeated(129, 2000, ['x']))
        .map((id) => ({ value: { 'x-correlation-id': id }, tags: ['header:bad-correlation-id'] })),
    ],
    [
      1,
      fc
        .constantFrom('text/html', 'application/xml', '*/*', 'application/json;q=0')
        .map((accept) => ({ value: { accept }, tags: ['header:accept'] })),
    ],
    [1, repeated(8000, 40000, ['p']).map((padding) => ({ value: { 'x-fuzz-padding': padding }, tags: ['header:huge'] }))],
    [
      1,
      fc
        .constantFrom('gzip', 'br', 'identity, gzip')
        .map((encoding) => ({ value: { 'content-encoding': encoding }, tags: ['header:content-encoding'] })),
    ],
  );
}

// ---------------------------------------------------------------------------------------
// Bodies

type JsonPath = (string | number)[];
type Body = { value: string | Buffer | undefined; tags: string[] };

const SENTINEL = '\u0000fuzz:raw\u0000';

function walk(value: unknown, path: JsonPath, visit: (path: JsonPath, node: unknown) => void): void {
  visit(path, value);
  if (Array.isArray(value)) value.forEach((item, i) => walk(item, [...path, i], visit));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) walk(item, [...path, key], visit);
}

function paths(value: unknown, keep: (node: unknown, path: JsonPath) => boolean = () => true): JsonPath[] {
  const found: JsonPath[] = [];
  walk(value, [], (path, node) => keep(node, path) && found.push(path));
  return found;
}

const isObject = (node: unknown): node is Record<string, unknown> => node !== null && typeof node === 'object' && !Array.isArray(node);
const pick = <T>(items: T[], selector: number): T | undefined => (items.length ? items[selector % items.length] : undefined);
/** A JSON copy: own `__proto__` keys stay own keys. */
const copy = (value: unknown): any => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

function getAt(root: unknown, path: JsonPath): unknown {
  return path.reduce<any>((node, key) => node?.[key], root);
}

function setAt(root: unknown, path: JsonPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const result = copy(root);
  const parent = getAt(result, path.slice(0, -1)) as Record<string, unknown>;
  defineOwn(parent, String(path.at(-1)), value);
  return result;
}

/** JSON text of `root` with the node at `path` written as raw text. */
function withRaw(root: unknown, path: JsonPath, raw: string): string {
  const text = JSON.stringify(setAt(root, path, SENTINEL));
  return text.replace(JSON.stringify(SENTINEL), () => raw);
}

const WRONG_VALUES = [null, 0, -1, 1.5, 1e308, -1e308, true, false, '', ' ', 'null', '0', [], {}, [null], { '': null }, [[[]]]];
const wrongValue = fc.oneof(
  fc.constantFrom(...WRONG_VALUES),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 20 }),
  fc.jsonValue({ maxDepth: 2 }),
);
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__', 'valueOf'];
const PROTO_VALUES: unknown[] = [{ admin: true }, { polluted: 'yes' }, { prototype: { polluted: true } }, null, 'x', 1, [], {}];
const MASS_ASSIGNMENT_KEYS = [
  'unknown_field',
  'id',
  'org_id',
  'user_id',
  'created_at',
  'updated_at',
  'role',
  'success',
  'delete',
  'version',
  'deleted_at',
  'state',
];
const CONTROL_CHARS = [
  '\u0000',
  '\u0001',
  '\b',
  '\t',
  '\n',
  '\r',
  '\u001b',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\u200b',
  '\u202e',
];
const LONE_SURROGATES = ['\ud800', '\udc00', '\udbff', '\udfff', '\ud83d'];
const INVALID_JSON = [
  '{',
  '}',
  '[',
  '{"a":}',
  '{"a" 1}',
  "{'a':1}",
  '{"a":1,}',
  '[1,]',
  'undefined',
  'NaN',
  'Infinity',
  '{"a":1}}',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '{"a":"\\ud800',
  '"unterminated',
  '//{}',
  '{"a":01}',
  '0x10',
  'True',
  'nul',
  '{"a":1} {"b":2}',
  '{,}',
  '{"a"}',
  '\u0000',
];
const NON_OBJECT_JSON = ['null', '[]', '"x"', '1', '-0', 'true', 'false', '[{}]', '[null]', '""', '1e999'];

function stringLeaves(value: unknown): JsonPath[] {
  const leaves = paths(value, (node) => typeof node === 'string');
  return leaves.length ? leaves : paths(value);
}

function mutatedBodies(base: fc.Arbitrary<unknown>): fc.Arbitrary<Body>[] {
  const text = (value: unknown) => JSON.stringify(value);
  const body =
    (tag: string) =>
    (value: string | Buffer | undefined): Body => ({ value, tags: [tag] });
  return [
    fc
      .tuple(base, fc.nat(), wrongValue)
      .map(([b, at, w]) => ({ value: text(setAt(b, pick(paths(b), at)!, w)), tags: [w === null ? 'body:null-value' : 'body:wrong-type'] })),
    fc.tuple(base, fc.nat()).map(([b, at]) => {
      const target = pick(
        paths(b, (_node, path) => path.length > 0 && isObject(getAt(b, path.slice(0, -1)))),
        at,
      );
      if (!target) return { value: text(b), tags: ['body:missing-key'] };
      const parent = copy(getAt(b, target.slice(0, -1)));
      delete parent[target.at(-1)!];
      return { value: text(setAt(b, target.slice(0, -1), parent)), tags: ['body:missing-key'] };
    }),
    fc
      .tuple(
        base,
        fc.nat(),
        fc.oneof(fc.constantFrom(...MASS_ASSIGNMENT_KEYS), fc.string({ minLength: 1, maxLength: 12 })),
        fc.jsonValue({ maxDepth: 1 }),
      )
      .map(([b, at, key, v]) => ({ value: text(addKey(b, at, key, v)), tags: ['body:unknown-field'] })),
    fc
      .tuple(base, fc.nat(), fc.constantFrom(...PROTO_KEYS), fc.constantFrom(...PROTO_VALUES))
      .map(([b, at, key, v]) => ({ value: text(addKey(b, at, key, v)), tags: ['body:proto-key'] })),
    fc
      .tuple(base, fc.nat(), repeated(20_000, 1_200_000, ['a', 'é', '😀', '\\', '"']))
      .map(([b, at, huge]) => ({ value: text(setAt(b, pick(stringLeaves(b), at)!, huge)), tags: ['body:huge-string'] })),
    fc
      .tuple(base, fc.nat(), fc.integer({ min: 1000, max: 12000 }), fc.constantFrom('array', 'object', 'mixed'))
      .map(([b, at, depth, style]) => ({
        value: withRaw(b, pick(paths(b), at)!, deep(depth, style)),
        tags: ['body:deep'],
      })),
    fc.tuple(base, fc.nat(), fc.nat(), fc.boolean(), fc.jsonValue({ maxDepth: 1 })).map(([b, at, keyAt, first, dup]) => {
      const target = pick(paths(b, isObject), at);
      if (!target) return { value: '{"dup":1,"dup":2}', tags: ['body:duplicate-key'] };
      const object = getAt(b, target) as Record<string, unknown>;
      const key = pick(Object.keys(object), keyAt) ?? 'dup';
      const own = JSON.stringify(object);
      const entry = `${JSON.stringify(key)}:${JSON.stringify(dup)}`;
      const raw = own === '{}' ? `{${entry},${entry}}` : first ? `{${entry},${own.slice(1)}` : `${own.slice(0, -1)},${entry}}`;
      return { value: withRaw(b, target, raw), tags: ['body:duplicate-key'] };
    }),
    fc.tuple(base, fc.nat(), fc.constantFrom(...CONTROL_CHARS), fc.string({ maxLength: 5 })).map(([b, at, control, around]) => {
      const leaf = pick(stringLeaves(b), at)!;
      const original = getAt(b, leaf);
      return {
        value: text(setAt(b, leaf, `${typeof original === 'string' ? original : around}${control}${around}`)),
        tags: ['body:control-chars'],
      };
    }),
    fc.tuple(base, fc.nat(), fc.constantFrom(...LONE_SURROGATES), fc.boolean()).map(([b, at, lone, asKey]) => {
      if (asKey) return { value: text(addKey(b, at, `k${lone}`, 1)), tags: ['body:lone-surrogate'] };
      const leaf = pick(stringLeaves(b), at)!;
      const original = getAt(b, leaf);
      // JSON.stringify writes a lone surrogate as its \uXXXX escape: the raw JSON text is ASCII.
      return { value: text(setAt(b, leaf, `${typeof original === 'string' ? original : 'x'}${lone}`)), tags: ['body:lone-surrogate'] };
    }),
    fc.tuple(base, fc.nat(), fc.constantFrom('\u0001', '\n', '\t', '\u0000', '\u001f')).map(([b, at, control]) => ({
      value: withRaw(b, pick(stringLeaves(b), at)!, `"raw${control}char"`),
      tags: ['body:raw-control-char'],
    })),
    fc
      .oneof(
        fc.constantFrom(...INVALID_JSON),
        fc.tuple(base, fc.nat()).map(([b, cut]) => text(b).slice(0, cut % Math.max(1, text(b).length))),
        fc.string({ maxLength: 30 }),
      )
      .map(body('body:invalid-json')),
    fc.constantFrom(...NON_OBJECT_JSON).map(body('body:non-object')),
    fc.constant({ value: undefined, tags: ['body:none'] }),
    base.map((b) => ({ value: `\ufeff${text(b)}`, tags: ['body:bom'] })),
    fc.constantFrom('a=1&b=2', 'settings[selected_theme]=dark', 'title=x').map(body('body:form-encoded')),
    fc
      .tuple(
        base,
        fc.nat(),
        fc.constantFrom([0xff], [0xfe, 0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf0, 0x28, 0x8c, 0x28], [0xc0, 0xaf]),
      )
      .map(([b, at, bytes]) => {
        const [before, after] = withRaw(b, pick(stringLeaves(b), at)!, `"${SENTINEL}"`).split(SENTINEL);
        return {
          value: Buffer.concat([Buffer.from(before, 'utf8'), Buffer.from(bytes), Buffer.from(after, 'utf8')]),
          tags: ['body:invalid-utf8'],
        };
      }),
  ];
}

function addKey(root: unknown, at: number, key: string, value: unknown): unknown {
  const target = pick(paths(root, isObject), at);
  if (!target) {
    const object: Record<string, unknown> = {};
    defineOwn(object, key, value);
    return object;
  }
  const object = copy(getAt(root, target));
  defineOwn(object, key, value);
  return setAt(root, target, object);
}

function deep(depth: number, style: string): string {
  if (style === 'array') return `${'['.repeat(depth)}${']'.repeat(depth)}`;
  if (style === 'object') return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  return `${'[{"a":'.repeat(Math.ceil(depth / 2))}null${'}]'.repeat(Math.ceil(depth / 2))}`;
}

function bodyOf(op: FuzzOperation, world: FuzzWorld, document: Record<string, any>): fc.Arbitrary<Body> {
  if (!op.bodySchema) {
    return weighted<Body>(
      [40, fc.constant({ value: undefined, tags: [] })],
      [1, fc.jsonValue({ maxDepth: 2 }).map((v) => ({ value: JSON.stringify(v), tags: ['body:unexpected'] }))],
      [1, fc.constantFrom(...INVALID_JSON).map((value) => ({ value, tags: ['body:unexpected-invalid-json'] }))],
      [1, repeated(100_000, 1_200_000, ['a']).map((value) => ({ value: JSON.stringify({ a: value }), tags: ['body:unexpected-huge'] }))],
    );
  }
  const base = schemaArbitrary(op.bodySchema, { root: document, hint: (name) => hintFor(world, op, name) }, `${op.operationId} body`);
  return weighted<Body>(
    [36, base.map((b) => ({ value: JSON.stringify(b), tags: [] }))],
    ...mutatedBodies(base).map((arbitrary): [number, fc.Arbitrary<Body>] => [1, arbitrary]),
  );
}

// ---------------------------------------------------------------------------------------

/** Requests for one operation. */
export function requestArbitrary(op: FuzzOperation, world: FuzzWorld, document: Record<string, any>): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      segments: fc.tuple(...op.pathParams.map((name) => pathSegment(name, world))),
      query: queryPieces(op, world),
      credential: credential(op, world),
      contentType: contentType(op),
      headers: extraHeaders(),
      body: bodyOf(op, world, document),
    })
    .map(({ segments, query, credential, contentType, headers, body }): FuzzRequest => {
      let index = 0;
      const path = op.template.replace(/\{[^}]+\}/g, () => segments[index++].value);
      const allHeaders: Record<string, string | string[]> = { ...headers.value };
      if (credential.value.authorization !== undefined) allHeaders.authorization = credential.value.authorization;
      if (contentType.value !== undefined) allHeaders['content-type'] = contentType.value;
      const tags = [
        ...segments.flatMap((s) => s.tags),
        ...query.tags,
        ...credential.tags,
        ...contentType.tags,
        ...headers.tags,
        ...body.tags,
      ];
      return {
        operationId: op.operationId,
        method: op.method,
        path,
        query: queryString(query.value),
        headers: allHeaders,
        body: body.value,
        credential: credential.value.label,
        tags: [...new Set(tags)].sort(),
      };
    });
}
