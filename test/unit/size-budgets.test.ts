import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { createProfileCipher, rawAesKeyring } from '../../shared/crypto/profile-cipher';
import { inviteView } from '../../shared/domain/invites/invite-views';
import { toMember } from '../../shared/domain/members/list-users';
import { fitToPageBudget, PUBLIC_PAGE_BUDGET_BYTES } from '../../shared/domain/recordings/list-public-recordings';
import { listItemView, publicItemView } from '../../shared/domain/recordings/recording-views';
import { SUMMARY_LIMITS } from '../../shared/core/limits';
import { MAX_SUMMARIES_PER_RECORDING } from '../../shared/core/limits';
import type { SummaryDigest } from '../../shared/storage/summary-items';
import { DEFAULT_NOTIFICATIONS } from '../../shared/core/settings-catalog';
import { notificationsView, preferenceView, settingsView, tagView, userView } from '../../shared/domain/settings/member-settings-view';
import { templateView } from '../../shared/domain/templates/template-views';
import { CORS_RESPONSE_HEADERS, GATEWAY } from '../../shared/http/gateway';
import { pagePagination } from '../../shared/core/page-pagination';
import { json } from '../../shared/http/responses';
import { ListInvitesQuery } from '../../shared/schemas/invites';
import { ListUsersQuery } from '../../shared/schemas/members';
import { ListRecordingsQuery, PublicListRecordingsQuery, RECORDING_LIMITS, UpdateRecordingBody } from '../../shared/schemas/recordings';
import {
  GetSettingsQuery,
  PREFERENCE_ENTRIES_MAX,
  PREFERENCE_LIMITS,
  PreferenceCreate,
  PROFILE_MAX_CHARACTERS,
  ProfilePatch,
} from '../../shared/schemas/settings';
import { CreateTemplateBody, ListTemplatesQuery, TEMPLATE_LIMITS, TEMPLATE_PAGE } from '../../shared/schemas/templates';
import type { Membership } from '../../shared/storage/membership-items';
import type { MemberSettingsRecord, PreferenceRecord } from '../../shared/storage/member-settings-items';
import type { Recording } from '../../shared/storage/recording-items';
import type { RecordingParts } from '../../shared/storage/recording-part-items';
import type { Tag } from '../../shared/storage/tags';
import { templateItem, type TemplateRecord } from '../../shared/storage/template-items';

/**
 * Every response's largest allowed form, built from the exported limits with the costliest
 * characters each field accepts, measured as the Lambda payload AWS limits: the proxy result
 * `{statusCode, headers, body}` where `body` is the response's JSON as a JSON string, so its
 * escapes are escaped again. A limit raised past the budget fails here, not in production.
 * The figures are in docs/data-model.md, "Size budgets".
 */

/** Lambda's synchronous response payload limit, 6 MB (the runtime refuses more than 6,291,556 bytes). */
const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;
/** What a worst case may reach: 1 MiB under the limit, kept for headers and fields added later. */
const RESPONSE_BUDGET = 5 * 1024 * 1024;
/** DynamoDB's item size limit, and a transaction's. */
const DYNAMODB_ITEM_LIMIT = 400 * 1024;
const DYNAMODB_TRANSACTION_LIMIT = 4 * 1024 * 1024;

/** Bytes of a response in the Lambda payload, with every header a handler adds (a 128-character correlation id). */
function lambdaPayloadBytes(body: unknown): number {
  const response = json(200, body);
  response.headers = { ...response.headers, ...CORS_RESPONSE_HEADERS, [GATEWAY.correlationHeader]: 'c'.repeat(128) };
  return Buffer.byteLength(JSON.stringify(response));
}

/** Payload bytes of one string's characters, quotes excluded. */
const payloadCost = (text: string) => Buffer.byteLength(JSON.stringify(JSON.stringify(text))) - 6;

/** An upper bound of an item's DynamoDB size: its JSON spends at least as many bytes on names, values and nesting. */
const itemBytesAtMost = (item: unknown) => Buffer.byteLength(JSON.stringify(item));

