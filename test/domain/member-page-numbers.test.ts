import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { addMember, createOrganization, createUser } from '../../shared/operator-tasks/directory';
import { listUsers } from '../../shared/domain/members/list-users';
import { keys } from '../../shared/storage/keys';
import { getMembership, listActiveMembers } from '../../shared/storage/memberships';
import { commitMemberChange } from '../../shared/storage/membership-writes';
import { observeRequests, type ObservedRequest } from '../support/observe-requests';
import { localDeployment, unique } from '../support/api';

/**
 * A page number of List users starts at the member the search index puts at its offset, so
 * it reads the index and the page rather than every membership before it. Generated
 * organizations (emails that begin others, differ only in punctuation or share a domain
 * prefix; pending and removed members), written through createUser, addMember and a removal;
 * random page numbers and limits (past the end too): every page must be the slice of the
 * active members read whole from their index (GSI1), with their total; and the memberships
 * read for a page must be the page and at most a twentieth of the organization skipped (what
 * the index costs to read instead). Without a complete index, pages are read as before.
 */
const { db } = localDeployment();
const NOW = new Date('2026-11-27T10:00:00.000Z');
const LOCAL_PARTS = ['a', 'a.b', 'ab', 'a-b', 'a+b', 'a_b', 'a!', 'b', 'ba', 'z', '0', 'a.b.c'];
const DOMAINS = ['ex.co', 'ex.com', 'ex.com.au', 'e.x'];

const drawnMember = fc.record({
  local: fc.nat({ max: LOCAL_PARTS.length - 1 }),
  domain: fc.nat({ max: DOMAINS.length - 1 }),
  status: fc.oneof(
    { arbitrary: fc.constant('active' as const), weight: 5 },
    { arbitrary: fc.constantFrom('pending' as const, 'removed' as const), weight: 1 },
  ),
});
const drawnQuery = fc.record({
  limit: fc.integer({ min: 1, max: 6 }),
  /** Where the page falls, in hundredths of the pages (past the end included): unbiased, as deep pages are the point. */
  depth: fc.noBias(fc.integer({ min: 0, max: 120 })),
});

type Drawn = typeof drawnMember extends fc.Arbitrary<infer T> ? T : never;

async function writeOrg(drawn: Drawn[]): Promise<string> {
  const id = unique();
  const { org_id: orgId } = await createOrganization(db, { id: `org_mpages_${id}`, name: 'Member pages' }, NOW);
  const taken = new Set<string>();
  for (const [i, m] of drawn.entries()) {
    // An email is one user's: a drawn one already taken gets the member's number before its `@`.
    const drawnEmail = `${LOCAL_PARTS[m.local]}@${id}.${DOMAINS[m.domain]}`;
    const email = taken.has(drawnEmail) ? drawnEmail.replace('@', `${i}@`) : drawnEmail;
    taken.add(email);
    const user = await createUser(db, { id: `usr_mp_${id}_${String(i).padStart(2, '0')}`, email, display_name: `M ${i}` }, NOW);
    await addMember(db, { orgId, userId: user.user_id, role: 'member', status: m.status === 'pending' ? 'pending' : 'active' }, NOW);
    if (m.status !== 'removed') continue;
    const current = await getMembership(db, orgId, user.user_id, { consistent: true });
    await commitMemberChange(db, current!, { kind: 'removal' }, { now: NOW.toISOString() });
  }
  return orgId;
}

/** Each page against the active members read whole; the memberships read (Query entries, COUNT skips included) against `allowedSkip`. */
async function checkPages(
  orgId: string,
  queries: (total: number) => { page: number; limit: number }[],
  allowedSkip: (total: number) => number,
): Promise<void> {
  const whole = (await listActiveMembers(db, orgId, { offset: 0, limit: 10_000 })).map((m) => m.user_id);
  for (const { page, limit } of queries(whole.length)) {
    const where = `page ${page} of limit ${limit}, ${whole.length} active`;
    const requests: ObservedRequest[] = [];
    observeRequests(db, 'member-pages-test', (request) => requests.push(request));
    let answer: Awaited<ReturnType<typeof listUsers>>;
    try {
      answer = await listUsers(db, orgId, { page, limit });
    } finally {
      db.client.middlewareStack.remove('member-pages-test');
    }
    const slice = whole.slice((page - 1) * limit, page * limit);
    expect({ where, ids: answer.members.map((m) => m.user_id), total: answer.pagination.total }).toEqual({
      where,
      ids: slice,
      total: whole.length,
    });
    const membershipsRead = requests
      .filter((r) => r.command === 'Query' && r.input.IndexName === 'GSI1')
      .reduce((sum, r) => sum + r.itemsRead, 0);
    const bound = slice.length + allowedSkip(whole.length);
    if (membershipsRead > bound) throw new Error(`${where}: read ${membershipsRead} memberships, at most ${bound} expected`);
  }
}

describe('List users: a page number starts at the member the search index puts there', () => {
  it('answers the slice of the active members read whole, reading the page and at most a twentieth of the members skipped', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.noBias(fc.array(drawnMember, { minLength: 8, maxLength: 30 })),
        fc.array(drawnQuery, { minLength: 10, maxLength: 14 }),
        async (drawn, queries) => {
          const orgId = await writeOrg(drawn);
          const pages = (total: number) =>
            queries.map(({ limit, depth }) => ({ limit, page: 1 + Math.floor((depth / 100) * Math.ceil(total / limit)) }));
          await checkPages(orgId, pages, (total) => Math.floor(total / 20));
        },
      ),
      { numRuns: 8, endOnFailure: true },
    );
  }, 120_000);

  it('reads pages from the nearer end, as before the index, for an organization whose index is not complete', async () => {
    const drawn: Drawn[] = Array.from({ length: 14 }, (_, i) => ({
      local: i % LOCAL_PARTS.length,
      domain: i % DOMAINS.length,
      status: i === 3 ? 'removed' : 'active',
    }));
    const orgId = await writeOrg(drawn);
    await db.client.send(
      new UpdateCommand({ TableName: db.tableName, Key: keys.organization(orgId), UpdateExpression: 'REMOVE member_search_index_at' }),
    );
    // Every page of limits 1 to 4, and the one past the end: the skip from the nearer end is at most half the members.
    const pages = (total: number) =>
      [1, 2, 3, 4].flatMap((limit) => Array.from({ length: Math.ceil(total / limit) + 1 }, (_, i) => ({ limit, page: i + 1 })));
    await checkPages(orgId, pages, (total) => Math.floor(total / 2));
  });
});
