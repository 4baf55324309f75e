import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import type { OrgKeyCaller } from '../../shared/auth/policy';
import type { UpdateVocabularyBody } from '../../shared/schemas/transcript-controls';
import { jobControlsFor } from '../../shared/domain/transcription/job-controls';
import {
  POLL_SECONDS,
  QUOTA_REASON,
  syncVocabulary,
  TIMEOUT_REASON,
  type VocabularySyncDeps,
} from '../../shared/domain/transcript-settings/sync-vocabulary';
import { getOrgVocabulary, updateOrgVocabulary } from '../../shared/domain/transcript-settings/vocabulary';
import { createTableContext, type TableContext } from '../../shared/storage/dynamo';
import { createTableInput } from '../../shared/storage/table-definition';
import { getVocabulary, recordVocabularyState } from '../../shared/storage/transcript-settings';
import type { VocabularyFiles } from '../../shared/storage/vocabulary-files';
import type { CustomVocabularies, VocabularyStatus } from '../../shared/transcription/custom-vocabularies';
import { vocabularyNameOf } from '../../shared/transcription/custom-vocabularies';
import { vocabularyTable } from '../../shared/transcription/vocabulary-terms';
import { localDeployment, unique } from '../support/api';

/**
 * The vocabulary consumer (syncVocabulary) on the local DynamoDB, with Amazon Transcribe's
 * vocabularies and the S3 files in memory and a chosen clock: a version is written as a PUT
 * writes it, then each delivery of its event is one call, as the queue would make them every
 * POLL_SECONDS. The table is one of this file's own, with no stream, so the deployment's own
 * consumer never races the test. Then what a job's start takes from it (jobControlsFor).
 */
const { runtime } = localDeployment();
const db: TableContext = createTableContext({
  tableName: `vocabulary-sync-${unique()}`,
  region: runtime.region,
  endpoint: runtime.dynamoDbEndpoint,
});

beforeAll(async () => {
  await db.client.send(new CreateTableCommand({ ...createTableInput(db.tableName), StreamSpecification: undefined }));
});
afterAll(async () => {
  await db.client.send(new DeleteTableCommand({ TableName: db.tableName }));
});

const T0 = new Date('2031-05-04T09:00:00.000Z');

/** Transcribe's vocabularies in memory: put creates or updates (PENDING); the test moves the state, or makes put answer otherwise. */
function fakeVocabularies() {
  const stored = new Map<string, VocabularyStatus & { fileUri: string }>();
  const calls: string[] = [];
  const fake = {
    stored,
    calls,
    /** Makes the next put throw this (an AWS error by name), or answer quota_exceeded. */
    nextPut: undefined as undefined | { error: string; message?: string } | 'quota_exceeded',
    /** Runs inside put / get, as if something happened meanwhile. */
    duringPut: undefined as undefined | (() => Promise<void>),
    duringGet: undefined as undefined | (() => Promise<void>),
    setState(name: string, state: VocabularyStatus['state'], failureReason?: string) {
      const current = stored.get(name)!;
      stored.set(name, { ...current, state, ...(failureReason ? { failureReason } : {}) });
    },
  };
  const vocabularies: CustomVocabularies = {
    async put({ name, languageCode, fileUri }) {
      calls.push(`put ${name}`);
      await fake.duringPut?.();
      const answer = fake.nextPut;
      fake.nextPut = undefined;
      if (answer === 'quota_exceeded') return 'quota_exceeded';
      if (answer) throw Object.assign(new Error(answer.message ?? answer.error), { name: answer.error });
      const existed = stored.has(name);
      stored.set(name, { state: 'PENDING', languageCode, fileUri });
      return existed ? 'updated' : 'created';
    },
    async get(name) {
      calls.push(`get ${name}`);
      await fake.duringGet?.();
      const current = stored.get(name);
      if (!current) return undefined;
      const { fileUri: _file, ...status } = current;
      return status;
    },
    async remove(name) {
      calls.push(`remove ${name}`);
      stored.delete(name);
    },
  };
  return { fake, vocabularies };
}

/** The S3 files in memory, by key. */
function fakeFiles() {
  const objects = new Map<string, string>();
  const files: VocabularyFiles = {
    async write(orgId, version, table) {
      objects.set(`vocabularies/${orgId}/${version}.tsv`, table);
      return `s3://recordings/vocabularies/${orgId}/${version}.tsv`;
    },
    async remove(orgId, version) {
      objects.delete(`vocabularies/${orgId}/${version}.tsv`);
    },
  };
  return { objects, files };
}