/** The costliest text each kind of field accepts. */
const worst = {
  /** Free text: U+0001 is `\u0001` in the body and `\\u0001` in the payload (NUL is refused at the request boundary). */
  text: (units: number) => '\u0001'.repeat(units),
  /** Text without C0 controls (templates): `"` is `\"`, then `\\\"`. */
  textWithoutControls: (units: number) => '"'.repeat(units),
  /** Ids are [A-Za-z0-9_-]{1,64}: one byte each. */
  id: (seed = 'x') => seed.repeat(64).slice(0, 64),
  email: () => `${'a'.repeat(64)}@${'b'.repeat(185)}.com`,
  /** An object whose JSON is exactly `units` long, made of the costliest JSON text: a BMP character outside ASCII (3 bytes a unit). */
  jsonObject: (units: number) => ({ k: '\u0800'.repeat(units - JSON.stringify({ k: '' }).length) }),
};

const TIMESTAMP = '2025-01-01T00:00:00.000Z';
const percent = (bytes: number) => `${((100 * bytes) / LAMBDA_RESPONSE_LIMIT).toFixed(1)}% of 6 MiB`;
const figures: Record<string, string> = {};
afterAll(() =>
  console.log(
    Object.entries(figures)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n'),
  ),
);

/** Asserts a response's worst case is within the budget and records its figure. */
function expectWithinBudget(name: string, body: unknown): number {
  const bytes = lambdaPayloadBytes(body);
  figures[name] = `${bytes.toLocaleString('en-US')} bytes (${percent(bytes)})`;
  expect(bytes).toBeLessThanOrEqual(RESPONSE_BUDGET);
  return bytes;
}

/** The largest page size a list query accepts (and that one more is refused), read from its schema. */
function maxLimitOf(schema: v.GenericSchema, parameter = 'limit'): number {
  let max = 1;
  while (v.safeParse(schema, { [parameter]: String(max + 1) }).success) max += 1;
  return max;
}

describe('the cost model', () => {
  it('no character costs more than U+0001 (7 bytes), and none but C0 controls more than `"` (4 bytes)', () => {
    let costliest = 0;
    let costliestWithoutControls = 0;
    for (let unit = 1; unit <= 0xffff; unit++) {
      if (unit >= 0xd800 && unit <= 0xdfff) continue; // lone surrogates are refused at the request boundary
      const cost = payloadCost(String.fromCharCode(unit));
      costliest = Math.max(costliest, cost);
      if (unit >= 0x20) costliestWithoutControls = Math.max(costliestWithoutControls, cost);
    }
    expect(payloadCost('\u{1F600}')).toBe(4); // 4 bytes for 2 UTF-16 units
    expect([costliest, payloadCost(worst.text(1))]).toEqual([7, 7]);
    expect([costliestWithoutControls, payloadCost(worst.textWithoutControls(1))]).toEqual([4, 4]);
    // Tab, line feed and carriage return, still allowed in templates: 3 bytes each.
    expect(['\t', '\n', '\r'].map(payloadCost)).toEqual([3, 3, 3]);
  });

  it('no JSON text costs more than 3 bytes a UTF-16 unit (metadata is limited as JSON)', () => {
    // JSON text sits in the body as is, so the payload escapes it once.
    const jsonTextCost = (json: string) => Buffer.byteLength(JSON.stringify(json)) - 2;
    let costliest = 0;
    for (let unit = 1; unit <= 0xffff; unit++) {
      if (unit >= 0xd800 && unit <= 0xdfff) continue;
      const text = JSON.stringify({ k: String.fromCharCode(unit) });
      costliest = Math.max(costliest, (jsonTextCost(text) - jsonTextCost('{"k":""}')) / (text.length - '{"k":""}'.length));
    }
    expect(costliest).toBe(3);
    const object = worst.jsonObject(1_000);
    expect(JSON.stringify(object)).toHaveLength(1_000);
    expect(jsonTextCost(JSON.stringify(object))).toBeGreaterThan(2_950);
  });
});

// ---------------------------------------------------------------------------------------
// Templates

/**
 * The largest template CreateTemplateBody accepts: every text field full of `fill` (by default
 * `"`, the costliest in a response), and the sections' shared budget spread over the most
 * sections (each section adds its own JSON).
 */
function largestTemplateBody(fill = worst.textWithoutControls): CreateTemplateBody {
  const count = TEMPLATE_LIMITS.sections;
  const sections = Array.from({ length: count }, () => ({ title: 1, prompt: 1 }));
  let left = TEMPLATE_LIMITS.sectionsText - 2 * count;
  for (const section of sections) {
    const title = Math.min(TEMPLATE_LIMITS.sectionTitle - 1, left);
    section.title += title;
    left -= title;
    const prompt = Math.min(TEMPLATE_LIMITS.prompt - 1, left);
    section.prompt += prompt;
    left -= prompt;
  }
  return {
    name: fill(TEMPLATE_LIMITS.name),
    description: fill(TEMPLATE_LIMITS.description),
    sections: sections.map(({ title, prompt }) => ({ title: fill(title), prompt: fill(prompt) })),
    // `false` is the longer JSON of the two.
    is_default: false,
  };
}

