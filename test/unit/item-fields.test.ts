import { itemFields, StoredItemError } from '../../shared/storage/item-fields';

/**
 * Explicit item mappers read every field through itemFields: a field of the wrong type is a
 * StoredItemError naming the entity, the item and the field (a missed migration shows at
 * once), and the optional reads give the defaults the code assumes for attributes that
 * older items lack.
 */
const KEYS = { PK: 'ORG#org_a', SK: 'REC#rec_b' };

describe('itemFields', () => {
  const item = {
    ...KEYS,
    title: 'Standup',
    duration: 61.5,
    completed: false,
    state: 'ready',
    tags: ['tag_a', 'tag_b'],
    folder_id: null,
    related: { summary: true },
    segments: [{ text: 'hi' }],
    ciphertext: new Uint8Array([1, 2, 3]),
  };
  const fields = itemFields(item, 'recording');

  it('returns each field with its stored type', () => {
    expect(fields.string('title')).toBe('Standup');
    expect(fields.number('duration')).toBe(61.5);
    expect(fields.boolean('completed')).toBe(false);
    expect(fields.oneOf('state', ['pending_upload', 'ready'])).toBe('ready');
    expect(fields.stringList('tags')).toEqual(['tag_a', 'tag_b']);
    expect(fields.map('related')).toEqual({ summary: true });
    expect(fields.list('segments')).toEqual([{ text: 'hi' }]);
    expect(fields.bytes('ciphertext')).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('reads absent optional fields as undefined, and absent nullable, list and map fields as null, empty and empty', () => {
    expect(fields.optionalString('deleted_at')).toBeUndefined();
    expect(fields.optionalNumber('trash_count')).toBeUndefined();
    expect(fields.optionalBoolean('archived')).toBeUndefined();
    expect(fields.nullableString('folder_id')).toBeNull();
    expect(fields.nullableString('never_written')).toBeNull();
    expect(fields.list('never_written')).toEqual([]);
    expect(fields.map('never_written')).toEqual({});
    // Present values still come through the optional reads.
    expect(fields.optionalString('title')).toBe('Standup');
    expect(fields.optionalNumber('duration')).toBe(61.5);
  });

  it('refuses an absent required field with a StoredItemError naming the entity, the item and the field', () => {
    expect(() => fields.string('description')).toThrow(StoredItemError);
    expect(() => fields.string('description')).toThrow('Stored recording ORG#org_a|REC#rec_b: description is not a string');
    expect(() => fields.number('size_bytes')).toThrow('size_bytes is not a number');
    expect(() => fields.bytes('missing')).toThrow('missing is not binary');
  });

  it('refuses a field of another type, also through the optional reads', () => {
    expect(() => fields.string('duration')).toThrow(StoredItemError);
    expect(() => fields.number('title')).toThrow(StoredItemError);
    expect(() => fields.optionalString('duration')).toThrow('duration is not a string or absent');
    expect(() => fields.optionalNumber('title')).toThrow(StoredItemError);
    expect(() => fields.boolean('state')).toThrow(StoredItemError);
    expect(() => fields.nullableString('duration')).toThrow(StoredItemError);
  });

  it('refuses a value outside a closed set, a list holding other than strings, and a map that is a list or binary', () => {
    expect(() => fields.oneOf('state', ['pending_upload', 'uploaded'])).toThrow('state is not one of pending_upload, uploaded');
    expect(() => itemFields({ ...KEYS, tags: ['a', 1] }, 'recording').stringList('tags')).toThrow(StoredItemError);
    expect(() => fields.stringList('title')).toThrow(StoredItemError);
    expect(() => fields.map('tags')).toThrow('tags is not a map');
    expect(() => fields.map('ciphertext')).toThrow(StoredItemError);
    expect(() => fields.list('related')).toThrow('related is not a list');
  });
});
