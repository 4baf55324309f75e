import * as v from 'valibot';
import { ValidationError } from '../../shared/core/errors';
import { unstorableText } from '../../shared/http/request-text';
import { integerParam, parseBody, parseInput } from '../../shared/schemas/validation';
import { SendInviteBody } from '../../shared/schemas/invites';
import { ListUsersQuery } from '../../shared/schemas/members';
import { UploadUrlBody } from '../../shared/schemas/recordings';
import { UpdateMemberSettingsBody, settingsPatchErrorCode } from '../../shared/schemas/settings';
import { CreateTemplateBody } from '../../shared/schemas/templates';

/** The 400 a parse throws, as the envelope shows it. */
function refusal(run: () => unknown): { code: string; message: string; details: unknown } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return { code: error.code, message: error.message, details: error.details };
  }
  throw new Error('should have thrown');
}

describe('query validation', () => {
  it('applies the List users defaults', () => {
    expect(parseInput(ListUsersQuery, {})).toEqual({ page: 1, limit: 25 });
    expect(parseInput(ListUsersQuery, { q: '  Ann ', page: '3', limit: '100' })).toEqual({ q: 'Ann', page: 3, limit: 100 });
  });

  it.each(['0', '101', '-1', '1.5', '1e2', ' 5', 'ten', ''])('rejects limit=%j rather than clamping it', (limit) => {
    expect(refusal(() => parseInput(ListUsersQuery, { limit }))).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'limit must be an integer between 1 and 100.',
      details: [
        { field: 'limit', issue: expect.stringMatching(/^(format|out_of_range)$/), message: 'must be an integer between 1 and 100' },
      ],
    });
  });

  it('names unknown parameters', () => {
    expect(refusal(() => parseInput(ListUsersQuery, { pgae: '2' })).message).toBe('pgae is not a known parameter.');
  });

  it('reports every problem at once, with the given error code', () => {
    const schema = v.object({ a: integerParam({ defaultValue: 1, min: 1, max: 5 }), b: integerParam({ defaultValue: 1, min: 1 }) });
    expect(refusal(() => parseInput(schema, { a: '9', b: '0' }, 'INVALID_SETTING'))).toMatchObject({
      code: 'INVALID_SETTING',
      message: 'a must be an integer between 1 and 5; b must be an integer 1 or more.',
    });
  });
});

describe('body validation messages: one phrasing per kind of problem', () => {
  const body = (schema: v.GenericSchema, input: unknown) => refusal(() => parseBody(schema, input));

  it('says a missing required field is required, not unknown', () => {
    expect(body(UploadUrlBody, {})).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'filename is required; content_type is required; size_bytes is required.',
      details: [
        { field: 'filename', issue: 'missing', message: 'is required' },
        { field: 'content_type', issue: 'missing', message: 'is required' },
        { field: 'size_bytes', issue: 'missing', message: 'is required' },
      ],
    });
    expect(body(CreateTemplateBody, { name: 'x' }).message).toBe('sections is required.');
  });

  it('says an unknown field is not a known field', () => {
    expect(body(SendInviteBody, { emial: 'a@b.example' }).details).toEqual([
      { field: 'email', issue: 'missing', message: 'is required' },
      { field: 'emial', issue: 'unknown', message: 'is not a known field' },
    ]);
  });

  it('says a wrong type, null included, must be the right type', () => {
    expect(body(SendInviteBody, { email: null }).message).toBe('email must be a string.');
    expect(body(SendInviteBody, { email: 5 }).details).toEqual([{ field: 'email', issue: 'type', message: 'must be a string' }]);
    expect(body(SendInviteBody, []).message).toBe('The body must be a JSON object.');
    expect(body(SendInviteBody, undefined).details).toEqual([{ field: '', issue: 'missing', message: 'a JSON body is required' }]);
  });

  it('names nested fields as a client writes them, with too-long and too-short kinds', () => {
    const sections = [
      { title: 'ok', prompt: 'ok' },
      { title: 'x'.repeat(201), prompt: '' },
    ];
    expect(body(CreateTemplateBody, { name: 'n', sections }).details).toEqual([
      { field: 'sections[1].title', issue: 'too_long', message: 'must be at most 200 characters' },
      { field: 'sections[1].prompt', issue: 'invalid', message: 'must not be empty' },
    ]);
  });
});

