import { createCustomVocabularies, vocabularyNameOf } from '../../../shared/transcription/custom-vocabularies';
import { createTranscribeClient } from '../../../shared/transcription/transcribe-jobs';
import { getVocabulary, recordVocabularyState } from '../../../shared/storage/transcript-settings';
import { call, expectFailure, idTokenFor, localDeployment, once, TIMESTAMP, type ApiResponse } from '../../support/api';
import { eventsInclude } from '../../support/events';
import { eventually } from '../../support/eventually';
import { buildOrg, seedOrg } from '../../support/org-builder';
import { normalizedWords, samplesOf, testSet, wavOf } from '../../support/recorded-speech';
import { speechAvailable } from '../../support/speech';

/**
 * The organization's custom vocabulary over HTTP on the local deployment (docs/transcript-controls.md,
 * "Vocabulary"; who may call each route: also the access matrix): read before any is set, set by an
 * admin or an org key (`pending`, then `ready` once the local vocabulary consumer and the
 * Transcribe stand-in prepared it), announced and audited without a term, Transcribe's rules as
 * 400s that write nothing, removed by an empty list (and from the stand-in); then, with the real
 * engine, a term the engine gets wrong on a recorded clip corrected in a transcription started
 * once it is ready (`transcript_vocabulary: applied`), and `pending` for one started while the
 * version is not ready (the stand-in is ready in 20 ms, so the item's state is set back to pending).
 */
const { runtime, db } = localDeployment();
const describeWithEngine = speechAvailable ? describe : describe.skip;

/** An organization of the four staff roles, with org keys of each kind the routes tell apart, and personal keys (an admin's, a member's). */
const vocabularyOrg = (label: string) =>
  buildOrg({
    label,
    keys: {
      writer: { scopes: ['recordings:read', 'recordings:write'] },
      reader: { scopes: ['recordings:read'] },
      audit: { scopes: ['audit:read'] },
      personal: { scopes: ['recordings:read', 'recordings:write'], user: 'admin' },
      recorder: { scopes: ['recordings:read', 'recordings:write'], user: 'member' },
    },
  });
const setup = once(async () => seedOrg(vocabularyOrg('voc')));

type Org = Awaited<ReturnType<typeof setup>>;
const pathOf = (org: Org) => `/api/v1/organization/${org.org}/vocabulary`;
const read = (org: Org, token: string) => call(runtime.apiUrl, 'GET', pathOf(org), { token });
const write = (org: Org, token: string, body: unknown) => call(runtime.apiUrl, 'PUT', pathOf(org), { token, body });
/** The vocabulary once the consumer recorded Transcribe's answer for `version`. */
const answered = (org: Org, version: number) =>
  eventually(
    async () => (await read(org, org.keys.reader)).body,
    (body) => body.version === version && body.status !== 'pending',
  );

/** The Transcribe stand-in's own view of the organization's vocabulary (undefined: it has none). */
const standInVocabulary = (orgId: string) =>
  createCustomVocabularies(createTranscribeClient({ region: runtime.region, endpoint: runtime.transcribeEndpoint })).get(
    vocabularyNameOf(orgId),
  );

const HALVORSEN = { phrase: 'Halvorsen', sounds_like: ['hal vor sen'], display_as: 'Halvorsen AS' };