const largestTemplateRecord = (id = worst.id(), fill = worst.textWithoutControls): TemplateRecord => ({
  id,
  org_id: worst.id(),
  ...largestTemplateBody(fill),
  created_at: TIMESTAMP,
  updated_at: TIMESTAMP,
});

describe('templates', () => {
  it('the largest template is accepted, and one character more anywhere is refused', () => {
    const body = largestTemplateBody();
    expect(v.safeParse(CreateTemplateBody, body).success).toBe(true);
    const more = (change: (copy: CreateTemplateBody) => void) => {
      const copy = structuredClone(body);
      change(copy);
      return v.safeParse(CreateTemplateBody, copy).success;
    };
    expect(more((t) => (t.name += '"'))).toBe(false);
    expect(more((t) => (t.description += '"'))).toBe(false);
    expect(more((t) => (t.sections.at(-1)!.prompt += '"'))).toBe(false);
    expect(more((t) => t.sections.push({ title: 't', prompt: 'p' }))).toBe(false);
    expect(more((t) => (t.name = `${t.name.slice(1)}\u0001`))).toBe(false);
  });

  it('the largest template fits one DynamoDB item', () => {
    // In the table the costliest character is a BMP one outside ASCII: 3 bytes of UTF-8 a unit.
    const stored = largestTemplateRecord(worst.id(), (units) => '\u0800'.repeat(units));
    expect(v.safeParse(CreateTemplateBody, { name: stored.name, description: stored.description, sections: stored.sections }).success).toBe(
      true,
    );
    const bytes = itemBytesAtMost(templateItem(stored));
    figures['template item'] = `at most ${bytes.toLocaleString('en-US')} bytes`;
    expect(bytes).toBeLessThan(DYNAMODB_ITEM_LIMIT / 4);
  });

  it('Get, Create and Update answer the largest template within budget', () => {
    expectWithinBudget('template', templateView(largestTemplateRecord()));
  });

  it(`a full page of the largest templates is within budget (List templates: default = max = ${TEMPLATE_PAGE.maxLimit})`, () => {
    const max = maxLimitOf(ListTemplatesQuery);
    expect(max).toBe(TEMPLATE_PAGE.maxLimit);
    expect(v.parse(ListTemplatesQuery, {}).limit).toBe(TEMPLATE_PAGE.defaultLimit);
    const templates = Array.from({ length: max }, (_, i) => templateView(largestTemplateRecord(worst.id(String(i % 10)))));
    expectWithinBudget('List templates page', { templates, pagination: pagePagination(1, max, 1_000_000) });
  });
});

// ---------------------------------------------------------------------------------------
// Member settings bundle and List users

const largestMembership = (seed = 'x'): Membership => ({
  org_id: worst.id(),
  user_id: worst.id(seed),
  email: worst.email(),
  display_name: worst.text(200), // DisplayName
  role: 'member',
  status: 'active',
  member_since: TIMESTAMP,
  created_at: TIMESTAMP,
  updated_at: TIMESTAMP,
  recording_count: Number.MAX_SAFE_INTEGER,
  latest_recording_at: TIMESTAMP,
});

/** A preference at every limit, with the audit metadata merged over its own. */
function largestPreference(seed: string): PreferenceRecord {
  const own = worst.jsonObject(PREFERENCE_LIMITS.metadataJson);
  const entry = {
    command: worst.text(PREFERENCE_LIMITS.command),
    command_type: worst.text(PREFERENCE_LIMITS.commandType),
    preference_content: worst.text(PREFERENCE_LIMITS.content),
    source_recording_id: worst.id(),
    source_summarization_id: worst.id(),
    metadata: own,
  };
  expect(v.safeParse(PreferenceCreate, entry).success).toBe(true);
  return {
    ...entry,
    id: worst.id(seed),
    org_id: worst.id(),
    user_id: worst.id(),
    metadata: { ...own, source: 'org_admin_api', actor: worst.id(), correlation_id: 'c'.repeat(128) },
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
  };
}

const largestTag = (seed: string): Tag => ({
  tag_id: worst.id(seed),
  org_id: worst.id(),
  user_id: worst.id(),
  name: worst.text(200), // DisplayName
  color: '#ffffffff',
  created_at: TIMESTAMP,
  updated_at: TIMESTAMP,
});