describe('Update member settings body: one schema, the spec codes by section', () => {
  const patch = (input: unknown) => refusal(() => parseBody(UpdateMemberSettingsBody, input, settingsPatchErrorCode));

  it.each([
    [{}, 'EMPTY_PATCH'],
    [[], 'INVALID_JSON'],
    [{ theme: 'dark' }, 'INVALID_SETTING'],
    [{ settings: { selected_theme: 'neon' } }, 'INVALID_SETTING'],
    [{ settings: {} }, 'INVALID_SETTING'],
    [{ settings: { created_at: '2020-01-01T00:00:00.000Z' } }, 'INVALID_SETTING'],
    [{ notifications: { highlight_time: '25:00' } }, 'INVALID_SETTING'],
    [{ profile: { profile: 5 } }, 'INVALID_PROFILE'],
    [{ profile: 'text' }, 'INVALID_PROFILE'],
    [{ preferences: [] }, 'INVALID_PREFERENCES'],
    [{ preferences: [{ id: 'p1', delete: true, command: 'x' }] }, 'INVALID_PREFERENCES'],
    [
      {
        preferences: [
          { id: 'p1', delete: true },
          { id: 'p1', preference_content: 'x' },
        ],
      },
      'INVALID_PREFERENCES',
    ],
  ])('%j → %s', (input, code) => {
    expect(patch(input).code).toBe(code);
  });

  it('says a read-only setting is read-only', () => {
    expect(patch({ settings: { created_at: 'x' } }).details).toEqual([
      { field: 'settings.created_at', issue: 'read_only', message: 'is read-only' },
    ]);
  });

  it('gives the domain each preference entry in its form', () => {
    const parsed = parseInput(UpdateMemberSettingsBody, {
      profile: { profile: '# Notes' },
      preferences: [
        { command: 'c', command_type: 'manual', preference_content: 'p' },
        { id: 'p1', preference_content: 'q' },
        { id: 'p2', delete: true },
      ],
    });
    expect(parsed).toEqual({
      settings: undefined,
      notifications: undefined,
      profile: '# Notes',
      preferences: [
        { op: 'create', command: 'c', command_type: 'manual', preference_content: 'p' },
        { op: 'update', id: 'p1', preference_content: 'q' },
        { op: 'delete', id: 'p2', delete: true },
      ],
    });
  });
});

describe('text that cannot be stored as sent', () => {
  it('finds lone surrogates and NUL in values and keys, at any depth, and refuses deep nesting', () => {
    expect(unstorableText({ profile: { profile: 'ok \ud83d\ude00' } })).toEqual([]);
    expect(unstorableText({ profile: { profile: 'bad \ud800' } })).toEqual([
      { field: 'profile.profile', issue: 'invalid_text', message: 'must be valid Unicode text without NUL characters' },
    ]);
    expect(unstorableText({ tags: ['a', 'b\u0000'] })[0].field).toBe('tags[1]');
    expect(unstorableText({ ['\udc00']: 1 })[0].issue).toBe('invalid_text');
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(unstorableText(deep)).toEqual([{ field: '[0]'.repeat(32), issue: 'too_long', message: 'nests deeper than 32 levels' }]);
  });
});

describe('preference metadata is what DynamoDB can store', () => {
  const patch = (metadata: unknown) => v.safeParse(UpdateMemberSettingsBody, { preferences: [{ id: 'p1', metadata }] }).success;

  it.each([
    [{ '': [] }],
    [{ a: { '': 1 } }],
    [{ big: 1e200 }],
    [{ tiny: 1e-200 }],
    [{ list: [1, { n: -1e130 }] }],
    [{ ' ': -9007199254740992 }],
  ])('refuses %j', (metadata) => {
    expect(patch(metadata)).toBe(false);
  });

  it.each([[{ a: 0 }], [{ a: -0.5, b: [9007199254740991, 1e-129], c: { d: 'x' } }], [{}]])('accepts %j', (metadata) => {
    expect(patch(metadata)).toBe(true);
  });
});
