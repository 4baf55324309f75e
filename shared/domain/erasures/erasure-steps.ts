import { ApiError } from '../../core/errors';
import type { ErasureCountName } from '../../schemas/erasures';
import type { SearchIndex } from '../../search/search-index';
import { organizationActionItemHolders, replaceActionItems, type ActionItemHolder } from '../../storage/assignee-rewrites';
import type { RecordingSpeaker } from '../../storage/speaker-items';
import { organizationNamedSpeakers, replaceSpeakers } from '../../storage/speaker-rewrites';
import type { TableContext } from '../../storage/dynamo';
import type { ErasureRecord } from '../../storage/erasure-items';
import { memberExportObjectKey } from '../../storage/member-export-items';
import { markErasurePage, recordErasureCount } from '../../storage/erasures';
import {
  deleteByKeys,
  deleteMembershipForGood,
  deleteUserRemains,
  invitationKeys,
  memberApiKeyKeys,
  memberExportKeys,
  memberRecordingIds,
  memberSettingsKeys,
  memberTagKeys,
  userRemains,
} from '../../storage/member-erasure-writes';
import { redactDeliveryPayloads } from '../../storage/delivery-redaction';
import { getMembership } from '../../storage/memberships';
import type { RecordingObjects } from '../../storage/recording-objects';
import { getUser } from '../../storage/users';
import { cleanUpRecording } from '../recordings/clean-up-recording';
import { deleteRecordingPermanently } from '../recordings/delete-recording';
import { reindexRecording } from '../search/index-recording';

/** What the erasure job needs: the table, the clock, the bucket, and the search index where the deployment has one. */
export interface ErasureJobDeps {
  db: TableContext;
  now: () => Date;
  objects: Pick<RecordingObjects, 'deletePrefix' | 'deleteObject'>;
  index?: SearchIndex;
}

/** What the job knows of the person while their membership or user item is left: how others' data may name them. */
export interface Person {
  userId: string;
  email: string | undefined;
  displayName: string | undefined;
}

export async function personOf(db: TableContext, erasure: ErasureRecord): Promise<Person> {
  const membership = await getMembership(db, erasure.org_id, erasure.user_id, { consistent: true });
  const user = membership ? undefined : await getUser(db, erasure.user_id);
  const found = membership ?? user;
  return { userId: erasure.user_id, email: found?.email, displayName: found?.display_name };
}

type Step = (deps: ErasureJobDeps, erasure: ErasureRecord, person: Person) => Promise<void>;

/** Recordings deleted at once: each page is noted on the erasure first, so a crash midway finishes its cleanup. */
const RECORDING_PAGE = 25;
/** What an action item that named an erased member is assigned to. */
export const FORMER_MEMBER = 'Former member';
/** What an erased member's email becomes where an event sent to a webhook quoted it. */
export const ERASED_EMAIL = 'erased@erased.invalid';

const count = (deps: ErasureJobDeps, erasure: ErasureRecord, name: ErasureCountName, value: number) =>
  recordErasureCount(deps.db, erasure, name, value, deps.now().toISOString());

/**
 * The member's recordings, each through the permanent delete (its counts, tag links and
 * tombstone, whose `recording.deleted` event the cleanup and indexer consumers handle too),
 * then its related items and files and its search entries removed here, so that a completed
 * erasure has left nothing behind whatever the consumers' pace.
 */
async function eraseRecordings(deps: ErasureJobDeps, erasure: ErasureRecord): Promise<void> {
  const { db } = deps;
  const finish = async (recordingId: string) => {
    try {
      await deleteRecordingPermanently(deps, erasure.org_id, recordingId);
    } catch (error) {
      // Already gone: a previous run deleted it and was stopped before its cleanup.
      if (!(error instanceof ApiError && error.code === 'RECORDING_NOT_FOUND')) throw error;
    }
    const cleanup = await cleanUpRecording(
      { db, objects: deps.objects },
      { type: 'recording.deleted', org_id: erasure.org_id, resource: { type: 'recording', id: recordingId } },
    );
    if (cleanup.skipped) throw new Error(`Recording ${recordingId} of an erasure exists again: the job retries.`);
    await deps.index?.removeRecording(erasure.org_id, recordingId);
  };
  const ids = await memberRecordingIds(db, erasure.org_id, erasure.user_id);
  await count(deps, erasure, 'recordings', ids.length);
  for (const recordingId of erasure.in_progress) if (!ids.includes(recordingId)) await finish(recordingId);
  for (let start = 0; start < ids.length; start += RECORDING_PAGE) {
    const page = ids.slice(start, start + RECORDING_PAGE);
    await markErasurePage(db, erasure, page, deps.now().toISOString());
    // One at a time: each delete moves the recorder's count, conditioned on the value read, so parallel ones conflict.
    for (const recordingId of page) await finish(recordingId);
  }
}