describe('member settings bundle', () => {
  const preferencesLimit = maxLimitOf(GetSettingsQuery, 'preferences_limit');
  const profile = worst.text(PROFILE_MAX_CHARACTERS); // code points: U+0001 is one unit and one code point

  function bundle(tagCount: number) {
    const membership = largestMembership();
    const settings = {
      settings: { selected_model: worst.text(100) },
      notifications: DEFAULT_NOTIFICATIONS,
      created_at: TIMESTAMP,
      updated_at: TIMESTAMP,
    } as unknown as MemberSettingsRecord;
    return {
      user: { ...userView(membership, undefined), timezone: 'America/Argentina/ComodRivadavia' },
      settings: settingsView(settings, membership, { active: [], fallback: worst.text(100) }),
      notifications: notificationsView(settings),
      profile: { profile, version: Number.MAX_SAFE_INTEGER },
      preferences: {
        data: Array.from({ length: preferencesLimit }, (_, i) => preferenceView(largestPreference(String(i % 10)))),
        pagination: pagePagination(1, preferencesLimit, 1_000_000),
      },
      tags: Array.from({ length: tagCount }, (_, i) => tagView(largestTag(String(i % 10)))),
    };
  }

  it('the spec’s limits: 200 preferences a page, a profile of 100,000 characters', () => {
    expect(preferencesLimit).toBe(200);
    expect(PROFILE_MAX_CHARACTERS).toBe(100_000);
    expect(v.safeParse(ProfilePatch, { profile }).success).toBe(true);
  });

  it('a bundle with every section at its largest is within budget, with room for 100 of the largest tags', () => {
    const withoutTags = lambdaPayloadBytes({ success: true, data: bundle(0) });
    const perTag = lambdaPayloadBytes({ success: true, data: bundle(1) }) - withoutTags;
    figures['settings bundle without tags'] = `${withoutTags.toLocaleString('en-US')} bytes (${percent(withoutTags)})`;
    figures['settings bundle: room for tags'] =
      `${Math.floor((RESPONSE_BUDGET - withoutTags) / perTag)} of ${perTag.toLocaleString('en-US')} bytes each`;
    expectWithinBudget('settings bundle with 100 tags', { success: true, data: bundle(100) });
  });
});

describe('member settings storage', () => {
  /** The largest profile deflate can do least with: code points drawn evenly from all of Unicode (4-byte UTF-8 mostly). */
  function leastCompressibleProfile(): string {
    let seed = 12_345;
    const next = () => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0);
    const points: number[] = [];
    while (points.length < PROFILE_MAX_CHARACTERS) {
      const point = 1 + (next() % 0x10ffff);
      if (point < 0xd800 || point > 0xdfff) points.push(point);
    }
    return String.fromCodePoint(...points);
  }

  it('the largest profile, encrypted, fits one item, and one update’s transaction fits 4 MB', async () => {
    const profile = leastCompressibleProfile();
    expect(v.safeParse(ProfilePatch, { profile }).success).toBe(true);
    const ciphertext = await createProfileCipher(rawAesKeyring(randomBytes(32))).encrypt(profile, {
      orgId: worst.id(),
      userId: worst.id(),
    });
    const profileItem = ciphertext.length + 1_024; // keys, version, timestamps, actor
    figures['profile item'] =
      `at most ${profileItem.toLocaleString('en-US')} bytes (${Buffer.byteLength(profile).toLocaleString('en-US')} bytes of UTF-8 before deflate)`;
    expect(profileItem).toBeLessThan(DYNAMODB_ITEM_LIMIT);

    // In the table, a preference's costliest character is a BMP one outside ASCII: 3 bytes a unit.
    const bmp = (units: number) => '\u0800'.repeat(units);
    const preferenceItem = itemBytesAtMost({
      ...largestPreference('x'),
      command: bmp(PREFERENCE_LIMITS.command),
      command_type: bmp(PREFERENCE_LIMITS.commandType),
      preference_content: bmp(PREFERENCE_LIMITS.content),
      PK: `ORG#${worst.id()}`,
      SK: `MEMBER#${worst.id()}#PREF#${worst.id()}`,
      GSI1PK: `ORG#${worst.id()}#USER#${worst.id()}#PREFS`,
      GSI1SK: `${TIMESTAMP}#${worst.id()}`,
    });
    // The settings item, the profile and its version row, and every preference entry of one PATCH.
    const transaction = 4_096 + 2 * profileItem + PREFERENCE_ENTRIES_MAX * preferenceItem;
    figures['settings update transaction'] =
      `at most ${transaction.toLocaleString('en-US')} bytes (preference item at most ${preferenceItem.toLocaleString('en-US')})`;
    expect(transaction).toBeLessThan(DYNAMODB_TRANSACTION_LIMIT);
  });
});