function world() {
  const orgId = `org_vsync_${unique()}`;
  const clock = { now: T0 };
  const { fake, vocabularies } = fakeVocabularies();
  const { objects, files } = fakeFiles();
  const deps: VocabularySyncDeps = { db, now: () => clock.now, vocabularies, files };
  const admin: OrgKeyCaller = { kind: 'org_key', orgId, keyId: 'key_admin', scopes: ['recordings:write'], actor: 'key_admin' };
  const put = (terms: UpdateVocabularyBody['terms'], languageCode: UpdateVocabularyBody['language_code'] = 'en-US') =>
    updateOrgVocabulary({ db, now: () => clock.now }, admin, { terms, language_code: languageCode });
  const view = () => getOrgVocabulary({ db, now: () => clock.now }, orgId);
  const later = (seconds: number) => (clock.now = new Date(clock.now.getTime() + seconds * 1000));
  return { orgId, name: vocabularyNameOf(orgId), clock, fake, objects, deps, put, view, later };
}

const TERMS = [{ phrase: 'Halvorsen', sounds_like: ['hal vor sen'], display_as: 'Halvorsen AS' }, { phrase: 'Kubernetes' }];

describe('syncVocabulary: a version given to Transcribe and its answer recorded', () => {
  it('writes the table file, creates the vocabulary, polls every 30 s while PENDING, then records ready and removes the file', async () => {
    const w = world();
    expect(await w.put(TERMS)).toMatchObject({ status: 'pending', version: 1, term_count: 2 });

    expect(await syncVocabulary(w.deps, w.orgId)).toEqual({ retryAfterSeconds: POLL_SECONDS });
    expect(POLL_SECONDS).toBe(30);
    expect([...w.objects]).toEqual([[`vocabularies/${w.orgId}/1.tsv`, vocabularyTable(TERMS)]]);
    expect(w.fake.stored.get(w.name)).toEqual({
      state: 'PENDING',
      languageCode: 'en-US',
      fileUri: `s3://recordings/vocabularies/${w.orgId}/1.tsv`,
    });
    expect(await getVocabulary(db, w.orgId, { consistent: true })).toMatchObject({ version: 1, submitted_version: 1, status: 'pending' });
    expect(await w.view()).toMatchObject({ status: 'pending', reason: null });

    // The next delivery, 30 s later: still PENDING; Transcribe is asked, not given the file again.
    w.later(30);
    w.fake.calls.length = 0;
    expect(await syncVocabulary(w.deps, w.orgId)).toEqual({ retryAfterSeconds: 30 });
    expect(w.fake.calls).toEqual([`get ${w.name}`]);

    w.later(30);
    w.fake.setState(w.name, 'READY');
    expect(await syncVocabulary(w.deps, w.orgId)).toBe('ready');
    expect(w.objects.size).toBe(0);
    expect(await w.view()).toEqual({
      language_code: 'en-US',
      terms: TERMS,
      term_count: 2,
      status: 'ready',
      reason: null,
      version: 1,
      updated_at: T0.toISOString(),
      updated_by: 'key_admin',
    });
    expect(await getVocabulary(db, w.orgId, { consistent: true })).toMatchObject({
      status: 'ready',
      status_version: 1,
      status_at: new Date(T0.getTime() + 60_000).toISOString(),
    });
  });

  it('updates the vocabulary Transcribe already has for a new version', async () => {
    const w = world();
    await w.put(TERMS);
    await syncVocabulary(w.deps, w.orgId);
    w.fake.setState(w.name, 'READY');
    expect(await syncVocabulary(w.deps, w.orgId)).toBe('ready');

    expect(await w.put([{ phrase: 'Dashwood' }], 'en-GB')).toMatchObject({ status: 'pending', version: 2 });
    expect(await syncVocabulary(w.deps, w.orgId)).toEqual({ retryAfterSeconds: 30 });
    expect(w.fake.stored.get(w.name)).toMatchObject({
      state: 'PENDING',
      languageCode: 'en-GB',
      fileUri: expect.stringMatching(/\/2\.tsv$/),
    });
    w.fake.setState(w.name, 'READY');
    expect(await syncVocabulary(w.deps, w.orgId)).toBe('ready');
    expect(await w.view()).toMatchObject({ status: 'ready', version: 2, language_code: 'en-GB', terms: [{ phrase: 'Dashwood' }] });
  });

  it("records failed with Transcribe's reason when the vocabulary FAILED, and removes the file", async () => {
    const w = world();
    await w.put(TERMS);
    await syncVocabulary(w.deps, w.orgId);
    w.fake.setState(w.name, 'FAILED', 'Invalid vocabulary file: the phrase "x" is not valid.');
    expect(await syncVocabulary(w.deps, w.orgId)).toBe('failed');
    expect(await w.view()).toMatchObject({
      status: 'failed',
      reason: 'Invalid vocabulary file: the phrase "x" is not valid.',
      version: 1,
    });
    expect(w.objects.size).toBe(0);
  });

  it("records failed with the quota's reason when the account holds as many vocabularies as it may", async () => {
    const w = world();
    await w.put(TERMS);
    w.fake.nextPut = 'quota_exceeded';
    expect(await syncVocabulary(w.deps, w.orgId)).toBe('failed');
    expect(await w.view()).toMatchObject({ status: 'failed', reason: QUOTA_REASON });
    expect(QUOTA_REASON).toMatch(/100 by default/);
    // Nothing more is asked of Transcribe on a redelivery.
    w.fake.calls.length = 0;
    expect(await syncVocabulary(w.deps, w.orgId)).toBe('already');
    expect(w.fake.calls).toEqual([]);
  });

  it('records failed when Transcribe refuses the file itself (BadRequestException)', async () => {
    const w = world();
    await w.put(TERMS);
    w.fake.nextPut = { error: 'BadRequestException', message: 'The vocabulary file is malformed.' };
    expect(await syncVocabulary(w.deps, w.orgId)).toBe('failed');
    expect(await w.view()).toMatchObject({
      status: 'failed',
      reason: 'Amazon Transcribe refused the vocabulary: The vocabulary file is malformed.',
    });
  });

  it('retries later while Transcribe still prepares the previous version (ConflictException), and gives up on the last delivery', async () => {
    const w = world();
    await w.put(TERMS);
    w.fake.nextPut = { error: 'ConflictException', message: 'The requested vocabulary is being processed.' };
    expect(await syncVocabulary(w.deps, w.orgId)).toEqual({ retryAfterSeconds: 30 });
    // Nothing recorded: still pending, not submitted.
    const stored = await getVocabulary(db, w.orgId, { consistent: true });
    expect(stored).toMatchObject({ status: 'pending', version: 1 });
    expect(stored?.submitted_version).toBeUndefined();

    w.fake.nextPut = { error: 'ConflictException' };
    expect(await syncVocabulary(w.deps, w.orgId, { last: true })).toBe('failed');
    expect(await w.view()).toMatchObject({ status: 'failed', reason: TIMEOUT_REASON });
  });

  it('records failed with the timeout reason when the vocabulary is still PENDING at the last delivery', async () => {
    const w = world();
    await w.put(TERMS);
    expect(await syncVocabulary(w.deps, w.orgId)).toEqual({ retryAfterSeconds: 30 });
    expect(await syncVocabulary(w.deps, w.orgId, { last: true })).toBe('failed');
    expect(await w.view()).toMatchObject({ status: 'failed', reason: TIMEOUT_REASON });
  });

  it('throws what it cannot read (the queue delivers again)', async () => {
    const w = world();
    await w.put(TERMS);
    w.fake.nextPut = { error: 'InternalFailureException' };
    await expect(syncVocabulary(w.deps, w.orgId)).rejects.toThrow('InternalFailureException');
    expect(await w.view()).toMatchObject({ status: 'pending' });
  });

  it('leaves a version replaced meanwhile (superseded) and the newer one untouched, for its own event', async () => {
    const w = world();
    await w.put(TERMS);
    // Someone sets new terms while the consumer gives version 1 to Transcribe.
    w.fake.duringPut = async () => {
      w.fake.duringPut = undefined;
      await w.put([{ phrase: 'Dashwood' }]);
    };
    expect(await syncVocabulary(w.deps, w.orgId)).toBe('superseded');
    const newer = await getVocabulary(db, w.orgId, { consistent: true });
    expect(newer).toMatchObject({ version: 2, status: 'pending', status_version: 2, terms: [{ phrase: 'Dashwood' }] });
    expect(newer?.submitted_version).toBeUndefined();

    // Version 2's own event: it is given to Transcribe (an update) and recorded. Then it is replaced while it is READY.
    expect(await syncVocabulary(w.deps, w.orgId)).toEqual({ retryAfterSeconds: 30 });
    expect(w.fake.stored.get(w.name)?.fileUri).toMatch(/\/2\.tsv$/);
    w.fake.setState(w.name, 'READY');
    w.fake.duringGet = async () => {
      w.fake.duringGet = undefined;
      await w.put([{ phrase: 'Ferrars' }]);
    };
    expect(await syncVocabulary(w.deps, w.orgId)).toBe('superseded');
    expect(await w.view()).toMatchObject({ version: 3, status: 'pending', terms: [{ phrase: 'Ferrars' }] });
  });

  it('with no terms: ready at once, and the Transcribe vocabulary is removed', async () => {
    const w = world();
    await w.put(TERMS);
    await syncVocabulary(w.deps, w.orgId);
    w.fake.setState(w.name, 'READY');
    expect(await syncVocabulary(w.deps, w.orgId)).toBe('ready');
    expect(w.fake.stored.has(w.name)).toBe(true);

    expect(await w.put([])).toMatchObject({ status: 'ready', version: 2, term_count: 0, terms: [] });
    expect(await syncVocabulary(w.deps, w.orgId)).toBe('removed');
    expect(w.fake.stored.has(w.name)).toBe(false);
    expect(await w.view()).toMatchObject({ status: 'ready', version: 2, term_count: 0 });
    // A redelivery removes again (a vocabulary already gone is fine) and writes nothing new.
    const answered = await getVocabulary(db, w.orgId, { consistent: true });
    w.later(30);
    expect(await syncVocabulary(w.deps, w.orgId)).toBe('removed');
    expect(await getVocabulary(db, w.orgId, { consistent: true })).toEqual(answered);
  });

  it('answers already for a version already answered (a redelivered event), and for an organization without a vocabulary', async () => {
    const w = world();
    expect(await syncVocabulary(w.deps, w.orgId)).toBe('already');
    await w.put(TERMS);
    await syncVocabulary(w.deps, w.orgId);
    w.fake.setState(w.name, 'READY');
    expect(await syncVocabulary(w.deps, w.orgId)).toBe('ready');
    w.fake.calls.length = 0;
    expect(await syncVocabulary(w.deps, w.orgId)).toBe('already');
    expect(await syncVocabulary(w.deps, w.orgId, { last: true })).toBe('already');
    expect(w.fake.calls).toEqual([]);
    expect(await w.view()).toMatchObject({ status: 'ready', version: 1 });
  });
});

