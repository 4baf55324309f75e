import { ANALYZERS, type AnalyzerName } from './analyzer';
import { comparable, type FieldSpec, type FieldType, NUMBER_TYPES, parseDate } from './field-values';
import { malformed, SearchError, textOf } from './search-error';

/**
 * Index mappings: checking the `mappings` of a create-index request, listing the searchable fields
 * they define (multi-fields included), and checking each indexed document against them, adding
 * mappings for new fields as OpenSearch's dynamic mapping does (`dynamic: true`, its default), or
 * refusing them (`strict`), or leaving them unsearchable (`false`).
 *
 * A `text` field without an analyzer is analyzed as `english` here (a cluster would use
 * `standard`): the stand-in serves the product's search, whose text fields are English.
 */
export type Properties = Record<string, Record<string, unknown>>;
export interface Mappings {
  dynamic?: boolean | 'strict';
  properties: Properties;
}

const DATE_FORMATS = ['strict_date_optional_time', 'date_optional_time', 'strict_date_time', 'date_time', 'epoch_millis'];
const KNOWN_TYPES: readonly string[] = ['text', 'keyword', 'date', 'boolean', 'object', ...NUMBER_TYPES];
/** The mapping parameters each type accepts here; any other is refused, as a cluster refuses an unknown one. */
const PARAMETERS: Record<string, readonly string[]> = {
  text: ['analyzer', 'search_analyzer', 'fields'],
  keyword: ['ignore_above', 'fields'],
  date: ['format'],
  boolean: [],
  object: ['properties', 'dynamic'],
  scaled_float: ['scaling_factor'],
};

function mapperError(reason: string): SearchError {
  return new SearchError(400, 'mapper_parsing_exception', reason);
}

function parseDynamic(value: unknown, where: string): boolean | 'strict' | undefined {
  if (value === undefined) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  if (value === 'strict') return 'strict';
  throw mapperError(`Could not convert [${where}.dynamic] to boolean or 'strict'`);
}

function checkProperty(name: string, raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw mapperError(`Expected map for property [${name}]`);
  const property = { ...(raw as Record<string, unknown>) };
  const type = property.type === undefined ? (property.properties ? 'object' : '') : textOf(property.type);
  if (!type) throw mapperError(`No type specified for field [${name}]`);
  if (!KNOWN_TYPES.includes(type))
    throw new SearchError(400, 'parsing_exception', `field type [${type}] of [${name}] is not supported by the local OpenSearch stand-in`);
  const allowed = PARAMETERS[type] ?? [];
  for (const key of Object.keys(property))
    if (key !== 'type' && !allowed.includes(key)) throw mapperError(`unknown parameter [${key}] on mapper [${name}] of type [${type}]`);
  for (const key of ['analyzer', 'search_analyzer'])
    if (property[key] !== undefined && !ANALYZERS.includes(property[key] as AnalyzerName))
      throw mapperError(`analyzer [${textOf(property[key])}] of [${name}] is not supported by the local stand-in (only english, standard)`);
  if (property.search_analyzer !== undefined && property.search_analyzer !== (property.analyzer ?? 'english'))
    throw mapperError(`[${name}]: a search_analyzer other than the analyzer is not supported by the local stand-in`);
  if (
    property.format !== undefined &&
    !textOf(property.format)
      .split('||')
      .every((f) => DATE_FORMATS.includes(f))
  )
    throw mapperError(`date format [${textOf(property.format)}] of [${name}] is not supported by the local stand-in`);
  if (property.ignore_above !== undefined && !Number.isInteger(property.ignore_above))
    throw mapperError(`[ignore_above] of [${name}] must be an integer`);
  if (type === 'object') {
    parseDynamic(property.dynamic, name);
    property.properties = checkProperties(property.properties ?? {}, name);
  }
  if (property.fields !== undefined) {
    const fields = checkProperties(property.fields, name);
    for (const [sub, spec] of Object.entries(fields))
      if (spec.type === 'object' || spec.fields) throw mapperError(`multi-field [${name}.${sub}] must be a plain field`);
    property.fields = fields;
  }
  return property;
}

function checkProperties(raw: unknown, where: string): Properties {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw mapperError(`Expected map for [${where}.properties]`);
  return Object.fromEntries(Object.entries(raw).map(([name, property]) => [name, checkProperty(name, property)]));
}

