import { Client } from '@opensearch-project/opensearch';
import fc from 'fast-check';
import { startSearchStandIn } from '../../support/search-stand-in';
import type { Emulator } from '../../../infra/local/emulators';
import type { Caller } from '../../../shared/auth/policy';
import { askQuestion } from '../../../shared/domain/search/ask-question';
import { searchRecordings, type SearchRequest } from '../../../shared/domain/search/search-recordings';
import { extractiveAnswerer } from '../../../shared/search/answerer';
import { OpenSearchIndex } from '../../../shared/search/opensearch-index';
import type { Passage } from '../../../shared/search/passages';

/**
 * Isolation, by generated cases: two organizations whose recordings say the same words (and
 * name each other's organization, members and recordings in their text), searched and asked with
 * generated queries, filters and callers. Whatever the query says, an organization's caller sees
 * only its organization's recordings, and a personal key only its member's.
 */
const WORDS = ['budget', 'approved', 'org_b', 'usr_bob', 'rec_b1', 'hiring', 'office', 'contract', 'Friday', 'review', '*', 'OR', '"'];
const ORGS = ['org_a', 'org_b'] as const;
const MEMBERS = { org_a: ['usr_ann', 'usr_ali'], org_b: ['usr_bob', 'usr_bea'] } as const;

let emulator: Emulator;
let index: OpenSearchIndex;

beforeAll(async () => {
  let client: Client;
  ({ emulator, client } = await startSearchStandIn('search-isolation'));
  index = new OpenSearchIndex(client);
  for (const org of ORGS)
    for (let r = 0; r < 4; r++) {
      const recordedBy = MEMBERS[org][r % 2];
      const recordingId = `rec_${org.slice(-1)}${r}`;
      const said = (place: number): Passage => ({
        id: `${recordingId}:transcript:${place}`,
        org_id: org,
        recording_id: recordingId,
        recorded_by: recordedBy,
        created_at: `2026-11-0${r + 1}T09:00:00.000Z`,
        language: 'en-US',
        title: `Review ${r}`,
        field: 'transcript',
        text: WORDS.slice(place, place + 6 + r).join(' '),
        start_time: place,
        end_time: place + 1,
        speaker: 'Speaker 1',
        summary_id: null,
        action_item_id: null,
        generation: 1,
      });
      await index.replaceRecording(org, recordingId, [said(0), said(3), said(6)], 1);
    }
});
afterAll(() => emulator.stop());

const callerArbitrary = fc.constantFrom(...ORGS).chain((org) =>
  fc.oneof(
    fc.constant({ kind: 'org_key', orgId: org } as Caller),
    fc.constantFrom(...MEMBERS[org]).map((userId) => ({ kind: 'user_key', orgId: org, userId }) as Caller),
  ),
);
const queryArbitrary = fc
  .array(
    fc.oneof(
      fc.constantFrom(...WORDS),
      fc.constantFrom(...WORDS).map((word) => `"${word} budget"`),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((parts) => parts.join(' '));
const recorderArbitrary = fc.option(fc.constantFrom(...MEMBERS.org_a, ...MEMBERS.org_b), { nil: undefined });

const allowed = (caller: Caller, passageOrg: string, recordedBy: string) =>
  passageOrg === caller.orgId && (caller.kind !== 'user_key' || recordedBy === caller.userId);

/** Each recording's organization and recorder, as written above. */
const owners = new Map<string, { org: string; recordedBy: string }>();
for (const org of ORGS) for (let r = 0; r < 4; r++) owners.set(`rec_${org.slice(-1)}${r}`, { org, recordedBy: MEMBERS[org][r % 2] });

it("never answers a search with another organization's recordings, or a personal key with another member's", async () => {
  let found = 0;
  await fc.assert(
    fc.asyncProperty(callerArbitrary, queryArbitrary, recorderArbitrary, async (caller, q, recordedBy) => {
      const request: SearchRequest = {
        q,
        mode: 'hybrid',
        in: ['transcript', 'title'],
        limit: 50,
        ...(recordedBy && { recorded_by: recordedBy }),
      };
      const { results } = await searchRecordings({ index }, caller, request);
      found += results.length;
      for (const result of results) {
        const owner = owners.get(result.recording_id);
        expect(owner && allowed(caller, owner.org, owner.recordedBy)).toBe(true);
        expect(result.recorded_by).toBe(owner?.recordedBy);
      }
    }),
    { numRuns: 120 },
  );
  // The words are shared: the generated queries find recordings, so the checks above ran.
  expect(found).toBeGreaterThan(20);
});

it("never cites another organization's recordings, or another member's to a personal key, in an answer", async () => {
  let cited = 0;
  await fc.assert(
    fc.asyncProperty(callerArbitrary, queryArbitrary, async (caller, question) => {
      const answered = await askQuestion({ index, answerer: extractiveAnswerer(), takeQuestion: () => Promise.resolve() }, caller, {
        question,
      });
      cited += answered.citations.length;
      for (const citation of answered.citations) {
        const owner = owners.get(citation.recording_id);
        expect(owner && allowed(caller, owner.org, owner.recordedBy)).toBe(true);
      }
    }),
    { numRuns: 60 },
  );
  expect(cited).toBeGreaterThan(20);
});