describe('jobControlsFor: the vocabulary a job starts with', () => {
  it('names the vocabulary of a ready version in the job language, and says applied', async () => {
    const w = world();
    await w.put(TERMS);
    await recordVocabularyState(db, w.orgId, 1, { status: 'ready', at: T0.toISOString() });
    expect(await jobControlsFor(db, w.orgId, 'en-US')).toEqual({ vocabularyName: `voice-org-${w.orgId}`, vocabulary: 'applied' });
  });

  it('says pending, and names none, while the version is being prepared', async () => {
    const w = world();
    await w.put(TERMS);
    expect(await jobControlsFor(db, w.orgId, 'en-US')).toEqual({ vocabulary: 'pending' });
    // A newer version written after an older one was ready: the ready status is the older one's.
    await recordVocabularyState(db, w.orgId, 1, { status: 'ready', at: T0.toISOString() });
    await w.put([{ phrase: 'Dashwood' }]);
    expect(await jobControlsFor(db, w.orgId, 'en-US')).toEqual({ vocabulary: 'pending' });
  });

  it('names none and says nothing for a failed version', async () => {
    const w = world();
    await w.put(TERMS);
    await recordVocabularyState(db, w.orgId, 1, { status: 'failed', failureReason: QUOTA_REASON, at: T0.toISOString() });
    expect(await jobControlsFor(db, w.orgId, 'en-US')).toEqual({});
  });

  it('names none and says nothing for a job in another language, one identifying it, or an organization with no terms', async () => {
    const w = world();
    expect(await jobControlsFor(db, w.orgId, 'en-US')).toEqual({});
    await w.put(TERMS);
    await recordVocabularyState(db, w.orgId, 1, { status: 'ready', at: T0.toISOString() });
    expect(await jobControlsFor(db, w.orgId, 'en-GB')).toEqual({});
    expect(await jobControlsFor(db, w.orgId, 'de-DE')).toEqual({});
    expect(await jobControlsFor(db, w.orgId, 'identify')).toEqual({});
    await w.put([]);
    expect(await jobControlsFor(db, w.orgId, 'en-US')).toEqual({});
  });
});
