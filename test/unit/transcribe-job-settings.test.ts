import { BadRequestException, StartTranscriptionJobCommand, TranscribeClient } from '@aws-sdk/client-transcribe';
import { mockClient } from 'aws-sdk-client-mock';
import { createTranscriptionJobs, TranscriptionJobRefusedError, type StartJob } from '../../shared/transcription/transcribe-jobs';

/**
 * The custom vocabulary a job starts with (docs/transcript-controls.md, "Vocabulary"): the
 * adapter passes `Settings.VocabularyName` when the domain names one, and no vocabulary
 * setting at all otherwise; Transcribe's refusal of a vocabulary (not READY, removed, another
 * language) is a refusal of the job, which the starter reads to run it without.
 */
const transcribe = mockClient(TranscribeClient);
const client = new TranscribeClient({ region: 'eu-west-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
const jobs = createTranscriptionJobs(client);

const job: StartJob = {
  jobName: 'voice-org-rec_1-2',
  bucket: 'recordings',
  key: 'org/o1/rec_1/media',
  outputBucket: 'recordings',
  outputKey: 'org/o1/rec_1/transcribe/2.json',
  language: { languageCode: 'en-US' },
  maxSpeakers: 10,
};
const sent = () => transcribe.commandCalls(StartTranscriptionJobCommand).map((call) => call.args[0].input);

beforeEach(() => transcribe.reset());
afterAll(() => client.destroy());

describe('TranscriptionJobs.start with a custom vocabulary', () => {
  it('sends Settings.VocabularyName beside the speaker labels', async () => {
    transcribe.on(StartTranscriptionJobCommand).resolves({});
    await expect(jobs.start({ ...job, vocabularyName: 'voice-org-x' })).resolves.toBe('started');
    expect(sent()).toEqual([
      {
        TranscriptionJobName: 'voice-org-rec_1-2',
        Media: { MediaFileUri: 's3://recordings/org/o1/rec_1/media' },
        OutputBucketName: 'recordings',
        OutputKey: 'org/o1/rec_1/transcribe/2.json',
        LanguageCode: 'en-US',
        Settings: { ShowSpeakerLabels: true, MaxSpeakerLabels: 10, VocabularyName: 'voice-org-x' },
      },
    ]);
  });

  it('sends no vocabulary setting without one (absent or empty)', async () => {
    transcribe.on(StartTranscriptionJobCommand).resolves({});
    await jobs.start(job);
    await jobs.start({ ...job, vocabularyName: undefined });
    await jobs.start({ ...job, vocabularyName: '' });
    for (const input of sent()) {
      expect(input.Settings).toEqual({ ShowSpeakerLabels: true, MaxSpeakerLabels: 10 });
      expect(JSON.stringify(input)).not.toMatch(/Vocabulary/);
    }
  });

  it('keeps the vocabulary beside redaction', async () => {
    transcribe.on(StartTranscriptionJobCommand).resolves({});
    await jobs.start({ ...job, vocabularyName: 'voice-org-x', redactEntityTypes: ['NAME'] });
    expect(sent()[0]).toMatchObject({
      Settings: { VocabularyName: 'voice-org-x' },
      ContentRedaction: { RedactionType: 'PII', RedactionOutput: 'redacted', PiiEntityTypes: ['NAME'] },
    });
  });

  it("reads Transcribe's refusal of the vocabulary as a refusal of the job, with its reason", async () => {
    transcribe.on(StartTranscriptionJobCommand).rejects(
      new BadRequestException({
        message: "The requested vocabulary couldn't be found. Check the vocabulary name and try your request again.",
        $metadata: {},
      }),
    );
    const refusal = await jobs.start({ ...job, vocabularyName: 'voice-org-x' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TranscriptionJobRefusedError);
    expect((refusal as TranscriptionJobRefusedError).reason).toMatch(/vocabulary couldn't be found/);
  });
});
