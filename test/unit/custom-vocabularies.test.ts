import {
  BadRequestException,
  ConflictException,
  CreateVocabularyCommand,
  DeleteVocabularyCommand,
  GetVocabularyCommand,
  InternalFailureException,
  LimitExceededException,
  NotFoundException,
  StartTranscriptionJobCommand,
  TranscribeClient,
  UpdateVocabularyCommand,
} from '@aws-sdk/client-transcribe';
import { mockClient } from 'aws-sdk-client-mock';
import { createCustomVocabularies, vocabularyNameOf } from '../../shared/transcription/custom-vocabularies';
import {
  VOCABULARY_MAX_BYTES,
  vocabularyLanguages,
  vocabularyProblems,
  vocabularyTable,
} from '../../shared/transcription/vocabulary-terms';

const transcribe = mockClient(TranscribeClient);
const client = new TranscribeClient({ region: 'eu-west-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
const vocabularies = createCustomVocabularies(client);
const meta = { $metadata: {} };

/**
 * The responses as Transcribe's API reference documents them (JSON on the wire, times in epoch
 * seconds), turned into what the SDK hands back (times as Date).
 */
const RECORDED = {
  CreateVocabulary: {
    VocabularyName: 'voice-org-o1',
    LanguageCode: 'en-US',
    VocabularyState: 'PENDING',
    LastModifiedTime: 1767225600.123,
  },
  UpdateVocabulary: { VocabularyName: 'voice-org-o1', LanguageCode: 'en-US', VocabularyState: 'PENDING', LastModifiedTime: 1767225700.5 },
  GetVocabularyReady: {
    VocabularyName: 'voice-org-o1',
    LanguageCode: 'en-US',
    VocabularyState: 'READY',
    LastModifiedTime: 1767225720,
    DownloadUri: 'https://s3.eu-west-1.amazonaws.com/aws-transcribe-dictionary-model-eu-west-1-prod/123/voice-org-o1/abc/input.txt',
  },
  GetVocabularyFailed: {
    VocabularyName: 'voice-org-o1',
    LanguageCode: 'en-US',
    VocabularyState: 'FAILED',
    LastModifiedTime: 1767225720,
    FailureReason: 'Invalid vocabulary format: the phrase "C3PO" contains the character "3", which is not supported.',
  },
} as const;
const sdkShape = <T extends { LastModifiedTime?: number }>(json: T) => ({
  ...json,
  ...(json.LastModifiedTime !== undefined ? { LastModifiedTime: new Date(json.LastModifiedTime * 1000) } : {}),
});

const input = { name: vocabularyNameOf('o1'), languageCode: 'en-US', fileUri: 's3://recordings/org/o1/vocabulary/3.txt' };

beforeEach(() => transcribe.reset());
afterAll(() => client.destroy());
afterEach(() => {
  // Starting a job with the vocabulary is the jobs adapter's (transcribe-jobs.ts), never this one's.
  expect(transcribe.commandCalls(StartTranscriptionJobCommand)).toHaveLength(0);
});

describe('CustomVocabularies.put', () => {
  it('creates the vocabulary from the table file', async () => {
    transcribe.on(CreateVocabularyCommand).resolves(sdkShape(RECORDED.CreateVocabulary));
    await expect(vocabularies.put(input)).resolves.toBe('created');
    expect(transcribe.commandCalls(CreateVocabularyCommand)[0].args[0].input).toEqual({
      VocabularyName: 'voice-org-o1',
      LanguageCode: 'en-US',
      VocabularyFileUri: 's3://recordings/org/o1/vocabulary/3.txt',
    });
    expect(transcribe.commandCalls(UpdateVocabularyCommand)).toHaveLength(0);
  });

  it('updates a vocabulary that exists (ConflictException on create)', async () => {
    transcribe
      .on(CreateVocabularyCommand)
      .rejects(
        new ConflictException({ message: 'The requested vocabulary name already exists. Use a different vocabulary name.', ...meta }),
      )
      .on(UpdateVocabularyCommand)
      .resolves(sdkShape(RECORDED.UpdateVocabulary));
    await expect(vocabularies.put({ ...input, languageCode: 'de-DE' })).resolves.toBe('updated');
    expect(transcribe.commandCalls(UpdateVocabularyCommand)[0].args[0].input).toEqual({
      VocabularyName: 'voice-org-o1',
      LanguageCode: 'de-DE',
      VocabularyFileUri: 's3://recordings/org/o1/vocabulary/3.txt',
    });
  });

  it('creates again when the vocabulary went away between create and update', async () => {
    transcribe
      .on(CreateVocabularyCommand)
      .rejectsOnce(new ConflictException({ message: 'The requested vocabulary name already exists.', ...meta }))
      .resolves(sdkShape(RECORDED.CreateVocabulary))
      .on(UpdateVocabularyCommand)
      .rejects(
        new NotFoundException({ message: "We can't find the requested resource. Check the name and try your request again.", ...meta }),
      );
    await expect(vocabularies.put(input)).resolves.toBe('created');
    expect(transcribe.commandCalls(CreateVocabularyCommand)).toHaveLength(2);
  });

  it('answers quota_exceeded at the account quota, and throws an update refused while PENDING', async () => {
    transcribe.on(CreateVocabularyCommand).rejects(
      new LimitExceededException({
        message: 'Either you have sent too many requests or your input file is too long. Wait before you resend your request.',
        ...meta,
      }),
    );
    await expect(vocabularies.put(input)).resolves.toBe('quota_exceeded');
    transcribe
      .reset()
      .on(CreateVocabularyCommand)
      .rejects(new BadRequestException({ message: 'You have reached the maximum number of vocabularies for this account.', ...meta }));
    await expect(vocabularies.put(input)).resolves.toBe('quota_exceeded');
    transcribe
      .reset()
      .on(CreateVocabularyCommand)
      .rejects(new ConflictException({ message: 'The requested vocabulary name already exists.', ...meta }))
      .on(UpdateVocabularyCommand)
      .rejects(new ConflictException({ message: 'The vocabulary is being processed. Try again later.', ...meta }));
    await expect(vocabularies.put(input)).rejects.toMatchObject({ name: 'ConflictException' });
  });

  it('throws a refusal of the file and other errors as they are', async () => {
    transcribe.on(CreateVocabularyCommand).rejects(new BadRequestException({ message: 'The vocabulary file URI is not valid.', ...meta }));
    await expect(vocabularies.put(input)).rejects.toMatchObject({ name: 'BadRequestException' });
    transcribe
      .reset()
      .on(CreateVocabularyCommand)
      .rejects(new InternalFailureException({ message: 'We encountered an internal error.', ...meta }));
    await expect(vocabularies.put(input)).rejects.toMatchObject({ name: 'InternalFailureException' });
  });
});

describe('CustomVocabularies.get', () => {
  it('reads the state, language and last change; a failed one with its reason', async () => {
    transcribe.on(GetVocabularyCommand).resolves(sdkShape(RECORDED.GetVocabularyReady));
    await expect(vocabularies.get('voice-org-o1')).resolves.toEqual({
      state: 'READY',
      languageCode: 'en-US',
      lastModified: new Date(1767225720 * 1000),
    });
    expect(transcribe.commandCalls(GetVocabularyCommand)[0].args[0].input).toEqual({ VocabularyName: 'voice-org-o1' });
    transcribe.on(GetVocabularyCommand).resolves(sdkShape(RECORDED.GetVocabularyFailed));
    await expect(vocabularies.get('voice-org-o1')).resolves.toMatchObject({
      state: 'FAILED',
      failureReason: RECORDED.GetVocabularyFailed.FailureReason,
    });
  });

  it('is undefined for a vocabulary Transcribe does not know, and throws other errors', async () => {
    transcribe.on(GetVocabularyCommand).rejects(new NotFoundException({ message: "We can't find the requested resource.", ...meta }));
    await expect(vocabularies.get('voice-org-none')).resolves.toBeUndefined();
    transcribe
      .on(GetVocabularyCommand)
      .rejects(new BadRequestException({ message: "The requested vocabulary couldn't be found. Check the vocabulary name.", ...meta }));
    await expect(vocabularies.get('voice-org-none')).resolves.toBeUndefined();
    transcribe.on(GetVocabularyCommand).rejects(new LimitExceededException({ message: 'Rate exceeded', ...meta }));
    await expect(vocabularies.get('voice-org-o1')).rejects.toMatchObject({ name: 'LimitExceededException' });
  });
});

describe('CustomVocabularies.remove', () => {
  it('deletes, and is fine with a vocabulary already gone', async () => {
    transcribe.on(DeleteVocabularyCommand).resolves({});
    await vocabularies.remove('voice-org-o1');
    expect(transcribe.commandCalls(DeleteVocabularyCommand)[0].args[0].input).toEqual({ VocabularyName: 'voice-org-o1' });
    transcribe.on(DeleteVocabularyCommand).rejects(new NotFoundException({ message: "We can't find the requested resource.", ...meta }));
    await expect(vocabularies.remove('voice-org-o1')).resolves.toBeUndefined();
    transcribe.on(DeleteVocabularyCommand).rejects(new InternalFailureException({ message: 'We encountered an internal error.', ...meta }));
    await expect(vocabularies.remove('voice-org-o1')).rejects.toMatchObject({ name: 'InternalFailureException' });
  });

  it('names an organization vocabulary voice-org-<orgId>', () => {
    expect(vocabularyNameOf('org_demo')).toBe('voice-org-org_demo');
  });
});

describe('vocabulary terms (Transcribe rules and table)', () => {
  it('writes the table: header, hyphenated phrases, one row per sounds_like, LF line ends', () => {
    expect(
      vocabularyTable([
        { phrase: 'Los Angeles', display_as: 'Los Angeles' },
        { phrase: 'Andorra-la-Vella', sounds_like: ['ann do rah', 'ann-dor-ah'] },
      ]),
    ).toBe(
      'Phrase\tSoundsLike\tIPA\tDisplayAs\nLos-Angeles\t\t\tLos Angeles\nAndorra-la-Vella\tann-do-rah\t\t\nAndorra-la-Vella\tann-dor-ah\t\t\n',
    );
  });

  it('accepts what Transcribe accepts, per language', () => {
    expect(vocabularyProblems([{ phrase: 'C.L.I.' }, { phrase: 'Dynamo-D.B.' }, { phrase: "O'Brien" }], 'en-GB')).toEqual([]);
    expect(vocabularyProblems([{ phrase: 'déjà vu' }, { phrase: 'Ça' }], 'fr-CA')).toEqual([]);
    expect(vocabularyProblems([{ phrase: 'Straße' }], 'de-DE')).toEqual([]);
    expect(vocabularyProblems([{ phrase: 'año' }], 'es-US')).toEqual([]);
    expect(vocabularyProblems([{ phrase: 'coração' }], 'pt-BR')).toEqual([]);
    expect(vocabularyProblems([{ phrase: 'perché' }], 'it-IT')).toEqual([]);
    expect(vocabularyProblems([{ phrase: 'één' }], 'nl-NL')).toEqual([]);
    // Decomposed é (e + U+0301) is written precomposed, the one form Transcribe lists.
    expect(vocabularyProblems([{ phrase: 'de\u0301ja\u0300' }], 'fr-FR')).toEqual([]);
  });

  it('names the rule each term breaks, and the vocabulary-wide ones at index -1', () => {
    const problems = vocabularyProblems(
      [
        { phrase: 'R2-D2' },
        { phrase: 'Straße' },
        { phrase: '' },
        { phrase: 'Amazon.com' },
        { phrase: 'r2 d2' },
        { phrase: 'x'.repeat(257) },
        { phrase: 'ok', sounds_like: ['oh kay', 'oh-kay', 'o.k'] },
        { phrase: 'fine', display_as: 'a\tb' },
      ],
      'en-US',
    );
    expect(problems.map(({ index, field }) => [index, field])).toEqual([
      [0, 'phrase'],
      [1, 'phrase'],
      [2, 'phrase'],
      [3, 'phrase'],
      [4, 'phrase'],
      [4, 'phrase'],
      [5, 'phrase'],
      [6, 'sounds_like'],
      [6, 'sounds_like'],
      [7, 'display_as'],
    ]);
    expect(problems[0].message).toMatch(/digit.*spell numbers out/);
    expect(problems[1].message).toMatch(/U\+00DF.*English character set/);
    expect(problems[3].message).toMatch(/period/);
    expect(problems[5].message).toMatch(/repeats term 0/);
    expect(problems[6].message).toMatch(/256/);
    expect(vocabularyProblems([{ phrase: 'hello' }], 'ja-JP')[0]).toMatchObject({
      index: -1,
      message: expect.stringMatching(/not available/),
    });
    expect(vocabularyLanguages()).toEqual(expect.arrayContaining(['en-*', 'es-*', 'fr-*', 'de-*', 'it-*', 'pt-*', 'nl-NL']));
  });

  it('refuses a file over 50 KB and more than 500 terms', () => {
    const terms = Array.from({ length: 501 }, (_, i) => ({
      phrase: `term-${'abcdefghij'[i % 10]}${'abcdefghij'[Math.floor(i / 10) % 10]}${'abcdefghij'[Math.floor(i / 100)]}`,
      display_as: 'D'.repeat(120),
    }));
    const whole = vocabularyProblems(terms, 'en-US').filter((problem) => problem.index === -1);
    expect(whole.map((problem) => problem.message)).toEqual([expect.stringMatching(/at most 500/), expect.stringMatching(/bytes.*50000/)]);
    expect(Buffer.byteLength(vocabularyTable(terms))).toBeGreaterThan(VOCABULARY_MAX_BYTES);
  });
});
