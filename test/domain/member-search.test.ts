import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { addMember, createOrganization, createUser, ensureMembership, ensureUser } from '../../shared/operator-tasks/directory';
import { listUsers } from '../../shared/domain/members/list-users';
import { keys } from '../../shared/storage/keys';
import {
  MEMBER_SEARCH_SHARDS,
  memberSearchShardOf,
  readMemberSearchIndex,
  rebuildMemberSearchIndex,
} from '../../shared/storage/member-search';
import { getMembership, searchActiveMembers } from '../../shared/storage/memberships';
import { commitMemberChange } from '../../shared/storage/membership-writes';
import { getOrganization } from '../../shared/storage/organizations';
import { observeRequests, type ObservedRequest } from '../support/observe-requests';
import { localDeployment, unique } from '../support/api';

/**
 * List users' `q` reads the member search index (shared/storage/member-search.ts), not every
 * active membership. It must answer exactly what reading every active membership answers
 * (searchActiveMembers, the path before the index): same members, same order, same total,
 * after any sequence of joins, removals, returns and renames, and under concurrent writes to
 * one shard.
 */
const { db } = localDeployment();
const NOW = new Date('2026-11-23T10:00:00.000Z');

/** Name parts with case, accents, an astral character and the separators the packing must survive. */
const NAME_PARTS = ['Ada', 'ADA', 'Zoë', 'zoe', 'Émile', '😀 smile', 'O"Brien', 'tab\tname', 'line\nbreak', '#hash', 'Ünal'];
const EMAIL_PARTS = ['ada', 'zoe', 'emile', 'x#y', 'o.brien', 'unal', 'Ada'];

type Step = { kind: 'remove' | 'return' | 'rename'; member: number; name: number };

const drawnOrg = fc.record({
  members: fc.array(
    fc.record({
      email: fc.integer({ min: 0, max: EMAIL_PARTS.length - 1 }),
      name: fc.integer({ min: 0, max: NAME_PARTS.length - 1 }),
      active: fc.boolean(),
    }),
    {
      minLength: 1,
      maxLength: 12,
    },
  ),
  steps: fc.array(
    fc.record({ kind: fc.constantFrom('remove' as const, 'return' as const, 'rename' as const), member: fc.nat(), name: fc.nat() }),
    { maxLength: 8 },
  ),
  needles: fc.array(fc.constantFrom('a', 'ADA', 'zo', 'ë', '😀', '#', '"', '\t', 'example', '@', 'no such text', 'émile', 'un'), {
    minLength: 1,
    maxLength: 4,
  }),
  limit: fc.integer({ min: 1, max: 5 }),
});

async function newOrg(label: string): Promise<string> {
  const org = await createOrganization(db, { id: `org_search_${label}_${unique()}`, name: `Search ${label}` }, NOW);
  return org.org_id;
}

async function applyStep(orgId: string, userIds: string[], emails: string[], step: Step) {
  const userId = userIds[step.member % userIds.length];
  const email = emails[step.member % userIds.length];
  if (step.kind === 'rename') {
    await ensureUser(db, { id: userId, email, display_name: NAME_PARTS[step.name % NAME_PARTS.length] }, NOW);
    return;
  }
  const current = await getMembership(db, orgId, userId, { consistent: true });
  if (step.kind === 'remove' && current?.status === 'active')
    await commitMemberChange(db, current, { kind: 'removal' }, { now: NOW.toISOString() });
  if (step.kind === 'return') await ensureMembership(db, { orgId, userId, role: 'member', status: 'active' }, NOW);
}

/** Every page of `q` through listMembers, and the same pages sliced from the read of every active membership. */
async function bothAnswers(orgId: string, q: string, limit: number) {
  const reference = await searchActiveMembers(db, orgId, q);
  const pages = Math.max(1, Math.ceil(reference.length / limit)) + 1;
  for (let page = 1; page <= pages; page++) {
    const { members, pagination } = await listUsers(db, orgId, { q, page, limit });
    const expected = reference.slice((page - 1) * limit, page * limit);
    expect({ q, page, total: pagination.total, ids: members.map((m) => m.user_id) }).toEqual({
      q,
      page,
      total: reference.length,
      ids: expected.map((m) => m.user_id),
    });
    expect(members.map((m) => m.display_name)).toEqual(expected.map((m) => m.display_name));
  }
}