/** The `mappings` of a create-index request, checked; a copy that the index may extend. */
export function parseMappings(raw: unknown): Mappings {
  if (raw === undefined) return { properties: {} };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw malformed('[mappings] must be an object');
  const { properties, dynamic, ...rest } = raw as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown) throw mapperError(`Root mapping definition has unsupported parameters: [${unknown}]`);
  const parsedDynamic = parseDynamic(dynamic, '_doc');
  return { ...(parsedDynamic === undefined ? {} : { dynamic: parsedDynamic }), properties: checkProperties(properties ?? {}, '_doc') };
}

/** Every searchable path: objects (for exists), leaves, and multi-fields such as `title.keyword`. */
export function fieldsOf(mappings: Mappings): Map<string, FieldSpec> {
  const fields = new Map<string, FieldSpec>();
  const add = (path: string, property: Record<string, unknown>, sourcePath: string) => {
    const type = (property.type === undefined ? 'object' : textOf(property.type)) as FieldType;
    const analyzer = (property.analyzer as AnalyzerName | undefined) ?? 'english';
    const ignoreAbove = property.ignore_above as number | undefined;
    fields.set(path, { path, type, sourcePath, analyzer, ...(ignoreAbove === undefined ? {} : { ignoreAbove }) });
    for (const [name, child] of Object.entries((property.properties ?? {}) as Properties)) add(`${path}.${name}`, child, `${path}.${name}`);
    for (const [name, sub] of Object.entries((property.fields ?? {}) as Properties)) add(`${path}.${name}`, sub, sourcePath);
  };
  for (const [name, property] of Object.entries(mappings.properties)) add(name, property, name);
  return fields;
}

/** The mapping OpenSearch's dynamic mapping gives a new field from its first value. */
function inferProperty(value: unknown): Record<string, unknown> | undefined {
  if (Array.isArray(value)) return value.map(inferProperty).find((property) => property !== undefined);
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'long' : 'float' };
  if (typeof value === 'string') {
    if (/^\d{4}-\d{2}-\d{2}/.test(value) && parseDate(value) !== undefined) return { type: 'date' };
    return { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };
  }
  if (typeof value === 'object' && value !== null) return { type: 'object', properties: {} };
  return undefined;
}

/**
 * Checks a document against the mappings, as indexing on a cluster does, and answers the
 * mappings extended by new fields (the same object when nothing was added).
 */
export function mapDocument(mappings: Mappings, id: string, source: Record<string, unknown>): Mappings {
  const next = structuredClone(mappings);
  let changed = false;
  const fail = (path: string, type: string, value: unknown) =>
    mapperError(
      `failed to parse field [${path}] of type [${type}] in document with id '${id}'. Preview of field's value: '${String(JSON.stringify(value)).slice(0, 60)}'`,
    );
  const walk = (object: Record<string, unknown>, properties: Properties, dynamic: boolean | 'strict', prefix: string) => {
    for (const [rawKey, rawValue] of Object.entries(object)) {
      // A dotted key ("speaker.name") is the same field as the nested object form.
      const [key, ...rest] = rawKey.split('.');
      const value = rest.length ? { [rest.join('.')]: rawValue } : rawValue;
      const path = prefix ? `${prefix}.${key}` : key;
      if (value === null || (Array.isArray(value) && value.every((item) => item === null))) continue;
      let property = properties[key];
      if (!property) {
        if (dynamic === 'strict')
          throw new SearchError(
            400,
            'strict_dynamic_mapping_exception',
            `mapping set to strict, dynamic introduction of [${key}] within [${prefix || '_doc'}] is not allowed`,
          );
        const inferred = dynamic ? inferProperty(value) : undefined;
        if (!inferred) continue;
        properties[key] = property = inferred;
        changed = true;
      }
      const type = property.type === undefined ? 'object' : textOf(property.type);
      const items = Array.isArray(value) ? value.flat(Infinity) : [value];
      for (const item of items) {
        if (item === null) continue;
        if (type === 'object') {
          if (typeof item !== 'object')
            throw mapperError(`object mapping for [${path}] tried to parse field [${path}] as object, but found a concrete value`);
          const childDynamic = parseDynamic(property.dynamic, path) ?? dynamic;
          walk(item as Record<string, unknown>, property.properties as Properties, childDynamic, path);
        } else if (typeof item === 'object') {
          throw fail(path, type, item);
        } else if (comparable({ path, type: type as FieldType, sourcePath: path, analyzer: 'english' }, item) === undefined) {
          throw fail(path, type, item);
        }
      }
    }
  };
  walk(source, next.properties, mappings.dynamic ?? true, '');
  return changed ? next : mappings;
}
