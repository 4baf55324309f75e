/**
 * Raised when a stored item lacks a field its entity needs, or holds one of another type:
 * the table and the code disagree (a migration was missed), which is a bug to see at once
 * rather than an `undefined` travelling on into a response.
 */
export class StoredItemError extends Error {
  override readonly name = 'StoredItemError';
}

type Item = Record<string, unknown>;

/**
 * Typed reads of a stored item's fields, for the explicit `fromItem` mapper of each entity.
 * Each read checks the type DynamoDB returned; `optional…` reads accept an absent field
 * (attributes added after items were first written, or never set).
 *
 * @param entity named in errors, e.g. `invite`
 */
export function itemFields(item: Item, entity: string) {
  const fail = (name: string, expected: string): never => {
    throw new StoredItemError(`Stored ${entity} ${String(item.PK)}|${String(item.SK)}: ${name} is not ${expected}`);
  };
  const read = <T>(name: string, expected: string, accepts: (value: unknown) => value is T): T => {
    const value = item[name];
    return accepts(value) ? value : fail(name, expected);
  };
  const isString = (value: unknown): value is string => typeof value === 'string';
  const isNumber = (value: unknown): value is number => typeof value === 'number';
  const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
  const isAbsent = (value: unknown): value is undefined => value === undefined;
  return {
    string: (name: string): string => read(name, 'a string', isString),
    optionalString: (name: string): string | undefined =>
      read(name, 'a string or absent', (v): v is string | undefined => isAbsent(v) || isString(v)),
    /** A string or null (absent reads as null). */
    nullableString: (name: string): string | null =>
      read(name, 'a string or null', (v): v is string | null | undefined => v === null || isAbsent(v) || isString(v)) ?? null,
    number: (name: string): number => read(name, 'a number', isNumber),
    optionalNumber: (name: string): number | undefined =>
      read(name, 'a number or absent', (v): v is number | undefined => isAbsent(v) || isNumber(v)),
    boolean: (name: string): boolean => read(name, 'a boolean', isBoolean),
    optionalBoolean: (name: string): boolean | undefined =>
      read(name, 'a boolean or absent', (v): v is boolean | undefined => isAbsent(v) || isBoolean(v)),
    /** One of a closed set of strings (a status, a role). */
    oneOf: <const T extends string>(name: string, values: readonly T[]): T =>
      read(name, `one of ${values.join(', ')}`, (v): v is T => isString(v) && (values as readonly string[]).includes(v)),
    stringList: (name: string): string[] => read(name, 'a list of strings', (v): v is string[] => Array.isArray(v) && v.every(isString)),
    /** A list whose entries the caller maps (absent reads as empty). */
    list: (name: string): unknown[] => read(name, 'a list', (v): v is unknown[] | undefined => isAbsent(v) || Array.isArray(v)) ?? [],
    /** A map whose contents the caller maps or passes through as data (absent reads as empty). */
    map: (name: string): Record<string, unknown> =>
      read(
        name,
        'a map',
        (v): v is Record<string, unknown> | undefined =>
          isAbsent(v) || (typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array)),
      ) ?? {},
    bytes: (name: string): Uint8Array => read(name, 'binary', (v): v is Uint8Array => v instanceof Uint8Array),
  };
}

export type ItemFields = ReturnType<typeof itemFields>;

/**
 * Typed reads of a map nested in a stored item (an entry of a list, or a map attribute):
 * errors name the item it belongs to.
 */
export function nestedItemFields(owner: Item, value: unknown, entity: string): ItemFields {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array) {
    throw new StoredItemError(`Stored ${entity} ${String(owner.PK)}|${String(owner.SK)}: is not a map`);
  }
  return itemFields({ ...value, PK: owner.PK, SK: owner.SK }, entity);
}
