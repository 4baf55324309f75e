import fc from 'fast-check';

/**
 * JSON Schema (draft 2020-12) -> fast-check arbitrary of values the schema accepts, for the
 * subset the OpenAPI document uses: type (one or several), object with properties,
 * required, additionalProperties and propertyNames; string with minLength, maxLength,
 * pattern, enum and format (email, date-time, date, uuid); integer and number with
 * (exclusive) bounds; boolean; null; array with items, minItems and maxItems; anyOf,
 * oneOf (approximated as anyOf), enum, const, local $refs, and `not: {}` (a property that
 * must be absent: it is never generated).
 *
 * A keyword outside that subset throws: when the document grows one, extend this file
 * rather than fuzz with values the schema may refuse.
 */

export type JsonSchema = Record<string, any> | boolean;

export interface SchemaArbitraryOptions {
  /** The document local `$ref`s (`#/...`) point into. */
  root?: Record<string, any>;
  /**
   * Extra values for a named property (seeded ids and the like), mixed in with the
   * schema's own values. They should satisfy the property's schema.
   */
  hint?: (propertyName: string) => fc.Arbitrary<unknown> | undefined;
}

/** Keywords that do not constrain values. */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  '$id',
  '$schema',
  '$anchor',
  'contentMediaType',
  'contentEncoding',
]);

const SUPPORTED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'minLength',
  'maxLength',
  'pattern',
  'enum',
  'format',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'items',
  'minItems',
  'maxItems',
  'anyOf',
  'oneOf',
  '$ref',
  'not',
]);

/** Longest value generated for an unbounded or very large string or array (fast-check's default sizes keep most far shorter). */
const MAX_GENERATED_LENGTH = 64;
const MAX_GENERATED_ITEMS = 8;

/** An arbitrary of values valid against `schema`. */
export function schemaArbitrary(schema: JsonSchema, options: SchemaArbitraryOptions = {}, where = '#'): fc.Arbitrary<unknown> {
  if (schema === true) return fc.jsonValue({ maxDepth: 2 });
  if (schema === false || acceptsNothing(schema)) throw new Error(`schemaArbitrary: ${where} accepts nothing`);
  if ('not' in schema) throw new Error(`schemaArbitrary: unsupported keyword not (other than not: {}) at ${where}`);
  const unsupported = Object.keys(schema).filter((k) => !SUPPORTED.has(k) && !ANNOTATIONS.has(k));
  if (unsupported.length) throw new Error(`schemaArbitrary: unsupported keyword(s) ${unsupported.join(', ')} at ${where}`);

  if (schema.$ref) return schemaArbitrary(resolveRef(schema.$ref, options.root, where), options, schema.$ref);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.anyOf || schema.oneOf) {
    const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[];
    return fc.oneof(...branches.map((branch, i) => schemaArbitrary(branch, options, `${where}/${schema.anyOf ? 'anyOf' : 'oneOf'}/${i}`)));
  }
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));

  const types: string[] = schema.type === undefined ? [] : [schema.type].flat();
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  if (types.length > 1) return fc.oneof(...types.map((type) => schemaArbitrary({ ...schema, type }, options, where)));
  switch (types[0]) {
    case 'string':
      return stringArbitrary(schema, where);
    case 'integer':
      return integerArbitrary(schema);
    case 'number':
      return numberArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return arrayArbitrary(schema, options, where);
    case 'object':
      return objectArbitrary(schema, options, where);
    default:
      throw new Error(`schemaArbitrary: unsupported type ${types[0]} at ${where}`);
  }
}

/** `false`, `{not: {}}` and `{not: true}` accept no value at all. */
export function acceptsNothing(schema: JsonSchema): boolean {
  if (schema === false) return true;
  if (schema === true || !('not' in schema)) return false;
  const not = schema.not;
  return not === true || (typeof not === 'object' && not !== null && Object.keys(not).every((k) => ANNOTATIONS.has(k)));
}

function resolveRef(ref: string, root: Record<string, any> | undefined, where: string): JsonSchema {
  if (!ref.startsWith('#/') || !root) throw new Error(`schemaArbitrary: cannot resolve $ref ${ref} at ${where}`);
  const target = ref
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((node, key) => node?.[key], root);
  if (target === undefined) throw new Error(`schemaArbitrary: dangling $ref ${ref} at ${where}`);
  return target;
}

/** Length in code points (JSON Schema) and in UTF-16 units (valibot): both must fit. */
function fitsLength(value: string, min: number, max: number): boolean {
  const points = [...value].length;
  return points >= min && value.length <= max && value.length >= min && points <= max;
}