/** The member's exports: each ZIP (exports/<org>/<user>/<export>.zip), then the items that name them. */
async function eraseExports(deps: ErasureJobDeps, erasure: ErasureRecord): Promise<void> {
  const items = await memberExportKeys(deps.db, erasure.org_id, erasure.user_id);
  await count(deps, erasure, 'exports', items.length);
  for (const item of items) {
    const exportId = item.SK.replace(/^EXPORT#/, '');
    await deps.objects.deleteObject(memberExportObjectKey(erasure.org_id, erasure.user_id, exportId));
  }
  await deleteByKeys(deps.db, items);
}

const normalized = (text: string) => text.normalize('NFKC').trim().toLowerCase();

/** Whether an action item names the person: by user id, or by their full display name or email as the summary wrote it. */
function namesPerson(item: Record<string, unknown>, person: Person): boolean {
  if (item.assignee_user_id === person.userId) return true;
  if (typeof item.assignee !== 'string') return false;
  const assignee = normalized(item.assignee);
  return [person.displayName, person.email].some((name) => name !== undefined && normalized(name) === assignee);
}

/** Rounds of reading and rewriting when a summary changes under the rewrite, before the queue retries the step. */
const REWRITE_ROUNDS = 5;

/** Action items of others' recordings that name the member: assigned to "Former member", with no user id; their recordings reindexed. */
async function rewriteActionItems(deps: ErasureJobDeps, erasure: ErasureRecord, person: Person): Promise<void> {
  const touched = new Set<string>();
  let counted = false;
  for (let round = 0; round < REWRITE_ROUNDS; round++) {
    const holders = (await organizationActionItemHolders(deps.db, erasure.org_id)).filter((holder) =>
      holder.items.some((item) => namesPerson(item, person)),
    );
    if (!counted) {
      await count(deps, erasure, 'action_items_rewritten', matchCount(holders, person));
      counted = true;
    }
    if (!holders.length) break;
    for (const holder of holders) {
      const items = holder.items.map((item) =>
        namesPerson(item, person)
          ? { ...item, assignee: FORMER_MEMBER, ...(holder.field === 'action_items' ? { assignee_user_id: null } : {}) }
          : item,
      );
      if (await replaceActionItems(deps.db, holder, items)) touched.add(holder.recordingId);
    }
  }
  const { index } = deps;
  if (index) for (const recordingId of touched) await reindexRecording({ db: deps.db, index, now: deps.now }, erasure.org_id, recordingId);
}

/** Whether a speaker was named as the person: by user id, or by their display name or email. */
const namesSpeaker = (speaker: RecordingSpeaker, person: Person) =>
  speaker.user_id === person.userId || (speaker.name !== null && namesPerson({ assignee: speaker.name }, person));

/** Speakers of the organization's other recordings named as the member: "Former member", with no user id (their recordings reindex on the change). */
async function renameSpeakers(deps: ErasureJobDeps, erasure: ErasureRecord, person: Person): Promise<void> {
  let counted = false;
  for (let round = 0; round < REWRITE_ROUNDS; round++) {
    const recordings = (await organizationNamedSpeakers(deps.db, erasure.org_id)).filter((named) =>
      named.speakers.some((speaker) => namesSpeaker(speaker, person)),
    );
    if (!counted) {
      const found = recordings.reduce((sum, named) => sum + named.speakers.filter((speaker) => namesSpeaker(speaker, person)).length, 0);
      await count(deps, erasure, 'speakers_renamed', found);
      counted = true;
    }
    if (!recordings.length) break;
    for (const named of recordings) {
      const speakers = named.speakers.map((speaker) =>
        namesSpeaker(speaker, person) ? { ...speaker, name: FORMER_MEMBER, user_id: null } : speaker,
      );
      await replaceSpeakers(deps.db, erasure.org_id, named, speakers);
    }
  }
}

const matchCount = (holders: ActionItemHolder[], person: Person) =>
  holders.reduce((sum, holder) => sum + holder.items.filter((item) => namesPerson(item, person)).length, 0);

/** Settings, the encrypted profile and its versions, preferences: every `MEMBER#<user>#…` item of the organization. */
async function eraseSettings(deps: ErasureJobDeps, erasure: ErasureRecord): Promise<void> {
  const items = await memberSettingsKeys(deps.db, erasure.org_id, erasure.user_id);
  await count(deps, erasure, 'settings_items', items.length);
  await deleteByKeys(deps.db, items);
}

async function eraseTags(deps: ErasureJobDeps, erasure: ErasureRecord): Promise<void> {
  const { tags, links } = await memberTagKeys(deps.db, erasure.org_id, erasure.user_id);
  await count(deps, erasure, 'tags', tags.length);
  await deleteByKeys(deps.db, [...links, ...tags]);
}

async function eraseApiKeys(deps: ErasureJobDeps, erasure: ErasureRecord): Promise<void> {
  const { keyCount, items } = await memberApiKeyKeys(deps.db, erasure.org_id, erasure.user_id);
  await count(deps, erasure, 'api_keys', keyCount);
  await deleteByKeys(deps.db, items);
}

/** Invitations of the organization to the member's email, whatever their status, with their token lookups and guard. */
async function eraseInvitations(deps: ErasureJobDeps, erasure: ErasureRecord, person: Person): Promise<void> {
  const { inviteCount, items } = person.email ? await invitationKeys(deps.db, erasure.org_id, person.email) : { inviteCount: 0, items: [] };
  await count(deps, erasure, 'invites', inviteCount);
  await deleteByKeys(deps.db, items);
}

/** The member's email in the stored webhook deliveries of invitation events (their payloads), replaced. */
async function redactDeliveries(deps: ErasureJobDeps, erasure: ErasureRecord, person: Person): Promise<void> {
  const rewritten = person.email ? await redactDeliveryPayloads(deps.db, erasure.org_id, person.email, ERASED_EMAIL) : 0;
  await count(deps, erasure, 'webhook_deliveries_redacted', rewritten);
}

async function eraseMembership(deps: ErasureJobDeps, erasure: ErasureRecord): Promise<void> {
  const { db } = deps;
  const exists = Boolean(await getMembership(db, erasure.org_id, erasure.user_id, { consistent: true }));
  await count(deps, erasure, 'memberships', exists ? 1 : 0);
  await deleteMembershipForGood(db, erasure.org_id, erasure.user_id, deps.now().toISOString());
}

/** The user item, its email guard and identity links: only once the person is a member of no organization. */
async function eraseUser(deps: ErasureJobDeps, erasure: ErasureRecord): Promise<void> {
  const remains = await userRemains(deps.db, erasure.user_id);
  await count(deps, erasure, 'user_items', remains ? remains.links.length + (remains.email !== undefined ? 2 : 0) : 0);
  if (remains) await deleteUserRemains(deps.db, erasure.user_id, remains);
}

/**
 * The steps, in order. What names the person in others' data (action items, invitations) runs
 * while their membership and user item still say their email and name; those go last.
 */
export const ERASURE_STEPS: readonly { name: string; run: Step }[] = [
  { name: 'recordings', run: eraseRecordings },
  { name: 'exports', run: eraseExports },
  { name: 'action_items', run: rewriteActionItems },
  { name: 'speakers', run: renameSpeakers },
  { name: 'settings', run: eraseSettings },
  { name: 'tags', run: eraseTags },
  { name: 'api_keys', run: eraseApiKeys },
  { name: 'invitations', run: eraseInvitations },
  { name: 'webhook_deliveries', run: redactDeliveries },
  { name: 'membership', run: eraseMembership },
  { name: 'user', run: eraseUser },
];

/** The step after the last: the erasure completes. */
export const COMPLETE_STEP = 'complete';