describe('List users', () => {
  it('a page of the largest members is within budget', () => {
    const limit = maxLimitOf(ListUsersQuery);
    const members = Array.from({ length: limit }, (_, i) => toMember(largestMembership(String(i % 10))));
    expectWithinBudget('List users page', { success: true, data: members, pagination: pagePagination(1, limit, 1_000_000) });
  });
});

// ---------------------------------------------------------------------------------------
// Recordings and invites

const largestRecording = (seed: string): Recording => ({
  id: worst.id(seed),
  org_id: worst.id(),
  recorded_by: worst.id(),
  title: worst.text(RECORDING_LIMITS.title),
  description: worst.text(RECORDING_LIMITS.description),
  duration: -Number.MAX_VALUE,
  language: 'x'.repeat(35), // the fixture's limit; uploads have none yet (see the todo below)
  tags: Array.from({ length: RECORDING_LIMITS.tags }, (_, i) => `${worst.id(String(i % 10)).slice(0, 62)}${String(i).padStart(2, '0')}`),
  folder_id: worst.id(),
  state: 'pending_upload',
  created_at: TIMESTAMP,
  updated_at: TIMESTAMP,
  recording_at: TIMESTAMP,
  deleted_at: TIMESTAMP,
  related: { transcript: true, summary: true, action_items: true, translation: true },
});

