import * as v from 'valibot';
import { EMAIL_MAX_LENGTH } from './common';

/**
 * The erasures area (docs/governance.md, "Erasure"): the request of Erase member and the
 * erasure as the API shows it. The counts are the one list of what an erasure removes or
 * rewrites; storage keeps them under these names and the `user.erased` event carries them.
 */

/** Body of Erase member: the member's email, typed again, so that nobody erases the wrong person by a mistyped id. */
export const EraseMemberBody = v.strictObject({
  confirm: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters`),
    v.description("The member's email address, as a confirmation (compared ignoring case)."),
  ),
});
export type EraseMemberBody = v.InferOutput<typeof EraseMemberBody>;

export const ERASURE_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ErasureStatus = (typeof ERASURE_STATUSES)[number];

/** What an erasure counts, in the order its steps run. */
export const ERASURE_COUNT_NAMES = [
  'recordings',
  'exports',
  'action_items_rewritten',
  'speakers_renamed',
  'settings_items',
  'tags',
  'api_keys',
  'invites',
  'webhook_deliveries_redacted',
  'memberships',
  'user_items',
] as const;
export type ErasureCountName = (typeof ERASURE_COUNT_NAMES)[number];
export type ErasureCounts = Record<ErasureCountName, number>;

const count = (description: string) => v.pipe(v.number(), v.integer(), v.minValue(0), v.description(description));

/** Ids and counts only: an erasure never shows the email or name of the person it erased. */
export const ErasureCountsSchema = v.strictObject({
  recordings: count('Recordings removed for good, with their files, transcripts, summaries, translations and search entries.'),
  exports: count('Exports of the member removed (their items and files).'),
  action_items_rewritten: count('Action items of other recordings that named the member, now assigned to "Former member".'),
  speakers_renamed: count('Speakers of other recordings named as the member, now named "Former member" with no user id.'),
  settings_items: count('Settings, profile, profile versions and preferences removed.'),
  tags: count("The member's tags removed."),
  api_keys: count('Personal API keys removed, with their secrets.'),
  invites: count("Invitations to the member's email removed, with their links and guards."),
  webhook_deliveries_redacted: count(
    "Stored webhook deliveries whose event quoted the member's email (invitation events), the email replaced by `erased@erased.invalid`.",
  ),
  memberships: count('Memberships removed (1, or 0 when it was already gone).'),
  user_items: count(
    'The user item, its email guard and its identity links removed: 0 while the person is a member of another organization.',
  ),
});

const text = (description: string) => v.pipe(v.string(), v.description(description));

/** An erasure as Erase member and Get member erasure return it. */
export const Erasure = v.strictObject({
  id: text('The erasure id (`era_…`).'),
  user_id: text('The erased member, by user id: the only thing about them an erasure keeps.'),
  status: v.pipe(
    v.picklist(ERASURE_STATUSES),
    v.description('`queued`, then `running` while its steps run (a crash resumes it), then `completed`; `failed` if a step keeps failing.'),
  ),
  step: v.pipe(v.nullable(v.string()), v.description('The step running, or that failed; null once completed.')),
  counts: v.pipe(ErasureCountsSchema, v.description('What was erased or rewritten so far, by kind.')),
  requested_by: v.pipe(
    v.strictObject({
      kind: v.pipe(v.picklist(['user', 'api_key']), v.description('`user`: an owner, by ID token; `api_key`: an organization API key.')),
      id: text('The user id, or the key id.'),
    }),
    v.description('Who asked: an owner (user id) or an organization API key (key id).'),
  ),
  created_at: text('When it was asked for (ISO 8601 UTC, with milliseconds).'),
  updated_at: text('When it last moved (ISO 8601 UTC, with milliseconds).'),
  completed_at: v.pipe(v.nullable(v.string()), v.description('When it completed; null before.')),
});
export type Erasure = v.InferOutput<typeof Erasure>;

export const ErasureResponse = v.strictObject({
  success: v.pipe(v.literal(true), v.description('Always true on success.')),
  data: v.pipe(Erasure, v.description('The erasure.')),
});
