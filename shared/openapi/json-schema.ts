import { toJsonSchema, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { SHAPE_ALTERNATIVES } from '../schemas/common';
import { INTEGER_PARAMETERS } from '../schemas/validation';
import { SCHEMA_COMPONENTS } from './components';

/**
 * The valibot schemas as the OpenAPI document shows them (JSON Schema 2020-12): every bound a
 * schema states comes through, the converter's own way or as the schema's metadata
 * (shared/schemas/common.ts admitsAtMost), so the document need state no number of its own.
 */

/** A piece of the OpenAPI document, assembled as plain JSON whose shape the lint and contract tests check. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is built as open JSON; Redocly and Spectral lint its shape.
export type Json = Record<string, any>;

/** The component name of each schema of SCHEMA_COMPONENTS. */
const COMPONENT_NAMES = new Map<unknown, string>(Object.entries(SCHEMA_COMPONENTS).map(([name, schema]) => [baseOf(schema), name]));

/** The schema a pipe starts with (the converter meets that one, not the pipe), or the schema itself. */
function baseOf(schema: v.GenericSchema): v.GenericSchema {
  return 'pipe' in schema ? (schema.pipe as v.GenericSchema[])[0] : schema;
}

/** A schema in JSON Schema; a component schema inside it is a $ref to the component (but not `schema` itself, when it is the component being defined). */
export function jsonSchema(schema: v.GenericSchema, typeMode: 'input' | 'output'): Json {
  const { $schema: _ignored, ...rest } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode,
    errorMode: 'ignore',
    overrideSchema: ({ valibotSchema }) => {
      const component = valibotSchema !== baseOf(schema) ? COMPONENT_NAMES.get(valibotSchema) : undefined;
      if (component) return { $ref: `#/components/schemas/${component}` };
      // An integer query parameter is text on the wire, validated as such: documented as the integer it holds.
      const integer = INTEGER_PARAMETERS.get(valibotSchema);
      if (integer) return { ...integer };
      // A value whose form follows its shape (shared/schemas/common.ts oneOfByShape) is any of its forms.
      const forms = SHAPE_ALTERNATIVES.get(valibotSchema);
      return forms ? { anyOf: forms.map((form) => jsonSchema(form, typeMode)) } : undefined;
    },
  }) as JsonSchema & Json;
  // The override above leaves the lazy schema's own definition behind, unreferenced.
  if (rest.$defs && !JSON.stringify({ ...rest, $defs: undefined }).includes('#/$defs/')) delete rest.$defs;
  withIntegerFormats(rest);
  return rest;
}

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

/**
 * Gives every integer of a JSON Schema its `format`, from the range its schema states: int32
 * when that range fits 32 bits, else int64 (every integer the API reads or writes is a safe
 * JavaScript integer, so 64 bits always hold it).
 */
export function withIntegerFormats(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(withIntegerFormats);
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Json;
  if ([schema.type].flat().includes('integer') && schema.format === undefined) {
    const low = (schema.minimum ?? schema.exclusiveMinimum) as number | undefined;
    const high = (schema.maximum ?? schema.exclusiveMaximum) as number | undefined;
    schema.format = low !== undefined && high !== undefined && low >= INT32.min && high <= INT32.max ? 'int32' : 'int64';
  }
  for (const value of Object.values(schema)) withIntegerFormats(value);
}

/** OpenAPI parameters from the JSON Schema of a path, query or header object: one per property. */
export function parametersOf(object: Json, where: 'path' | 'query' | 'header'): Json[] {
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries((object.properties ?? {}) as Record<string, Json>).map(([name, schema]) => {
    const { description, ...rest } = schema as { description?: string } & Json;
    return { name, in: where, required: where === 'path' || required.has(name), ...(description ? { description } : {}), schema: rest };
  });
}