describe('recordings', () => {
  it('the recording limits are the ones the schemas enforce', () => {
    const ok = {
      title: worst.text(RECORDING_LIMITS.title),
      description: worst.text(RECORDING_LIMITS.description),
      tags: largestRecording('x').tags,
    };
    expect(v.safeParse(UpdateRecordingBody, ok).success).toBe(true);
    expect(v.safeParse(UpdateRecordingBody, { ...ok, title: `${ok.title}x` }).success).toBe(false);
    expect(v.safeParse(UpdateRecordingBody, { ...ok, tags: [...ok.tags, 'one_more'] }).success).toBe(false);
  });

  it('a page of the largest recordings (organization list) is within budget', () => {
    const limit = maxLimitOf(ListRecordingsQuery);
    const recordings = Array.from({ length: limit }, (_, i) => listItemView(largestRecording(String(i % 10))));
    expectWithinBudget('List recordings page', {
      recordings,
      pagination: { page: 1, limit, total: 1_000_000, next_cursor: 'c'.repeat(1_000) },
    });
  });

  it('public list: a page of the largest recordings is within budget but for their summaries, whose room it reports', () => {
    const limit = maxLimitOf(PublicListRecordingsQuery);
    expect(limit).toBe(100); // the spec's
    const item = (seed: string) => {
      const recording = largestRecording(seed);
      const tags = new Map(recording.tags.map((id) => [id, { ...largestTag('x'), tag_id: id }]));
      // Bounded only by their item today: sized here as what the fixtures and the pipeline write in practice.
      const parts: RecordingParts = {
        summary: {
          markdown: '',
          template_id: worst.id(),
          template_name: worst.text(TEMPLATE_LIMITS.name),
          created_at: TIMESTAMP,
          updated_at: TIMESTAMP,
        },
        transcript: {
          header: {
            id: `${recording.id}_transcript`,
            language: recording.language,
            segment_count: Number.MAX_SAFE_INTEGER,
            chunk_count: 1,
            created_at: TIMESTAMP,
            updated_at: TIMESTAMP,
          },
          segments: [],
        },
        translation: {
          id: worst.id(),
          created_at: TIMESTAMP,
          updated_at: TIMESTAMP,
          detected_language: 'x'.repeat(35),
          to_language: 'x'.repeat(35),
          processing_status: 'completed',
          error_message: '',
        },
      };
      return publicItemView(recording, largestMembership(), tags, parts);
    };
    const data = Array.from({ length: limit }, (_, i) => item(String(i % 10)));
    const bytes = expectWithinBudget('public List recordings page, empty summaries', {
      success: true,
      data,
      pagination: pagePagination(1, limit, 1_000_000),
    });
    figures['public list: room for each summary'] =
      `${Math.floor((RESPONSE_BUDGET - bytes) / limit / 7).toLocaleString('en-US')} characters of free text`;
  });

  it('public list: a page of the largest recordings, each with 20 of the largest summaries (all failed), is within budget by construction: the excerpts share what is left', () => {
    const limit = maxLimitOf(PublicListRecordingsQuery);
    const digest = (i: number): SummaryDigest => ({
      id: worst.id(String(i % 10)),
      template_id: worst.id(),
      template_name: worst.textWithoutControls(TEMPLATE_LIMITS.name),
      status: 'failed',
      model: worst.id(),
      // Stored excerpts have no control characters (excerptOf); `"` is the costliest character left.
      excerpt: worst.textWithoutControls(SUMMARY_LIMITS.excerpt),
      error: worst.textWithoutControls(SUMMARY_LIMITS.error),
      created_at: TIMESTAMP,
      updated_at: TIMESTAMP,
    });
    const recordings = Array.from({ length: limit }, (_, i) => {
      const summaries = Array.from({ length: MAX_SUMMARIES_PER_RECORDING }, (_, j) => digest(j));
      return { ...largestRecording(String(i % 10)), summaries, summarizations_errors: summaries.map((d) => d.error ?? '') };
    });
    const parts: RecordingParts = {
      transcript: {
        header: {
          id: worst.id(),
          language: 'x'.repeat(35),
          segment_count: Number.MAX_SAFE_INTEGER,
          chunk_count: 1,
          created_at: TIMESTAMP,
          updated_at: TIMESTAMP,
        },
        segments: [],
      },
      translation: {
        id: worst.id(),
        created_at: TIMESTAMP,
        updated_at: TIMESTAMP,
        detected_language: 'x'.repeat(35),
        to_language: 'x'.repeat(35),
        processing_status: 'completed',
        error_message: '',
      },
    };
    const build = (excerptBytes: number) =>
      recordings.map((recording) =>
        publicItemView(
          recording,
          largestMembership(),
          new Map(recording.tags.map((id) => [id, { ...largestTag('x'), tag_id: id }])),
          parts,
          excerptBytes,
        ),
      );
    const data = fitToPageBudget(limit * MAX_SUMMARIES_PER_RECORDING, build, PUBLIC_PAGE_BUDGET_BYTES - 1_000);
    expectWithinBudget('public List recordings page, 20 summaries each', {
      success: true,
      data,
      pagination: pagePagination(1, limit, 1_000_000),
    });
    const kept = [...(data[0].summarizations?.[0]?.excerpt ?? '')].length;
    figures['public list, 20 summaries each: excerpt kept'] = `${kept} of ${SUMMARY_LIMITS.excerpt} characters of the costliest text`;
    // A page of ordinary recordings keeps whole excerpts: only a full page of the largest shortens them.
    const light = fitToPageBudget(1, () => [
      publicItemView({ ...largestRecording('l'), summaries: [digest(0)] }, largestMembership(), new Map(), {}, Infinity),
    ]);
    expect(light[0].summarizations?.[0]?.excerpt).toBe(digest(0).excerpt);
  });

  // Bounds the budget needs and nothing enforces yet (docs/decisions.md, "Size budgets").
  it.todo('public list: translation strings have no length limit (only the 400 KB item)');
  it.todo('upload: `language` has no length limit (a regex only); the lists carry it on every item');
  it.todo('fixtures: a recording’s `tags` has no count limit (the API allows 20)');
});

describe('List invites', () => {
  it('a page of the largest invites is within budget', () => {
    const limit = maxLimitOf(ListInvitesQuery);
    const invites = Array.from({ length: limit }, (_, i) =>
      inviteView(
        {
          id: worst.id(String(i % 10)),
          org_id: worst.id(),
          email: worst.email(),
          role: 'member',
          status: 'pending',
          created_at: TIMESTAMP,
          updated_at: TIMESTAMP,
          expires_at: TIMESTAMP,
          invited_by: worst.id(),
          token_hash: 'f'.repeat(64),
          delivery: { status: 'failed', sent_at: TIMESTAMP, attempts: 5, last_error: 'MAIL_UNAVAILABLE' },
        },
        new Date(0),
      ),
    );
    expectWithinBudget('List invites page', { invites, pagination: pagePagination(1, limit, 1_000_000) });
  });
});

describe('bounds the settings budget assumes and nothing enforces yet', () => {
  it.todo('a member’s tag count (tags come from fixtures only): the bundle has room for about the number printed above');
  it.todo('a display name taken from an ID token’s name claim on invite acceptance has no length limit');
});
