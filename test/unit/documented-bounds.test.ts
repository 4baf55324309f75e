import * as v from 'valibot';
import { jsonSchema } from '../../shared/openapi/json-schema';
import { Id, Timestamp } from '../../shared/schemas/common';
import { EventId } from '../../shared/schemas/event-catalog';
import { GetRecordingQuery, ListRecordingsQuery, UploadUrlBody } from '../../shared/schemas/recordings';
import {
  NotificationsPatch,
  PREFERENCE_LIMITS,
  PreferenceCreate,
  PROFILE_MAX_CHARACTERS,
  ProfilePatch,
} from '../../shared/schemas/settings';
import { Month } from '../../shared/schemas/transcription';
import { WebhookDeliveryHeaders } from '../../shared/schemas/webhooks';
import { newSigningSecret, webhookHeaders } from '../../shared/webhooks/signature';

type Json = Record<string, any>;

/**
 * The bounds the OpenAPI document shows from a schema's metadata (shared/schemas/common.ts
 * admitsAtMost), where a regex or a check enforces them: each is the longest value that check
 * admits, so a client held to the document is refused nothing the API takes, and the API takes
 * nothing longer.
 */
describe('bounds the document shows for a check (metadata)', () => {
  const accepts = (schema: v.GenericSchema, value: unknown) => v.safeParse(schema, value).success;
  const maxLengthOf = (schema: v.GenericSchema): number => jsonSchema(schema, 'input').maxLength;
  const property = (object: v.GenericSchema, name: string): Json => jsonSchema(object, 'input').properties[name];

  it.each<[string, v.GenericSchema, string, string]>([
    ['an id', Id, 'x'.repeat(64), 'x'.repeat(65)],
    [
      'a timestamp (nanoseconds and a spaced offset)',
      Timestamp,
      '2026-01-01T10:00:00.123456789 +02:00',
      '2026-01-01T10:00:00.1234567890 +02:00',
    ],
    ['a month', Month, '2026-02', '2026-002'],
    ['an event id', EventId, `evt_${'a'.repeat(32)}`, `evt_${'a'.repeat(33)}`],
  ])('%s: the longest value it takes is the maxLength, one more is refused', (_, schema, longest, longer) => {
    expect([accepts(schema, longest), accepts(schema, longer)]).toEqual([true, false]);
    expect(maxLengthOf(schema)).toBe(longest.length);
  });

  it('a calendar day and a time of day are as long as their form', () => {
    const day = property(ListRecordingsQuery, 'date');
    expect(day).toEqual(expect.objectContaining({ format: 'date', maxLength: 10 }));
    expect([accepts(ListRecordingsQuery, { date: '2026-02-28' }), accepts(ListRecordingsQuery, { date: '2026-02-028' })]).toEqual([
      true,
      false,
    ]);
    expect(property(NotificationsPatch, 'highlight_time').maxLength).toBe(5);
    expect([accepts(NotificationsPatch, { highlight_time: '23:59' }), accepts(NotificationsPatch, { highlight_time: '23:590' })]).toEqual([
      true,
      false,
    ]);
  });

  it('a profile counts code points, as JSON Schema does: the longest is the maxLength, in emoji as in letters', () => {
    expect(property(ProfilePatch, 'profile').maxLength).toBe(PROFILE_MAX_CHARACTERS);
    const emoji = '🎙️'.slice(0, 2); // one code point, two UTF-16 units
    expect(
      [emoji.repeat(PROFILE_MAX_CHARACTERS), 'a'.repeat(PROFILE_MAX_CHARACTERS), 'a'.repeat(PROFILE_MAX_CHARACTERS + 1)].map((profile) =>
        accepts(ProfilePatch, { profile }),
      ),
    ).toEqual([true, true, false]);
  });

  it('a metadata key is no longer than the whole metadata may be as JSON: a key over it is refused by the size check', () => {
    expect(property(PreferenceCreate, 'metadata').propertyNames.maxLength).toBe(PREFERENCE_LIMITS.metadataJson);
    const preference = (key: string) => ({ command: 'c', command_type: 'manual', preference_content: 'p', metadata: { [key]: 0 } });
    expect([
      accepts(PreferenceCreate, preference('k'.repeat(PREFERENCE_LIMITS.metadataJson - 6))),
      accepts(PreferenceCreate, preference('k'.repeat(PREFERENCE_LIMITS.metadataJson))),
    ]).toEqual([true, false]);
  });

  it("holds the signer's headers to the webhook's parameters, the longest signature (two secrets) at their maxLength", () => {
    const message = { messageId: `evt_${'0'.repeat(32)}`, timestampSeconds: Math.floor(Date.now() / 1000), body: '{}' };
    for (const secrets of [[newSigningSecret()], [newSigningSecret(), newSigningSecret()]]) {
      expect(v.safeParse(WebhookDeliveryHeaders, webhookHeaders({ ...message, secrets })).issues).toBeUndefined();
    }
    const twoSigned = webhookHeaders({ ...message, secrets: [newSigningSecret(), newSigningSecret()] })['webhook-signature'];
    expect(property(WebhookDeliveryHeaders, 'webhook-signature').maxLength).toBe(twoSigned.length);
  });
});

/** New bounds on what the checks after a split read (their text was unbounded): each refuses only text longer than any list the check takes. */
describe('bounds on list texts', () => {
  it('takes 20 tag ids of the longest form, with blanks, and refuses text beyond', () => {
    const ids = Array.from({ length: 20 }, (_, i) => `${String(i).padStart(2, '0')}${'x'.repeat(62)}`);
    expect(v.safeParse(ListRecordingsQuery, { tagIds: ids.join(', ') }).success).toBe(true);
    expect(v.safeParse(ListRecordingsQuery, { tagIds: `${ids.join(', ')}, ,` }).issues?.map((issue) => issue.type)).toEqual(['max_length']);
  });

  it('takes every related resource of Get recording, with blanks and repeats, up to 200 characters', () => {
    const every = 'transcript, summary, action_items, translation';
    expect(v.safeParse(GetRecordingQuery, { include: `${every}, ${every}` }).success).toBe(true);
    expect(v.safeParse(GetRecordingQuery, { include: `${every},`.repeat(5) }).issues?.map((issue) => issue.type)).toEqual(['max_length']);
  });

  it('refuses an upload over 5 GiB in the schema, with the out-of-range problem the handler gives over the deployment limit', () => {
    const upload = (size_bytes: number) => v.safeParse(UploadUrlBody, { filename: 'a.mp3', content_type: 'audio/mpeg', size_bytes });
    expect([upload(5 * 1024 ** 3).success, upload(5 * 1024 ** 3 + 1).issues?.map((issue) => issue.type)]).toEqual([true, ['max_value']]);
  });
});