describe('GET and PUT /api/v1/organization/{orgId}/vocabulary', () => {
  it('reads an empty, ready vocabulary of en-US before any is set', async () => {
    const org = await setup();
    const empty = await read(org, org.keys.reader);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      language_code: 'en-US',
      terms: [],
      term_count: 0,
      status: 'ready',
      reason: null,
      version: 0,
      updated_at: null,
      updated_by: null,
    });
  });

  it('sets the terms (admin, then an org key): pending, then ready; announced and audited with counts and no term', async () => {
    const org = await setup();
    const admin = await idTokenFor(org.people.admin);
    const set = await write(org, admin, { terms: [HALVORSEN, { phrase: 'Kubernetes', display_as: 'K8s' }] });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      language_code: 'en-US',
      terms: [HALVORSEN, { phrase: 'Kubernetes', display_as: 'K8s' }],
      term_count: 2,
      status: 'pending',
      reason: null,
      version: 1,
      updated_at: expect.stringMatching(TIMESTAMP),
      updated_by: org.people.admin.id,
    });
    const ready = await answered(org, 1);
    expect(ready).toEqual({ ...set.body, status: 'ready' });
    if (runtime.transcribeEndpoint) expect(await standInVocabulary(org.org)).toMatchObject({ state: 'READY', languageCode: 'en-US' });

    // An org key with recordings:write replaces every term, in another English.
    const byKey = await write(org, org.keys.writer, { terms: [{ phrase: 'Dashwood' }, HALVORSEN], language_code: 'en-GB' });
    expect(byKey.status).toBe(200);
    expect(byKey.body).toMatchObject({
      language_code: 'en-GB',
      terms: [{ phrase: 'Dashwood' }, HALVORSEN],
      term_count: 2,
      status: 'pending',
      version: 2,
      updated_by: expect.stringMatching(/^key_/),
    });
    expect(await answered(org, 2)).toMatchObject({ status: 'ready', version: 2, language_code: 'en-GB', reason: null });

    // The events: one per version, counts and codes only.
    const events = await eventually(
      async () =>
        (await eventsInclude(org.org, ['organization.vocabulary_updated'], org.org)).filter(
          (e) => e.type === 'organization.vocabulary_updated',
        ),
      (found) => found.length >= 2,
    );
    expect(events.map((event) => [event.resource, event.data, event.actor])).toEqual([
      [
        { type: 'organization', id: org.org },
        { version: 1, language_code: 'en-US', term_count: 2 },
        { kind: 'user', id: org.people.admin.id },
      ],
      [
        { type: 'organization', id: org.org },
        { version: 2, language_code: 'en-GB', term_count: 2 },
        { kind: 'api_key', id: byKey.body.updated_by },
      ],
    ]);
    for (const text of ['Halvorsen', 'Kubernetes', 'K8s', 'Dashwood', 'hal vor sen']) expect(JSON.stringify(events)).not.toContain(text);

    // The audit log holds both, without a term.
    const audit = await eventually(
      async () =>
        (
          await call(runtime.apiUrl, 'GET', `/api/v1/organization/${org.org}/audit-log?type=organization.vocabulary_updated`, {
            token: org.keys.audit,
          })
        ).body,
      (page) => page.entries?.length >= 2,
    );
    expect(
      audit.entries.map((entry: { actor: unknown; resource: unknown; changes: unknown }) => [entry.actor, entry.resource, entry.changes]),
    ).toEqual([
      [{ kind: 'api_key', id: byKey.body.updated_by }, { type: 'organization', id: org.org }, []],
      [{ kind: 'user', id: org.people.admin.id }, { type: 'organization', id: org.org }, []],
    ]);
    expect(JSON.stringify(audit.entries)).not.toContain('Halvorsen');
  });

  it('lets members read and only admins or owners set it; org keys read with recordings:read and set with recordings:write', async () => {
    const org = await setup();
    const member = await idTokenFor(org.people.member);
    const viewer = await idTokenFor(org.people.viewer);
    const owner = await idTokenFor(org.people.owner);
    const body = { terms: [{ phrase: 'Ferrars' }] };
    expect((await read(org, member)).status).toBe(200);
    expect((await write(org, member, body)).status).toBe(403);
    expect((await read(org, viewer)).status).toBe(403);
    expect((await write(org, viewer, body)).status).toBe(403);
    expect((await read(org, org.keys.reader)).status).toBe(200);
    expect((await write(org, org.keys.reader, body)).status).toBe(403);
    expect((await read(org, org.keys.audit)).status).toBe(403);
    // A personal key, even an admin's with both scopes, is not taken: the vocabulary is the organization's.
    expect((await read(org, org.keys.personal)).status).toBe(403);
    expect((await write(org, org.keys.personal, body)).status).toBe(403);
    expect((await read(org, owner)).status).toBe(200);
    // Nothing was written by the refused ones.
    expect((await read(org, owner)).body.terms).not.toContainEqual({ phrase: 'Ferrars' });
  });

  describe("Transcribe's rules, each a 400 that writes nothing", () => {
    /** An organization of its own with one version set, so the refusals can be seen to change nothing. */
    const refusals = once(async () => {
      const org = await seedOrg(vocabularyOrg('vocr'));
      expect((await write(org, org.keys.writer, { terms: [{ phrase: 'Dashwood' }] })).status).toBe(200);
      return org;
    });
    const refused = async (body: unknown): Promise<ApiResponse> => {
      const org = await refusals();
      const res = await write(org, org.keys.writer, body);
      expectFailure(res, 400, 'VALIDATION_ERROR');
      const after = (await read(org, org.keys.writer)).body;
      expect(after).toMatchObject({ version: 1, terms: [{ phrase: 'Dashwood' }], language_code: 'en-US' });
      return res;
    };
    const fieldsOf = (res: ApiResponse) => res.body.details.map((detail: { field: string }) => detail.field);
    const terms = (count: number, make: (i: number) => object) => Array.from({ length: count }, (_, i) => make(i));
    /** Distinct letters-only words: terma, termb, … termz, termba, termbb, … */
    const letters = (i: number): string => (i < 26 ? '' : letters(Math.floor(i / 26))) + String.fromCharCode(97 + (i % 26));
    const word = (i: number) => `term${letters(i)}`;

    it('more than 500 terms', async () => {
      const res = await refused({ terms: terms(501, (i) => ({ phrase: word(i) })) });
      expect(fieldsOf(res)).toEqual(['terms']);
      expect(JSON.stringify(res.body)).toMatch(/500/);
    });

    it('a phrase of 257 characters (and a display form of 257)', async () => {
      const long = 'a'.repeat(257);
      expect(fieldsOf(await refused({ terms: [{ phrase: 'Dashwood' }, { phrase: long }] }))).toEqual(['terms[1].phrase']);
      expect(fieldsOf(await refused({ terms: [{ phrase: 'Dashwood', display_as: long }] }))).toEqual(['terms[0].display_as']);
    });

    it('a phrase with a digit, naming the term', async () => {
      const res = await refused({ terms: [{ phrase: 'alpha' }, { phrase: 'beta' }, { phrase: 'gamma' }, { phrase: 'version 2' }] });
      expect(res.body.details).toEqual([expect.objectContaining({ field: 'terms[3].phrase', message: expect.stringMatching(/digit/) })]);
      expect(res.body.message).toMatch(/Term 3/);
    });

    it("a character outside the language's set (ï in en-US; the same phrase is fine in fr-FR)", async () => {
      const res = await refused({ terms: [{ phrase: 'naïve' }] });
      expect(res.body.details).toEqual([expect.objectContaining({ field: 'terms[0].phrase', message: expect.stringMatching(/U\+00EF/) })]);
      expect(fieldsOf(await refused({ terms: [{ phrase: 'Dashwood', sounds_like: ['dash wood 2'] }] }))).toEqual(['terms[0].sounds_like']);
      expect(
        fieldsOf(await refused({ terms: [{ phrase: 'naïve' }, { phrase: 'x', display_as: 'tab\there' }], language_code: 'fr-FR' })),
      ).toEqual(['terms[1].display_as']);
    });

    it('a phrase given twice, whatever its case or spacing', async () => {
      const res = await refused({ terms: [{ phrase: 'John Dashwood' }, { phrase: 'Ferrars' }, { phrase: 'john-dashwood' }] });
      expect(res.body.details).toEqual([expect.objectContaining({ field: 'terms[2].phrase', message: expect.stringMatching(/term 0/) })]);
    });

    it('a vocabulary file over 50 KB', async () => {
      const syllables = Array.from({ length: 30 }, () => 'ba').join('-') + '-' + Array.from({ length: 30 }, () => 'do').join('-');
      const res = await refused({ terms: terms(500, (i) => ({ phrase: word(i), sounds_like: [syllables] })) });
      expect(res.body.details).toEqual([expect.objectContaining({ field: 'terms', message: expect.stringMatching(/50000/) })]);
    });

    it('a language code Transcribe does not know, and one whose vocabularies it takes in characters not checked here (with the list)', async () => {
      const unknown = await refused({ terms: [{ phrase: 'Dashwood' }], language_code: 'xx-XX' });
      expect(fieldsOf(unknown)).toEqual(['language_code']);
      const japanese = await refused({ terms: [{ phrase: 'Dashwood' }], language_code: 'ja-JP' });
      expect(japanese.body.message).toMatch(
        /not available for ja-JP: supported are en-\*, es-\*, fr-\*, de-\*, it-\*, pt-\*, id-\*, ru-\*, nl-NL/,
      );
    });

    it('an unknown field, of the body or of a term, and terms missing', async () => {
      await refused({ terms: [{ phrase: 'Dashwood' }], weight: 2 });
      await refused({ terms: [{ phrase: 'Dashwood', boost: 2 }] });
      await refused({ language_code: 'en-US' });
      await refused({ terms: [{ phrase: '   ' }] });
      await refused({ terms: 'Dashwood' });
    });
  });

  it('removes the vocabulary with an empty list: ready at once, no terms, and gone from Transcribe', async () => {
    const org = await seedOrg(vocabularyOrg('vocx'));
    await write(org, org.keys.writer, { terms: [HALVORSEN] });
    expect(await answered(org, 1)).toMatchObject({ status: 'ready' });
    if (runtime.transcribeEndpoint) expect(await standInVocabulary(org.org)).toMatchObject({ state: 'READY' });

    const removed = await write(org, org.keys.writer, { terms: [] });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ terms: [], term_count: 0, status: 'ready', reason: null, version: 2 });
    expect((await read(org, org.keys.writer)).body).toEqual(removed.body);
    await eventsInclude(org.org, ['organization.vocabulary_updated'], org.org);
    // The consumer deletes the organization's Transcribe vocabulary (it would count against the account's 100).
    if (runtime.transcribeEndpoint)
      expect(
        await eventually(
          () => standInVocabulary(org.org),
          (state) => state === undefined,
        ),
      ).toBeUndefined();
  });
});