function stringArbitrary(schema: Record<string, any>, where: string): fc.Arbitrary<string> {
  const min: number = schema.minLength ?? 0;
  const max: number = schema.maxLength ?? Number.MAX_SAFE_INTEGER;
  if (min > max) throw new Error(`schemaArbitrary: minLength > maxLength at ${where}`);
  let base: fc.Arbitrary<string>;
  if (schema.pattern) {
    base = fc.stringMatching(new RegExp(schema.pattern, 'u'));
  } else if (schema.format === 'email') {
    base = fc.oneof(
      fc
        .tuple(fc.stringMatching(/^[a-z][a-z0-9.]{0,20}[a-z0-9]$/), fc.constantFrom('example.com', 'example.org', 'mail.example.net'))
        .map(([local, domain]) => `${local}@${domain}`),
      fc.emailAddress(),
    );
  } else if (schema.format === 'date-time') {
    base = isoDate().map((d) => d.toISOString());
  } else if (schema.format === 'date') {
    base = isoDate().map((d) => d.toISOString().slice(0, 10));
  } else if (schema.format === 'uuid') {
    base = fc.uuid();
  } else {
    const maxLength = Math.min(max, Math.max(min, MAX_GENERATED_LENGTH));
    base = fc.oneof(
      fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength }),
      fc.string({ unit: 'grapheme', minLength: min, maxLength }),
    );
  }
  return base.filter((value) => fitsLength(value, min, max));
}

const isoDate = () =>
  fc.date({ min: new Date('1970-01-01T00:00:00.000Z'), max: new Date('2099-12-31T23:59:59.999Z'), noInvalidDate: true });

function bounds(schema: Record<string, any>, step: number): { min?: number; max?: number } {
  const min = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + step : schema.minimum;
  const max = schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - step : schema.maximum;
  return { min, max };
}

function integerArbitrary(schema: Record<string, any>): fc.Arbitrary<number> {
  const { min, max } = bounds(schema, 1);
  const lo = Math.ceil(min ?? Number.MIN_SAFE_INTEGER);
  const hi = Math.floor(max ?? Number.MAX_SAFE_INTEGER);
  // fc.integer covers 32-bit ranges; wider ranges mix small values with the whole range.
  if (lo >= -0x80000000 && hi <= 0x7fffffff) return fc.integer({ min: lo, max: hi });
  return fc.oneof(
    fc.integer({ min: Math.max(lo, -0x80000000), max: Math.min(hi, 0x7fffffff) }),
    fc.double({ min: lo, max: hi, noNaN: true }).map((n) => Math.min(hi, Math.max(lo, Math.round(n)))),
  );
}

function numberArbitrary(schema: Record<string, any>): fc.Arbitrary<number> {
  const { min, max } = bounds(schema, Number.EPSILON);
  return fc
    .double({ min: min ?? -Number.MAX_VALUE, max: max ?? Number.MAX_VALUE, noNaN: true, noDefaultInfinity: true })
    .map((n) => (Object.is(n, -0) ? 0 : n));
}

function arrayArbitrary(schema: Record<string, any>, options: SchemaArbitraryOptions, where: string): fc.Arbitrary<unknown[]> {
  const minLength: number = schema.minItems ?? 0;
  const maxLength: number = Math.min(schema.maxItems ?? Number.MAX_SAFE_INTEGER, Math.max(minLength, MAX_GENERATED_ITEMS));
  const items = schema.items === undefined ? fc.jsonValue({ maxDepth: 2 }) : schemaArbitrary(schema.items, options, `${where}/items`);
  return fc.array(items, { minLength, maxLength });
}

function objectArbitrary(
  schema: Record<string, any>,
  options: SchemaArbitraryOptions,
  where: string,
): fc.Arbitrary<Record<string, unknown>> {
  const properties: Record<string, JsonSchema> = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, propertySchema] of Object.entries(properties)) {
    if (acceptsNothing(propertySchema)) {
      if (required.has(name)) throw new Error(`schemaArbitrary: required property ${name} accepts nothing at ${where}`);
      continue;
    }
    const own = schemaArbitrary(propertySchema, options, `${where}/properties/${name}`);
    const hint = options.hint?.(name);
    model[name] = hint ? fc.oneof(own, hint) : own;
  }
  const known = fc.record(model, { requiredKeys: [...required].filter((name) => name in model) });
  const extra = schema.additionalProperties;
  if (extra === undefined || extra === false) return known;
  const keys = schema.propertyNames
    ? (schemaArbitrary(schema.propertyNames, options, `${where}/propertyNames`) as fc.Arbitrary<string>)
    : fc.string();
  const values = schemaArbitrary(extra, options, `${where}/additionalProperties`);
  return fc
    .tuple(
      known,
      fc.dictionary(
        keys.filter((key) => !(key in properties)),
        values,
        { maxKeys: 3 },
      ),
    )
    .map(([own, more]) => {
      const merged: Record<string, unknown> = {};
      for (const [key, value] of [...Object.entries(more), ...Object.entries(own)]) defineOwn(merged, key, value);
      return merged;
    });
}

/** Sets an own enumerable property, even one named `__proto__`. */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