describe('member search index', () => {
  it('answers every q exactly as reading every active membership does, after joins, removals, returns and renames', async () => {
    await fc.assert(
      fc.asyncProperty(drawnOrg, async ({ members, steps, needles, limit }) => {
        const orgId = await newOrg('prop');
        const id = unique();
        const emails = members.map((m, i) => `${EMAIL_PARTS[m.email]}.${i}.${id}@example.com`.toLowerCase());
        const userIds: string[] = [];
        for (const [i, m] of members.entries()) {
          const user = await createUser(db, { email: emails[i], display_name: NAME_PARTS[m.name] }, NOW);
          userIds.push(user.user_id);
          await addMember(db, { orgId, userId: user.user_id, role: 'member', status: m.active ? 'active' : 'pending' }, NOW);
        }
        for (const step of steps) await applyStep(orgId, userIds, emails, step);
        for (const q of needles) await bothAnswers(orgId, q, limit);
      }),
      { numRuns: 15 },
    );
  }, 120_000);

  it('loses no entry when many members of one organization join at once (shards are read and written again on a conflict)', async () => {
    const orgId = await newOrg('burst');
    const id = unique();
    const users = await Promise.all(
      Array.from({ length: 40 }, (_, i) => createUser(db, { email: `burst.${i}.${id}@example.com`, display_name: `Burst ${i}` }, NOW)),
    );
    // 40 members over 64 shards: several share one, and their transactions race on it.
    expect(new Set(users.map((u) => memberSearchShardOf(u.user_id))).size).toBeLessThan(40);
    await Promise.all(users.map((user) => addMember(db, { orgId, userId: user.user_id, role: 'member' }, NOW)));
    const entries = await readMemberSearchIndex(db, orgId);
    expect(entries.map((e) => e.user_id).sort()).toEqual(users.map((u) => u.user_id).sort());
    const { pagination } = await listUsers(db, orgId, { q: `.${id}@`, page: 1, limit: 100 });
    expect(pagination.total).toBe(40);
  }, 60_000);

  it('answers a search in two round trips that read the index, the organization and the page only', async () => {
    const orgId = await newOrg('cost');
    const id = unique();
    for (let i = 0; i < 30; i++) {
      const user = await createUser(
        db,
        { email: `cost.${String(i).padStart(2, '0')}.${id}@example.com`, display_name: i % 3 === 0 ? 'Zephyr' : 'Other' },
        NOW,
      );
      await addMember(db, { orgId, userId: user.user_id, role: 'member' }, NOW);
    }
    const observed: ObservedRequest[] = [];
    observeRequests(db, 'member-search-test', (request) => observed.push(request));
    try {
      const { members, pagination } = await listUsers(db, orgId, { q: 'zephyr', page: 2, limit: 4 });
      expect(pagination.total).toBe(10);
      expect(members.map((m) => m.email)).toEqual([12, 15, 18, 21].map((i) => `cost.${i}.${id}@example.com`));
    } finally {
      db.client.middlewareStack.remove('member-search-test');
    }
    const byCommand = Object.fromEntries(observed.map((request) => [request.command, request]));
    expect(observed.map((request) => request.command).sort()).toEqual(['BatchGetItem', 'GetItem', 'Query']);
    // Round trip 1: the index and the organization side by side; round trip 2: the page.
    expect(byCommand.Query.start).toBeLessThan(byCommand.GetItem.end);
    expect(byCommand.GetItem.start).toBeLessThan(byCommand.Query.end);
    expect(byCommand.BatchGetItem.start).toBeGreaterThanOrEqual(Math.max(byCommand.Query.end, byCommand.GetItem.end));
    expect((byCommand.BatchGetItem.input.RequestItems as Record<string, { Keys: unknown[] }>)[db.tableName].Keys).toHaveLength(4);
  });

  it('searches an organization created before the index by reading its members, until a rebuild completes the index', async () => {
    const orgId = await newOrg('legacy');
    const id = unique();
    for (let i = 0; i < 5; i++) {
      const user = await createUser(db, { email: `legacy.${i}.${id}@example.com`, display_name: `Legacy ${i}` }, NOW);
      await addMember(db, { orgId, userId: user.user_id, role: 'member' }, NOW);
    }
    // As stored before the index existed: no shards, no mark on the organization.
    await db.client.send(
      new UpdateCommand({ TableName: db.tableName, Key: keys.organization(orgId), UpdateExpression: 'REMOVE member_search_index_at' }),
    );
    const { deleteShards } = await shardsRemoved(orgId);
    expect(deleteShards).toBeGreaterThan(0);
    expect((await listUsers(db, orgId, { q: 'legacy', page: 1, limit: 10 })).pagination.total).toBe(5);

    const rebuilt = await rebuildMemberSearchIndex(db, orgId, NOW.toISOString());
    expect(rebuilt.entries).toBe(5);
    expect((await getOrganization(db, orgId))?.member_search_index_at).toBe(NOW.toISOString());
    expect((await readMemberSearchIndex(db, orgId)).length).toBe(5);
    await bothAnswers(orgId, 'legacy 3', 2);
    await bothAnswers(orgId, 'LEGACY', 2);
  });
});

/** Deletes an organization's shards, as for an organization from before the index. */
async function shardsRemoved(orgId: string): Promise<{ deleteShards: number }> {
  let deleteShards = 0;
  for (let shard = 0; shard < MEMBER_SEARCH_SHARDS; shard++) {
    const { Attributes } = await db.client.send(
      new DeleteCommand({ TableName: db.tableName, Key: keys.memberSearchShard(orgId, shard), ReturnValues: 'ALL_OLD' }),
    );
    if (Attributes) deleteShards++;
  }
  return { deleteShards };
}