describeWithEngine('a vocabulary term corrected in a transcript (the local engine and the stand-in)', () => {
  /** A spoken card list of pocketsphinx-testdata: on this clean recording the engine hears "clubs" as "cloves" (test/fixtures/vocabulary). */
  const CARDS = 'eight of spades four of clubs seven of hearts';

  const recording = (org: Org, id: string, query = '') =>
    call(runtime.apiUrl, 'GET', `/api/v1/organization/${org.org}/recordings/${id}${query}`, { token: org.keys.writer });
  /** The recording once its latest transcription attempt is over. */
  const settled = (org: Org, id: string) =>
    eventually(
      async () => (await recording(org, id, '?include=transcript')).body,
      (body) => body.transcript_status === 'completed' || body.transcript_status === 'failed',
      // The engine loads its model once, then a 3-second clip.
      { alsoWaitingMs: 45_000 },
    );
  const wordsOf = (body: { transcript: { text: string }[] }) => normalizedWords(body.transcript.map((turn) => turn.text).join(' '));
  const transcribeAgain = async (org: Org, id: string) => {
    const res = await call(runtime.apiUrl, 'POST', `/api/v1/organization/${org.org}/recordings/${id}/transcribe`, {
      token: org.keys.writer,
      body: {},
    });
    expect(res.status).toBe(202);
    return settled(org, id);
  };

  it('is applied to a transcription started once it is ready, and said pending while it is not', async () => {
    const built = vocabularyOrg('voce');
    const org = await seedOrg(built, {
      settings: [{ org_id: built.org, user_id: built.people.member.id, settings: { conversation_language: 'English' } }],
    });

    // A member whose settings say English uploads the clip with their personal key; it is transcribed on its own, without a vocabulary.
    const clip = testSet().find((candidate) => candidate.reference === CARDS)!;
    const wav = wavOf(samplesOf(clip));
    const created = await call(runtime.apiUrl, 'POST', '/api/v1/public/recordings/upload-url', {
      token: org.keys.recorder,
      body: { filename: 'cards.wav', content_type: 'audio/wav', size_bytes: wav.length, title: 'Cards' },
    });
    expect(created.status).toBe(201);
    const { recording_id: id, upload_url: url, headers } = created.body.data;
    expect((await fetch(url, { method: 'PUT', headers, body: wav })).status).toBe(200);
    const plain = await settled(org, id);
    expect(plain).toMatchObject({ transcript_status: 'completed', language: 'en-US', transcript_vocabulary: null });
    expect(wordsOf(plain)).toEqual(normalizedWords(CARDS).map((word) => (word === 'clubs' ? 'cloves' : word)));

    // The term, ready.
    expect((await write(org, org.keys.writer, { terms: [{ phrase: 'clubs' }] })).body).toMatchObject({ status: 'pending', version: 1 });
    expect(await answered(org, 1)).toMatchObject({ status: 'ready', term_count: 1 });

    // Transcribed again: the engine's "cloves" is the term, every other word as it was.
    const corrected = await transcribeAgain(org, id);
    expect(corrected).toMatchObject({ transcript_status: 'completed', transcript_vocabulary: 'applied' });
    expect(wordsOf(corrected)).toEqual(normalizedWords(CARDS));
    expect((await recording(org, id)).body.transcript_vocabulary).toBe('applied');

    // While Transcribe is (still) preparing the version, a job runs without it and says so. The stand-in makes a
    // vocabulary READY in 20 ms, so the state is put back to pending on the item, as the consumer records it.
    const stored = (await getVocabulary(db, org.org, { consistent: true }))!;
    await recordVocabularyState(db, org.org, stored.version, { status: 'pending', at: new Date().toISOString() });
    expect((await read(org, org.keys.reader)).body).toMatchObject({ status: 'pending', version: 1 });
    const pending = await transcribeAgain(org, id);
    expect(pending).toMatchObject({ transcript_status: 'completed', transcript_vocabulary: 'pending' });
    expect(wordsOf(pending)).toContain('cloves');

    // A vocabulary of another language is not used for an English job: nothing said.
    expect((await write(org, org.keys.writer, { terms: [{ phrase: 'clubs' }], language_code: 'en-GB' })).status).toBe(200);
    expect(await answered(org, 2)).toMatchObject({ status: 'ready' });
    const otherLanguage = await transcribeAgain(org, id);
    expect(otherLanguage).toMatchObject({ transcript_status: 'completed', transcript_vocabulary: null });
    expect(wordsOf(otherLanguage)).toContain('cloves');

    // The events of the transcriptions never carry the term.
    const events = await eventsInclude(org.org, ['recording.transcription_completed'], id);
    expect(JSON.stringify(events.filter((event) => event.type.startsWith('recording.transcription')))).not.toMatch(/clubs|cloves/);
  }, 240_000);
});
