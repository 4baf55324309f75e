import type { Caller } from '../../shared/auth/policy';
import { renameSpeakers } from '../../shared/domain/speakers/rename-speakers';
import { createTableContext } from '../../shared/storage/dynamo';
import { observeRequests, type ObservedRequest } from '../support/observe-requests';
import { localDeployment, seed, unique } from '../support/api';

/**
 * What naming speakers costs in DynamoDB (docs/transcript-controls.md, "Speakers"): one strongly
 * consistent GetItem of the recording, one BatchGetItem of the members named (none when only
 * names are given), one conditional PutItem; a transcript stored before speakers were adds the
 * two Queries of the recording's range, once. Observed on a client of its own, so nothing else is counted.
 * `RENAME_FIGURES=1` prints the requests, items and capacity units of each rename.
 */
const { db: sharedDb, runtime } = localDeployment();
const db = createTableContext({ tableName: runtime.tableName, region: runtime.region, endpoint: runtime.dynamoDbEndpoint });
const seen: ObservedRequest[] = [];
observeRequests(db, 'speakerRenameCost', (request) => seen.push(request));
const NOW = new Date('2026-12-05T10:00:00.000Z');

async function orgWithRecording() {
  const id = unique();
  const orgId = `org_spk_${id}`;
  const people = { owner: `usr_spk_${id}_o`, member: `usr_spk_${id}_m`, client: `usr_spk_${id}_c` };
  await seed(sharedDb, {
    orgs: [{ id: orgId, name: 'Speaker costs' }],
    users: Object.entries(people).map(([name, userId]) => ({
      id: userId,
      email: `${name}.${id}@example.com`,
      display_name: `${name} ${id}`,
    })),
    memberships: Object.entries(people).map(([name, userId]) => ({
      org_id: orgId,
      user_id: userId,
      role: name === 'owner' ? 'owner' : 'member',
    })),
    recordings: [
      {
        id: `rec_spk_${id}`,
        org_id: orgId,
        recorded_by: people.member,
        title: 'Call',
        duration: 60,
        language: 'en',
        created_at: NOW.toISOString(),
        transcript: Array.from({ length: 40 }, (_, i) => ({
          speaker: `Speaker ${(i % 2) + 1}`,
          text: `Turn ${i} of the call, said at some length so the transcript weighs what a meeting does.`,
          start: i * 5,
          end: i * 5 + 4.5,
        })),
      },
    ],
  });
  const caller: Caller = { kind: 'id_token', orgId, userId: people.owner, role: 'owner', actor: people.owner };
  return { orgId, recordingId: `rec_spk_${id}`, people, caller };
}

const tally = (requests: ObservedRequest[]) => ({
  requests: requests.map((request) => request.command).sort(),
  itemsRead: requests.reduce((sum, request) => sum + request.itemsRead, 0),
  capacityUnits: requests.reduce((sum, request) => sum + (request.capacityUnits ?? 0), 0),
});

async function renamed(work: () => Promise<unknown>) {
  seen.length = 0;
  await work();
  return tally(seen);
}

describe('naming speakers: what it reads and writes', () => {
  it('reads the recording and the members named, writes the recording once; a transcript from before speakers is read too, the first time', async () => {
    const { recordingId, people, caller } = await orgWithRecording();
    const deps = { db, now: () => NOW };
    const first = await renamed(() =>
      renameSpeakers(deps, caller, recordingId, {
        speakers: [
          { label: 'Speaker 1', user_id: people.client },
          { label: 'Speaker 2', name: 'Vendor' },
        ],
      }),
    );
    // The older transcript: the recording's range, read in its two ranges (storage/recordings.ts, getRecordingWithParts).
    expect(first.requests).toEqual(['BatchGetItem', 'GetItem', 'PutItem', 'Query', 'Query']);
    const again = await renamed(() =>
      renameSpeakers(deps, caller, recordingId, { speakers: [{ label: 'Speaker 1', user_id: people.owner }] }),
    );
    expect(again.requests).toEqual(['BatchGetItem', 'GetItem', 'PutItem']);
    const byName = await renamed(() => renameSpeakers(deps, caller, recordingId, { speakers: [{ label: 'Speaker 2', name: 'Client' }] }));
    expect(byName.requests).toEqual(['GetItem', 'PutItem']);
    expect(byName.itemsRead).toBe(1);
    const unchanged = await renamed(() =>
      renameSpeakers(deps, caller, recordingId, { speakers: [{ label: 'Speaker 2', name: 'Client' }] }),
    );
    expect(unchanged.requests).toEqual(['GetItem']);
    if (process.env.RENAME_FIGURES === '1')
      console.log(JSON.stringify({ first_with_older_transcript: first, member_named: again, name_given: byName, unchanged }, null, 2));
  });
});
